/**
 * The dispatch of a {@link FixedLoop}'s frames: its hooks, its adapters and the error routing,
 * and the one method that runs a planned frame through them in order (docs/timing-model.md):
 * frameStart → (fixedUpdate → physics → postSimulation) × steps → interpolation → update →
 * lateUpdate → preRender → render → postRender. The loop owns the clock and the frame entry
 * points; this owns who is called, when, and what happens when they throw.
 *
 * A listener that throws does not stop the frame: the error goes to `onError` (or
 * `console.error`), and the frame resumes at the point after the listener. Each hook is called
 * through its `run` fast path at a call site of its own, with the frame's numbers in locals
 * (docs/performance.md, "The loop").
 */
import type { FixedClock } from './fixed-clock.ts';
import { type FrameContext, type MutableFrameContext, newFrameContext } from './frame-context.ts';
import { Hook, nothing } from './hook.ts';
import type { LoopAdapter } from './loop-adapter.ts';
import type {
  AnomalyListener,
  DroppedListener,
  ErrorListener,
  FrameInfo,
  FrameListener,
  LoopStats,
  StepListener,
} from './loop-types.ts';
import type { ErrorPolicy } from './options.ts';

/** {@link LoopStats} as the loop writes them. */
export type MutableLoopStats = { -readonly [K in keyof LoopStats]: LoopStats[K] };

// The points of a frame, in order. A listener that throws is reported and the frame resumes at
// the point after it (see run).
const FRAME_START = 0;
const BEGIN_FRAME = 1;
const STEP_START = 2;
const FIXED_UPDATE = 3;
const PHYSICS_STEP = 4;
const POST_SIMULATION = 5;
const STEP_END = 6;
const INTERPOLATE = 7;
const UPDATE = 8;
const LATE_UPDATE = 9;
const PRE_RENDER = 10;
const RENDER = 11;
const POST_RENDER = 12;

/** The adapter calls made once per step or frame, named as `onError` reports them. */
type AdapterPhase = 'beforeSteps' | 'physicsStep' | 'afterStep' | 'interpolate' | 'render';

/** A loop's hooks, adapters and error routing, and the frame dispatch over them. */
export class FrameDispatch {
  /** What to do with a listener's error: report it, or also rethrow it after the frame. */
  errorPolicy: ErrorPolicy;
  /** The engine adapters; replaced (never mutated) when one is added or removed. */
  adapters: readonly LoopAdapter[] = [];
  /** True while `fixedUpdate`, the physics step and `postSimulation` run. */
  inFixedStep = false;
  /**
   * What adapters see of the frame under way (or of the last one): its step, steps, tick and,
   * from its interpolation pass on, its alpha.
   */
  readonly frame: MutableFrameContext;
  /** Set by `dispose()`: the frame under way calls no further listener or adapter. */
  disposed = false;
  #pendingError: { error: unknown } | undefined;
  /** The clock of the frame under way (its step holds for the whole frame). */
  #clock: FixedClock | undefined;
  /** The point of the frame being run (see FRAME_START …), for error reports. */
  #point = FRAME_START;

