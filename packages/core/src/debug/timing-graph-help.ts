/**
 * The timing graph's explanation, in place: a small "What is this graph?" line beside the canvas
 * that opens (an HTML `<details>`) to say what each mark means — bar height, bar colour, the
 * white line, red, the blue lane — with a link to the guide. Built once when the graph is
 * created; nothing here runs per frame.
 */
import {
  ALPHA_COLOUR,
  BACKGROUND,
  DROPPED_COLOUR,
  MAIN_THREAD_COLOUR,
  STEP_COLOURS,
  TEXT_COLOUR,
} from './timing-graph-style.ts';

/** The guide the help links to by default: docs/timing-graph.md in the repository. */
export const TIMING_GRAPH_GUIDE =
  'https://github.com/fixedtick/fixedtick/blob/main/docs/timing-graph.md';

/** Where the help goes: the graph's corner, size and container. */
export interface GraphHelpPlacement {
  readonly doc: Document;
  readonly container: HTMLElement;
  /** `position: fixed` on the body, `absolute` elsewhere (as the canvas). */
  readonly fixed: boolean;
  readonly top: boolean;
  readonly left: boolean;
  /** The canvas's size in CSS pixels. */
  readonly width: number;
  readonly height: number;
  /** The guide's address. */
  readonly guide: string;
  /** The main-thread mark is drawn (the `mainThread` option). */
  readonly mainThread: boolean;
}

/** A coloured square before a line of the explanation. */
function swatch(doc: Document, colour: string): HTMLSpanElement {
  const span = doc.createElement('span');
  span.style.cssText = `display:inline-block;width:8px;height:8px;margin-right:4px;background:${colour}`;
  return span;
}

/** One line of the explanation: an optional swatch, the mark in bold, what it means. */
function line(doc: Document, colour: string | undefined, mark: string, meaning: string) {
  const item = doc.createElement('div');
  if (colour !== undefined) item.append(swatch(doc, colour));
  const name = doc.createElement('b');
  name.textContent = mark;
  item.append(name, ` ${meaning}`);
  return item;
}

/**
 * Adds the help next to the graph (below a graph at the top, above one at the bottom) and
 * returns it; the caller shows, hides and removes it with the canvas.
 */
export function attachGraphHelp(placement: GraphHelpPlacement): HTMLDetailsElement {
  const { doc, width, height } = placement;
  const help = doc.createElement('details');
  help.className = 'fixedtick-timing-graph-help';
  const style = help.style;
  style.cssText = `position:${placement.fixed ? 'fixed' : 'absolute'};z-index:2147483000;box-sizing:border-box;max-width:${width}px;padding:2px 6px;border-radius:3px;font:11px/1.35 system-ui,sans-serif;color:${TEXT_COLOUR};background:${BACKGROUND}`;
  const offset = `${8 + height + 2}px`;
  style.top = placement.top ? offset : 'auto';
  style.bottom = placement.top ? 'auto' : offset;
  style.left = placement.left ? '8px' : 'auto';
  style.right = placement.left ? 'auto' : '8px';
  const summary = doc.createElement('summary');
  summary.textContent = 'What is this graph?';
  summary.style.cursor = 'pointer';
  const link = doc.createElement('a');
  link.href = placement.guide;
  link.textContent = 'Reading the timing graph (guide)';
  link.style.color = ALPHA_COLOUR;
  help.append(
    summary,
    line(doc, undefined, 'Bar height:', "the frame's real time; one bar per frame, newest right."),
    line(doc, STEP_COLOURS[1], 'Bar colour:', 'steps the frame ran (grey 0, green 1, yellow 2…).'),
    line(doc, '#ffffff', 'White line:', 'one fixed step; taller bars needed more than one.'),
    line(doc, DROPPED_COLOUR, 'Red on top:', 'time the clamps dropped, never simulated.'),
    line(doc, ALPHA_COLOUR, 'Blue lane:', 'alpha, where between two steps the frame is drawn.'),
  );
  if (placement.mainThread) {
    help.append(
      line(
        doc,
        MAIN_THREAD_COLOUR,
        'Cyan line:',
        'main-thread time: how long the frame kept it busy.',
      ),
    );
  }
  help.append(link);
  placement.container.appendChild(help);
  return help;
}
