/**
 * The options of the timing graph and their checks: every size a positive number of CSS pixels,
 * a known corner, a non-empty toggle key, room for the plot, an element as the container and a
 * URL (or `false`) for the help line. A bad one is a `RangeError` (`TypeError` for a wrong kind
 * of object) naming the option and the value.
 */
import { optionValueError } from '../input/describe-value.ts';
import { TIMING_GRAPH_GUIDE } from './timing-graph-help.ts';
import { ALPHA_HEIGHT, TEXT_HEIGHT } from './timing-graph-style.ts';

/** Corner of the container the graph sits in. */
export type TimingGraphPosition = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** Options of {@link createTimingGraph}. Every size is in CSS pixels. */
export interface TimingGraphOptions {
  /**
   * Element the canvas is appended to. With `document.body` the graph is `position: fixed`;
   * with another element it is `position: absolute`, so give that element a position.
   * @defaultValue `document.body`
   */
  container?: HTMLElement;
  /**
   * Frames shown (the width of the history), one bar each.
   * @defaultValue 160
   */
  frames?: number;
  /** @defaultValue 320 */
  width?: number;
  /** @defaultValue 120 */
  height?: number;
  /** @defaultValue `'top-left'` */
  position?: TimingGraphPosition;
  /**
   * Frame time at the top of the linear part of the plot (its lower three quarters), in ms.
   * Longer frames, with what the clamps dropped of them, go on in the top quarter on a
   * logarithmic scale up to 1 s, so a 250 ms hitch and its dropped time still read at a glance;
   * longer still is capped in white.
   * @defaultValue the larger of 50 ms and three fixed steps
   */
  maxFrameMs?: number;
  /**
   * A `KeyboardEvent.key` that shows and hides the graph (case-insensitive; ignored while typing
   * in a form field or with Ctrl/Alt/Meta held). Off when not given.
   */
  toggleKey?: string;
  /**
   * Shown at first. A hidden graph keeps recording (cheaply) so it has history when shown.
   * @defaultValue true
   */
  visible?: boolean;
  /**
   * The guide that the graph's "What is this graph?" line links to (it explains the marks in
   * place); `false` leaves that line out.
   * @defaultValue docs/timing-graph.md in the repository
   */
  help?: string | false;
  /**
   * Measures how long each loop frame keeps the main thread busy — from the frame's start
   * (`onFrameStart`) to the graph's `onPostRender`: steps, interpolation and the render — and
   * draws it as a cyan mark on each bar, its mean in the text line. Next to the bar (the time
   * between frames) it shows how much of a frame is the game's own work: what moving physics
   * to a worker takes off the main thread.
   * @defaultValue false
   */
  mainThread?: boolean;
  /**
   * The clock `mainThread` measures with, in ms.
   * @defaultValue `performance.now()`
   */
  now?: () => number;
}

function positiveOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw optionValueError(name, value, 'a positive finite number');
  }
  return value;
}

const POSITIONS: readonly TimingGraphPosition[] = [
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
];

/** The checked options, with their defaults filled in. */
export interface GraphSettings {
  readonly width: number;
  readonly height: number;
  /** 0: follow the loop's fixed step (see `maxFrameMs`). */
  readonly fixedMaxMs: number;
  readonly position: TimingGraphPosition;
  readonly toggleKey: string | undefined;
  /** Shown at first. */
  readonly visible: boolean;
  /** The guide's address, or `false` for no help line. */
  readonly help: string | false;
  /** The clock of the main-thread mark, or `undefined` when it is off. */
  readonly mainThreadClock: (() => number) | undefined;
}

/** Checks `o` (a copy of the caller's options) and fills in the defaults. */
export function readGraphOptions(o: TimingGraphOptions): GraphSettings {
  // Whole CSS pixels, so every canvas call gets integers (see heightOf in timing-graph.ts).
  const width = Math.round(positiveOption('width', o.width, 320));
  const height = Math.round(positiveOption('height', o.height, 120));
  const fixedMaxMs =
    o.maxFrameMs === undefined ? 0 : positiveOption('maxFrameMs', o.maxFrameMs, 50);
  const position = o.position === undefined ? 'top-left' : o.position;
  if (!POSITIONS.includes(position)) {
    throw optionValueError('position', position, `one of ${POSITIONS.join(', ')}`);
  }
  const toggleKey = o.toggleKey;
  if (toggleKey !== undefined && (typeof toggleKey !== 'string' || toggleKey.length === 0)) {
    throw optionValueError('toggleKey', toggleKey, 'a non-empty string');
  }
  const minHeight = TEXT_HEIGHT + ALPHA_HEIGHT + 20;
  if (height < minHeight) {
    throw optionValueError('height', height, `at least ${minHeight}`);
  }
  const given = o.container;
  if (given !== undefined && typeof given?.appendChild !== 'function') {
    throw optionValueError('container', given, 'an element', TypeError);
  }
  const visible = o.visible === undefined ? true : o.visible;
  if (typeof visible !== 'boolean') throw optionValueError('visible', visible, 'true or false');
  const help = o.help === undefined ? TIMING_GRAPH_GUIDE : o.help;
  if (help !== false && (typeof help !== 'string' || help === '')) {
    throw optionValueError('help', help, 'a URL or false');
  }
  const mainThread = o.mainThread === undefined ? false : o.mainThread;
  if (typeof mainThread !== 'boolean') {
    throw optionValueError('mainThread', mainThread, 'true or false');
  }
  const now = o.now;
  if (now !== undefined && typeof now !== 'function') {
    throw optionValueError('now', now, 'a function returning milliseconds', TypeError);
  }
  const mainThreadClock = mainThread ? (now ?? (() => performance.now())) : undefined;
  return { width, height, fixedMaxMs, position, toggleKey, visible, help, mainThreadClock };
}