  readonly #sink = (error: unknown, source: string): void => this.report(error, source);
  /** `onFrameStart` listeners. */
  readonly frameStart = new Hook<FrameListener>('onFrameStart', this.#sink);
  /** `onFixedUpdate` listeners. */
  readonly fixedUpdate = new Hook<StepListener>('onFixedUpdate', this.#sink);
  /** `onPostSimulation` listeners. */
  readonly postSimulation = new Hook<StepListener>('onPostSimulation', this.#sink);
  /** `onUpdate` listeners. */
  readonly update = new Hook<FrameListener>('onUpdate', this.#sink);
  /** `onLateUpdate` listeners. */
  readonly lateUpdate = new Hook<FrameListener>('onLateUpdate', this.#sink);
  /** `onPreRender` listeners. */
  readonly preRender = new Hook<FrameListener>('onPreRender', this.#sink);
  /** `onPostRender` listeners. */
  readonly postRender = new Hook<FrameListener>('onPostRender', this.#sink);
  /** `onStepsDropped` listeners. */
  readonly stepsDropped = new Hook<DroppedListener>('onStepsDropped', this.#sink);
  /** `onAnomaly` listeners. */
  readonly anomaly = new Hook<AnomalyListener>('onAnomaly', this.#sink);
  /** `onError` listeners; one that throws goes to `console.error`. */
  readonly error = new Hook<ErrorListener>('onError', (error) =>
    console.error('fixedtick: an onError listener threw:', error),
  );

  /**
   * @param errorPolicy validated.
   * @param fixedDelta the loop's step before its first frame.
   */
  constructor(errorPolicy: ErrorPolicy, fixedDelta: number) {
    this.errorPolicy = errorPolicy;
    this.frame = newFrameContext(fixedDelta);
  }

  /** The overstep fraction of the last frame, set at its interpolation pass. */
  get alpha(): number {
    return this.frame.alpha;
  }

  /**
   * Sends an error from `source` (a hook's or adapter call's name) to `onError`, or to
   * `console.error` when nobody listens; under `'throw'` the first of a frame is kept for
   * {@link takeError}.
   */
  report(error: unknown, source: string): void {
    if (this.errorPolicy === 'throw' && this.#pendingError === undefined) {
      this.#pendingError = { error };
    }
    if (this.error.size === 0) {
      console.error(`fixedtick: error in ${source}:`, error);
      return;
    }
    this.error.emit(error, source);
  }

  /** The error kept under `'throw'` since the last call, if any (then forgotten). */
  takeError(): { error: unknown } | undefined {
    const pending = this.#pendingError;
    this.#pendingError = undefined;
    return pending;
  }

  /** Calls one of an adapter's frame-independent members, reporting what it throws. */
  callAdapter(adapter: LoopAdapter, method: 'detach' | 'resetInterpolation' | 'beginFrame'): void {
    try {
      if (method === 'beginFrame') adapter.beginFrame?.(this.frame);
      else adapter[method]?.();
    } catch (error) {
      this.report(error, `adapter.${method}`);
    }
  }

  /** Detaches every adapter and removes every listener but `onError`'s (`loop.dispose()`). */
  dispose(): void {
    this.disposed = true;
    const adapters = this.adapters;
    this.adapters = [];
    for (const adapter of adapters) this.callAdapter(adapter, 'detach');
    for (const hook of [
      this.frameStart,
      this.fixedUpdate,
      this.postSimulation,
      this.update,
      this.lateUpdate,
      this.preRender,
      this.postRender,
      this.stepsDropped,
      this.anomaly,
    ]) {
      hook.clear();
    }
  }

  /**
   * Runs one frame: plans it with `clock` (`forced` steps, `paused`), fills `info` and `stats`,
   * then calls the hooks and the adapters in frame order.
   */
  run(
    clock: FixedClock,
    info: FrameInfo,
    stats: MutableLoopStats,
    forced: number,
    paused: boolean,
  ): void {
    const frame = this.frame;
    this.#clock = clock;
    const previousAlpha = frame.alpha;
    clock.plan(forced, paused);
    const steps = clock.steps;
    const delta = clock.delta;
    // the clock's step holds for the whole frame (a new one applies when the frame ends)
    const fixedDelta = clock.fixedDelta;
    frame.fixedDelta = fixedDelta;
    frame.steps = steps;
    frame.tick = clock.tick;
    frame.lastStep = false;
    info.steps = steps;
    info.delta = delta;
    info.unscaledDelta = clock.unscaledDelta;
    info.dropped = clock.dropped;
    stats.frames++;
    stats.droppedTime = clock.droppedTime;
    stats.lastSteps = steps;
    // adapters added or removed during the frame take part from the next one
    const adapters = this.adapters;
    const hasAdapters = adapters.length !== 0;
    const droppedSteps = clock.droppedSteps;
    if (droppedSteps > 0) this.stepsDropped.emit(droppedSteps, droppedSteps * fixedDelta);

    // Dispatch. Each hook is called through its `run` fast path at a call site of its own, and
    // only when it has listeners (docs/performance.md, "The loop"); `#point` records where the
    // frame is. A listener that throws is reported and the frame resumes at the point after it:
    // one try for the whole frame, entered again only after a throw (the locals above and `step`
    // carry over).
    let resume = FRAME_START;
    let step = 0;
    for (;;) {
      try {
        if (resume <= FRAME_START) {
          this.#point = FRAME_START;
          if (this.frameStart.run !== nothing) this.frameStart.run(delta, previousAlpha);
        }
        if (resume <= BEGIN_FRAME) {
          for (let i = 0; i < adapters.length && !this.disposed; i++) {
            this.callAdapter(adapters[i], 'beginFrame');
          }
        }
        if (resume <= STEP_END) {
          let from = resume;
          for (; step < steps && !this.disposed; step++) {
            if (from <= STEP_START) {
              if (step === 0 && hasAdapters) this.#adapterStep(adapters, 'beforeSteps');
              this.inFixedStep = true;
              frame.tick = clock.tick;
              frame.lastStep = step === steps - 1;
            }
            if (from <= FIXED_UPDATE) {
              this.#point = FIXED_UPDATE;
              if (this.fixedUpdate.run !== nothing) this.fixedUpdate.run(fixedDelta, clock.tick);
            }
            if (from <= PHYSICS_STEP && hasAdapters) this.#adapterStep(adapters, 'physicsStep');
            if (from <= POST_SIMULATION) {
              this.#point = POST_SIMULATION;
              if (this.postSimulation.run !== nothing)
                this.postSimulation.run(fixedDelta, clock.tick);
            }
            clock.countStep();
            stats.steps++;
            if (hasAdapters) this.#adapterStep(adapters, 'afterStep');
            this.inFixedStep = false;
            frame.tick = clock.tick;
            frame.lastStep = false;
            from = STEP_START;
          }
          if (step < steps) {
            // disposed mid-frame: report what really ran
            info.steps = step;
            stats.lastSteps = step;
          }
        }
        const alpha = clock.alpha;
        if (resume <= INTERPOLATE) {
          frame.alpha = alpha;
          info.alpha = alpha;
          if (hasAdapters) this.#adapterStep(adapters, 'interpolate');
        }
        if (resume <= UPDATE) {
          this.#point = UPDATE;
          if (this.update.run !== nothing) this.update.run(delta, alpha);
        }
        if (resume <= LATE_UPDATE) {
          this.#point = LATE_UPDATE;
          if (this.lateUpdate.run !== nothing) this.lateUpdate.run(delta, alpha);
        }
        if (resume <= PRE_RENDER) {
          this.#point = PRE_RENDER;
          if (this.preRender.run !== nothing) this.preRender.run(delta, alpha);
        }
        if (resume <= RENDER && hasAdapters) this.#adapterStep(adapters, 'render');
        if (resume <= POST_RENDER) {
          this.#point = POST_RENDER;
          if (this.postRender.run !== nothing) this.postRender.run(delta, alpha);
        }
        return;
      } catch (error) {
        const point = this.#point;
        this.#hookAt(point).report(error);
        resume = point + 1;
        // a throw inside a step goes on with that step's next point
      }
    }
  }

  /** The hook whose single listener runs at `point` (the points that call listeners). */
  #hookAt(point: number): Hook<FrameListener> | Hook<StepListener> {
    if (point === FRAME_START) return this.frameStart;
    if (point === FIXED_UPDATE) return this.fixedUpdate;
    if (point === POST_SIMULATION) return this.postSimulation;
    if (point === UPDATE) return this.update;
    if (point === LATE_UPDATE) return this.lateUpdate;
    if (point === PRE_RENDER) return this.preRender;
    return this.postRender;
  }

  /** Calls one adapter phase on every adapter of the frame, isolating errors (no allocation). */
  #adapterStep(adapters: readonly LoopAdapter[], phase: AdapterPhase): void {
    const frame: FrameContext = this.frame;
    // the clock's own number, as the listeners get it: read from the context's field, the double
    // would be boxed afresh for each call (docs/performance.md, "The loop")
    const fixedDelta = (this.#clock as FixedClock).fixedDelta;
    for (let i = 0; i < adapters.length && !this.disposed; i++) {
      const adapter = adapters[i];
      try {
        if (phase === 'beforeSteps') adapter.beforeSteps?.(frame);
        else if (phase === 'physicsStep') adapter.physicsStep?.(fixedDelta, frame);
        else if (phase === 'afterStep') adapter.afterStep?.(fixedDelta, frame);
        else if (phase === 'interpolate') adapter.interpolate?.(frame);
        else adapter.render?.(frame);
      } catch (error) {
        this.report(error, `adapter.${phase}`);
      }
    }
  }
}
