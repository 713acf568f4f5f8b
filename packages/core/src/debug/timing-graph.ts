/**
 * A live timing graph: when a game stutters, a picture of frame time, steps per frame, alpha and
 * dropped time says why in a second (0/2-step alternation, a clamp cutting a long frame, a
 * backwards timestamp). It is a small 2D canvas laid over the page.
 *
 * @example
 * ```ts
 * import { createTimingGraph } from '@fixedtick/core/debug';
 * const graph = createTimingGraph(loop, { toggleKey: 'g' }); // press G to show/hide
 * // …later
 * graph.dispose();
 * ```
 */
import type { FixedLoop } from '../fixed-loop.ts';
import { optionValueError } from '../input/describe-value.ts';
import { attachGraphHelp } from './timing-graph-help.ts';
import { readGraphOptions, type TimingGraphOptions } from './timing-graph-options.ts';
import {
  ALPHA_COLOUR,
  ALPHA_HEIGHT,
  ANOMALY_COLOUR,
  BACKGROUND,
  CLIP_COLOUR,
  DROPPED_COLOUR,
  FONT,
  LINEAR_SHARE,
  LOG_TOP_MS,
  MAIN_THREAD_COLOUR,
  PAD,
  STEP_COLOURS,
  STEP_LINE_COLOUR,
  TEXT_COLOUR,
  TEXT_HEIGHT,
  ZONE_COLOUR,
} from './timing-graph-style.ts';
import { TimingHistory } from './timing-history.ts';

/**
 * What the graph reads from a loop. Any {@link FixedLoop} fits, and so does an adapter loop that
 * exposes the FixedLoop API (`ThreeFixedLoop`, `BabylonFixedLoop`).
 */
export type TimingGraphSource = Pick<
  FixedLoop,
  'onPostRender' | 'lastFrame' | 'stats' | 'tickRate' | 'fixedDelta' | 'timeScale'
> &
  Partial<Pick<FixedLoop, 'onFrameStart'>>;

/** A live timing graph; see {@link createTimingGraph}. */
export interface TimingGraph {
  /** The overlay canvas (already in the container). */
  readonly canvas: HTMLCanvasElement;
  /** The recorded frames and rates the graph draws; readable for tests and custom displays. */
  readonly history: TimingHistory;
  /** Shown or hidden; hiding keeps recording. */
  visible: boolean;
  /** Flips {@link TimingGraph.visible}; returns the new value. Bind it to your own UI. */
  toggle(): boolean;
  /** Redraws now (the graph redraws by itself after every frame). */
  draw(): void;
  /** Unsubscribes from the loop, removes the key listener and the canvas. Idempotent. */
  dispose(): void;
}

/**
 * Shows a live timing graph of `loop` in a small canvas overlay: per frame, a bar of frame time
 * coloured by the steps the frame ran (grey 0, green 1, yellow 2, orange 3, purple 4+), the
 * dropped time stacked in red on top, a white line at the fixed step, a pink stripe for a
 * sanitised bad frame time, and alpha in the lane below; above, fps, tick rate, steps/s and
 * dropped ms/s, refreshed 4 times a second.
 *
 * It listens to `onPostRender`, keeps its history in typed-array ring buffers and draws with
 * `fillRect` only, so once warm a frame allocates nothing. Creating it touches the DOM; importing
 * this module does not.
 *
 * Reading it: bars mostly green with a 60 Hz step on a 60 Hz display is healthy; grey and yellow
 * alternating there is 0/2-step beating (try `jitterFix: 0.5` or a 64 Hz tick); red on top of a
 * bar is time the clamps dropped (the game slowed down instead of spiralling); a pink stripe is a
 * bad frame time the loop sanitised. See docs/timing-graph.md.
 *
 * @example
 * ```ts
 * import { createTimingGraph } from '@fixedtick/core/debug';
 * const graph = createTimingGraph(loop, { toggleKey: 'g', visible: false }); // G shows it
 * // later: graph.dispose(); // unsubscribes and removes the canvas
 * ```
 *
 * @throws RangeError for a bad option (naming it); Error when there is no DOM and no container.
 */
export function createTimingGraph(
  loop: TimingGraphSource,
  options?: TimingGraphOptions,
): TimingGraph {
  let isLoop = false;
  let o: TimingGraphOptions = {};
  try {
    isLoop = typeof (loop as TimingGraphSource | undefined)?.onPostRender === 'function';
    // read once, as a copy: null, a primitive or an object that throws when read (a hostile
    // Proxy) counts as no options
    o = { ...options };
  } catch {}
  if (!isLoop) throw optionValueError('loop', loop, 'a FixedLoop', TypeError);
  const history = new TimingHistory(o.frames === undefined ? 160 : o.frames);
  const frames = history.capacity;
  const {
    width,
    height,
    fixedMaxMs,
    position,
    toggleKey,
    visible: shown,
    help: guide,
    mainThreadClock: clock,
  } = readGraphOptions(o);
  // measured only where the frame's start can be heard (any FixedLoop)
  const mainThreadClock = typeof loop.onFrameStart === 'function' ? clock : undefined;
  const given = o.container;

  const doc: Document | undefined =
    given?.ownerDocument ?? (typeof document === 'undefined' ? undefined : document);
  if (doc === undefined) {
    throw new Error('fixedtick: createTimingGraph needs a DOM (a document or a `container`)');
  }
  const container = given ?? doc.body;
  const view = doc.defaultView;
  const dpr = view?.devicePixelRatio && view.devicePixelRatio > 0 ? view.devicePixelRatio : 1;

  const canvas = doc.createElement('canvas');
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.className = 'fixedtick-timing-graph';
  canvas.setAttribute('aria-label', 'Fixedtick timing graph');
  const style = canvas.style;
  style.width = `${width}px`;
  style.height = `${height}px`;
  style.position = container === doc.body ? 'fixed' : 'absolute';
  style.zIndex = '2147483000';
  style.pointerEvents = 'none';
  // Both sides of each axis, so a page's own rule for canvases (`inset: 0`) cannot move it.
  const top = position.startsWith('top');
  const left = position.endsWith('left');
  style.top = top ? '8px' : 'auto';
  style.bottom = top ? 'auto' : '8px';
  style.left = left ? '8px' : 'auto';
  style.right = left ? 'auto' : '8px';
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new Error('fixedtick: createTimingGraph could not get a 2D context');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = FONT;
  ctx.textBaseline = 'top';
  container.appendChild(canvas);
  const help =
    guide === false
      ? undefined
      : attachGraphHelp({
          doc,
          container,
          fixed: container === doc.body,
          top,
          left,
          width,
          height,
          guide,
          mainThread: mainThreadClock !== undefined,
        });

  let visible = shown;
  let disposed = false;
  let drawnRates = -1;
  let lastAnomalies = loop.stats.anomalies;
  const show = (): void => {
    style.display = visible ? 'block' : 'none';
    if (help !== undefined) help.style.display = visible ? 'block' : 'none';
  };
  show();

  const plotTop = TEXT_HEIGHT;
  const plotBottom = height - ALPHA_HEIGHT - 2;
  const plotHeight = plotBottom - plotTop;
  const laneBottom = height - 1;
  const laneHeight = ALPHA_HEIGHT - 2;
  const barWidth = width / frames;
  const barFill = Math.max(1, Math.round(barWidth > 2 ? barWidth - 1 : barWidth));

  const drawText = (): void => {
    drawnRates = history.ratesVersion;
    const r = history.rates;
    ctx.fillStyle = BACKGROUND;
    ctx.clearRect(0, 0, width, plotTop);
    ctx.fillRect(0, 0, width, plotTop);
    ctx.fillStyle = TEXT_COLOUR;
    const tickRate = loop.tickRate;
    let line = `${r.fps.toFixed(0)} fps · tick ${Number(tickRate.toFixed(2))} Hz · ${r.stepsPerSecond.toFixed(0)} steps/s · dropped ${r.droppedMsPerSecond.toFixed(0)} ms/s`;
    if (mainThreadClock !== undefined) line += ` · main ${r.mainThreadMs.toFixed(1)} ms`;
    if (r.anomalies > 0) line += ` · ${r.anomalies} bad`;
    ctx.fillText(line, PAD, PAD, width - 2 * PAD);
    // Legend: one swatch per step count, then the other marks.
    let x = PAD;
    const y = PAD + 12;
    ctx.fillText('steps', x, y);
    x += 32;
    for (let s = 0; s < STEP_COLOURS.length; s++) {
      ctx.fillStyle = STEP_COLOURS[s];
      ctx.fillRect(x, y + 1, 7, 8);
      ctx.fillStyle = TEXT_COLOUR;
      ctx.fillText(s === STEP_COLOURS.length - 1 ? `${s}+` : `${s}`, x + 9, y);
      x += s === STEP_COLOURS.length - 1 ? 26 : 20;
    }
    ctx.fillStyle = DROPPED_COLOUR;
    ctx.fillRect(x, y + 1, 7, 8);
    ctx.fillStyle = TEXT_COLOUR;
    ctx.fillText('dropped', x + 9, y);
    x += 56;
    ctx.fillStyle = ALPHA_COLOUR;
    ctx.fillRect(x, y + 1, 7, 8);
    ctx.fillStyle = TEXT_COLOUR;
    ctx.fillText('alpha', x + 9, y);
    if (mainThreadClock !== undefined) {
      x += 44;
      ctx.fillStyle = MAIN_THREAD_COLOUR;
      ctx.fillRect(x, y + 4, 7, 2);
      ctx.fillStyle = TEXT_COLOUR;
      ctx.fillText('main', x + 9, y);
    }
  };

  const linearHeight = plotHeight * LINEAR_SHARE;
  // [top of the linear scale in ms, px per ms, px per log unit]. A typed array, not `let`s: a
  // double written to a closure variable is boxed (allocated) on every write.
  const scaling = new Float64Array([50, 1, 1]);
  /**
   * Height in whole pixels of a bar of `ms`: linear up to the max, then logarithmic, capped at
   * the plot. Whole pixels: a fractional number passed to a canvas call is boxed (allocated).
   */
  const heightOf = (ms: number): number => {
    const maxMs = scaling[0];
    const h = ms <= maxMs ? ms * scaling[1] : linearHeight + Math.log(ms / maxMs) * scaling[2];
    return Math.round(Math.min(h, plotHeight));
  };

  const draw = (): void => {
    if (disposed) return;
    if (drawnRates !== history.ratesVersion) drawText();
    const fixedMs = loop.fixedDelta * 1000;
    const maxMs = fixedMaxMs > 0 ? fixedMaxMs : Math.max(50, 3 * fixedMs);
    scaling[0] = maxMs;
    scaling[1] = linearHeight / maxMs;
    scaling[2] = (plotHeight - linearHeight) / Math.log(Math.max(LOG_TOP_MS / maxMs, 1.01));
    ctx.clearRect(0, plotTop, width, height - plotTop);
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, plotTop, width, height - plotTop);

    const n = history.length;
    const frameMs = history.frameMs;
    const droppedMs = history.droppedMs;
    const alpha = history.alpha;
    const steps = history.steps;
    const anomalies = history.anomalies;
    const mainThreadMs = history.mainThreadMs;
    for (let age = 0; age < n; age++) {
      const i = history.indexOf(age);
      const x = Math.round(width - (age + 1) * barWidth);
      if (anomalies[i] > 0) {
        ctx.fillStyle = ANOMALY_COLOUR;
        ctx.fillRect(x, plotTop, barFill, plotHeight);
      }
      const h = heightOf(frameMs[i]);
      const s = steps[i];
      ctx.fillStyle = STEP_COLOURS[s < STEP_COLOURS.length ? s : STEP_COLOURS.length - 1];
      // A 0 ms frame still gets a 1 px bar so its step count shows.
      const hb = Math.max(h, 1);
      ctx.fillRect(x, plotBottom - hb, barFill, hb);
      const total = frameMs[i] + droppedMs[i];
      const d = heightOf(total) - h;
      if (droppedMs[i] > 0) {
        ctx.fillStyle = DROPPED_COLOUR;
        const db = Math.max(d, 1);
        ctx.fillRect(x, plotBottom - h - db, barFill, db);
      }
      if (total >= LOG_TOP_MS) {
        ctx.fillStyle = CLIP_COLOUR;
        ctx.fillRect(x, plotTop, barFill, 2);
      }
      if (mainThreadClock !== undefined) {
        ctx.fillStyle = MAIN_THREAD_COLOUR;
        ctx.fillRect(x, plotBottom - heightOf(mainThreadMs[i]) - 1, barFill, 2);
      }
      const a = Math.round(alpha[i] * laneHeight);
      ctx.fillStyle = ALPHA_COLOUR;
      const ab = Math.max(a, 1);
      ctx.fillRect(x, laneBottom - ab, barFill, ab);
    }
    // Where the linear scale ends.
    ctx.fillStyle = ZONE_COLOUR;
    ctx.fillRect(0, Math.round(plotBottom - linearHeight), width, 1);
    // The fixed step: bars above it needed more than one step's worth of real time.
    const stepY = Math.round(plotBottom - fixedMs * scaling[1]);
    if (stepY > plotTop) {
      ctx.fillStyle = STEP_LINE_COLOUR;
      ctx.fillRect(0, stepY, width, 1);
    }
  };

  // [start of the frame under way, ms]: a typed array, as `scaling` above (no boxed doubles)
  const frameStart = new Float64Array(1);
  const onFrame = (): void => {
    const total = loop.stats.anomalies;
    const busy = mainThreadClock === undefined ? 0 : Math.max(mainThreadClock() - frameStart[0], 0);
    history.record(loop.lastFrame, total - lastAnomalies, loop.timeScale, busy);
    lastAnomalies = total;
    if (visible) draw();
  };
  const unsubscribe = loop.onPostRender(onFrame);
  // first of the frame's listeners: the frame's work starts here
  const unsubscribeStart =
    mainThreadClock === undefined
      ? undefined
      : loop.onFrameStart?.(
          () => {
            frameStart[0] = mainThreadClock();
          },
          { priority: Number.NEGATIVE_INFINITY },
        );

  const wanted = toggleKey?.toLowerCase();
  // Never throws: a keydown without a `key` (Chrome's autofill sends these) or with odd fields
  // is not the toggle key.
  const onKey = (event: KeyboardEvent): void => {
    try {
      if (event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
      // a keydown without a `key` throws here, and is ignored below
      if (event.key.toLowerCase() !== wanted) return;
      const target = event.target as HTMLElement | null;
      const tag = target?.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target?.isContentEditable) {
        return;
      }
      graph.toggle();
    } catch {
      // an odd event: not the toggle key
    }
  };
  if (toggleKey !== undefined) view?.addEventListener('keydown', onKey);

  const graph: TimingGraph = {
    canvas,
    history,
    get visible() {
      return visible;
    },
    set visible(value: boolean) {
      visible = Boolean(value);
      show();
      if (visible) {
        drawnRates = -1;
        draw();
      }
    },
    toggle() {
      graph.visible = !visible;
      return visible;
    },
    draw() {
      drawnRates = -1;
      draw();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      unsubscribe();
      unsubscribeStart?.();
      if (toggleKey !== undefined) view?.removeEventListener('keydown', onKey);
      canvas.remove();
      help?.remove();
    },
  };
  if (visible) draw();
  return graph;
}
