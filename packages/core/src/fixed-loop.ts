/**
 * The fixed-timestep loop.
 *
 * Why: a game that moves things by `x += v` per frame runs 2.4× faster on a 144 Hz display, and
 * one that multiplies by the frame's `dt` still jumps to different heights at different frame
 * rates, because a numerical integrator's error depends on its step. The cure is a fixed
 * timestep: real time is collected in an *accumulator* and the simulation advances in equal
 * *steps* (ticks) of `fixedDelta` whenever enough has accumulated. Rendering then shows the
 * state a fraction *alpha* (the overstep fraction) of the way from the previous step to the
 * current one, so motion is smooth at any refresh rate.
 *
 * Two clamps keep a slow frame from becoming a slower one (the "death spiral", where simulating
 * a long frame takes long enough to make the next frame longer still): `maxDeltaTime` caps the
 * real time one frame may bring (Unity, Fiedler, Bevy), and `maxStepsPerFrame` caps the steps
 * one frame may run (Godot). What they cut off is *dropped*: counted, reported, never simulated.
 *
 * Guarantees (each has a test named after it):
 * - `0 <= alpha <= 1` after every frame.
 * - `fixedTime` is always `tick * fixedDelta` (per run of constant `fixedDelta`).
 * - No drift: a step is due when the accumulator reaches `fixedDelta` within 1 ns.
 * - Bad frame times never throw and never put a NaN in the state; they count as 0 s.
 * - A throwing listener never stops the frame or loses simulated time.
 *
 * @example
 * ```ts
 * const loop = new FixedLoop({ tickRate: 60 });
 * loop.onFixedUpdate((dt) => { body.v -= 1800 * dt; body.y += body.v * dt; });
 * loop.onUpdate((dt, alpha) => draw(lerp(body.prevY, body.y, alpha)));
 * loop.start(); // requestAnimationFrame in a browser
 * ```
 */
import { STEP_TOLERANCE } from './constants.ts';
import type { Driver, FrameSink } from './driver.ts';
import { rafDriver } from './drivers/raf-driver.ts';
import { Hook, type ListenerOptions, type Unsubscribe } from './hook.ts';
import { JitterFix } from './jitter-fix.ts';
import {
  checkCaptureDeltaTime,
  checkErrorPolicy,
  checkFixedDelta,
  checkJitterFix,
  checkMaxDeltaTime,
  checkMaxSteps,
  checkTickRate,
  checkTimeScale,
  type ErrorPolicy,
  type FixedLoopOptions,
  resolveOptions,
} from './options.ts';

/**
 * What one frame did. The loop returns the same object every frame (so frames allocate
 * nothing): copy it (`{ ...info }`) if you keep it.
 */
export interface FrameInfo {
  /** Fixed steps run this frame. */
  steps: number;
  /** Overstep fraction after the frame, in [0, 1]: how far rendering is between two steps. */
  alpha: number;
  /** Game time this frame advanced, in seconds (scaled, after clamps). */
  delta: number;
  /** Real time this frame counted, in seconds (after sanitising and the `maxDeltaTime` clamp). */
  unscaledDelta: number;
  /** Game time dropped this frame by the clamps, in seconds (never simulated). */
  dropped: number;
}

/** Running totals of a loop. Read-only view; the loop updates it in place. */
export interface LoopStats {
  /** Frames run. */
  readonly frames: number;
  /** Fixed steps run. */
  readonly steps: number;
  /** Game time dropped by the clamps, in seconds. */
  readonly droppedTime: number;
  /** Bad frame times (NaN, negative, infinite, backwards timestamps) sanitised to 0 s. */
  readonly anomalies: number;
  /** Steps run by the last frame. */
  readonly lastSteps: number;
}

/** Kind of a sanitised frame time, passed to `onAnomaly`. */
export type AnomalyKind = 'nan' | 'negative' | 'infinite' | 'backwards';

/** A per-step listener: `(fixedDelta, tick)`; `tick` is the number of the step being run. */
export type StepListener = (fixedDelta: number, tick: number) => void;
/** A per-frame listener: `(delta, alpha)`. */
export type FrameListener = (delta: number, alpha: number) => void;
/** An `onStepsDropped` listener: whole steps dropped and the game time they stood for. */
export type DroppedListener = (steps: number, seconds: number) => void;
/** An `onAnomaly` listener: what was wrong and the raw value. */
export type AnomalyListener = (kind: AnomalyKind, value: number) => void;
/** An `onError` listener: the error and the name of the hook or adapter call it came from. */
export type ErrorListener = (error: unknown, source: string) => void;

/**
 * What an engine adapter fills in (floating-ui's `Platform` idea): the core calls these at fixed
 * points of the frame and knows nothing of the engine behind them. Every member is optional.
 * A throwing member is reported like a throwing listener.
 */
export interface LoopAdapter {
  /** Once per frame after `frameStart`, before any step (even if none runs): detect teleports. */
  beginFrame?(loop: FixedLoop): void;
  /** Once per frame, before the first step of a frame that runs steps: restore simulation poses. */
  beforeSteps?(loop: FixedLoop): void;
  /** Once per step, between `fixedUpdate` and `postSimulation`: the physics engine's step. */
  physicsStep?(fixedDelta: number, loop: FixedLoop): void;
  /** Once per step, after `postSimulation`: capture the new simulation pose. */
  afterStep?(fixedDelta: number, loop: FixedLoop): void;
  /**
   * Once per frame, after the steps: write interpolated (render) poses for `loop.alpha`.
   * (Read alpha from the loop: a fractional number passed as an argument would cost V8 a heap
   * box every frame.)
   */
  interpolate?(loop: FixedLoop): void;
  /** Once per frame, after `preRender`: draw. */
  render?(loop: FixedLoop): void;
  /** `loop.resetInterpolation()`: forget every previous pose (everything teleports). */
  resetInterpolation?(): void;
  /** The loop is being disposed or the adapter removed. */
  detach?(): void;
}

const NO_ORIGIN = Number.NaN;

/**
 * Most steps one frame's time may stand for: 2^40 (580 years at 60 Hz). Beyond it a step count
 * is no longer exact in doubles, and the remainder left in the accumulator would be off by more
 * than a step (a loop dead for years, or capped forever). Only an absurd frame time with neither
 * clamp reaches it; the excess is dropped like a clamp's.
 */
const COUNTABLE_STEPS = 2 ** 40;

/**
 * One simulation clock: feeds real frame times in, runs fixed steps and per-frame hooks out.
 * See the module doc above and `docs/timing-model.md`.
 */
export class FixedLoop implements FrameSink {
  #fixedDelta: number;
  #maxDeltaTime: number;
  #maxStepsPerFrame: number;
  #timeScale: number;
  #jitterFix: number;
  #captureDeltaTime: number;
  #errorPolicy: ErrorPolicy;

  #accumulator = 0;
  #tick = 0;
  #segmentTick = 0;
  #segmentTime = 0;
  #time = 0;
  #unscaledTime = 0;
  #alpha = 0;
  #inFixedStep = false;
  #paused = false;
  #pendingSteps = 0;
  /** A `fixedDelta` set during a frame, applied when the frame ends (0 = none). */
  #nextFixedDelta = 0;
  #lastTimestampMs = NO_ORIGIN;
  /** The timestamp of the frame being run or last run by frame()/frameAfterGap(); else NaN. */
  #frameTimestampMs = Number.NaN;
  #disposed = false;
  #inFrame = false;
  #driver: Driver | undefined;
  #adapters: LoopAdapter[] = [];
  #jitter = new JitterFix();
  #pendingError: { error: unknown } | undefined;

  readonly #stats = { frames: 0, steps: 0, droppedTime: 0, anomalies: 0, lastSteps: 0 };
  readonly #info: FrameInfo = { steps: 0, alpha: 0, delta: 0, unscaledDelta: 0, dropped: 0 };

  readonly #sink = (error: unknown, source: string): void => this.#report(error, source);
  readonly #frameStart = new Hook<FrameListener>('onFrameStart', this.#sink);
  readonly #fixedUpdate = new Hook<StepListener>('onFixedUpdate', this.#sink);
  readonly #postSimulation = new Hook<StepListener>('onPostSimulation', this.#sink);
  readonly #update = new Hook<FrameListener>('onUpdate', this.#sink);
  readonly #lateUpdate = new Hook<FrameListener>('onLateUpdate', this.#sink);
  readonly #preRender = new Hook<FrameListener>('onPreRender', this.#sink);
  readonly #postRender = new Hook<FrameListener>('onPostRender', this.#sink);
  readonly #stepsDropped = new Hook<DroppedListener>('onStepsDropped', this.#sink);
  readonly #anomaly = new Hook<AnomalyListener>('onAnomaly', this.#sink);
  readonly #error = new Hook<ErrorListener>('onError', (error) =>
    console.error('fixedtick: an onError listener threw:', error),
  );

  /** @param options validated; a bad value throws a `RangeError` naming it. */
  constructor(options: FixedLoopOptions = {}) {
    const o = resolveOptions(options);
    this.#fixedDelta = o.fixedDelta;
    this.#maxDeltaTime = o.maxDeltaTime;
    this.#maxStepsPerFrame = o.maxStepsPerFrame;
    this.#timeScale = o.timeScale;
    this.#jitterFix = o.jitterFix;
    this.#captureDeltaTime = o.captureDeltaTime;
    this.#errorPolicy = o.errorPolicy;
  }

  // ---- options (live) --------------------------------------------------------------------

  /**
   * Seconds of game time per step. Changing it keeps the accumulated time (Bevy semantics), so
   * nothing jumps; `fixedTime` continues from its current value.
   */
  get fixedDelta(): number {
    return this.#nextFixedDelta || this.#fixedDelta;
  }
  set fixedDelta(value: number) {
    const next = checkFixedDelta(value);
    if (this.#inFrame) {
      // the frame's remaining steps run with the step it started with (a change applies from the
      // next frame), so fixedTime must count them with that step too: switch when it ends
      this.#nextFixedDelta = next;
      return;
    }
    if (next === this.#fixedDelta) return;
    this.#segmentTime = this.fixedTime;
    this.#segmentTick = this.#tick;
    this.#fixedDelta = next;
  }
  /** Steps per second: `1 / fixedDelta`. */
  get tickRate(): number {
    return 1 / this.fixedDelta;
  }
  set tickRate(value: number) {
    this.fixedDelta = checkTickRate(value);
  }
  /** Clamp of one frame's unscaled time, in seconds; `Infinity` = none. */
  get maxDeltaTime(): number {
    return this.#maxDeltaTime;
  }
  set maxDeltaTime(value: number) {
    this.#maxDeltaTime = checkMaxDeltaTime(value);
  }
  /** Cap on steps per frame; `Infinity` = none. */
  get maxStepsPerFrame(): number {
    return this.#maxStepsPerFrame;
  }
  set maxStepsPerFrame(value: number) {
    this.#maxStepsPerFrame = checkMaxSteps(value);
  }
  /** Game time per real time (≥ 0; 0 pauses the simulation). */
  get timeScale(): number {
    return this.#timeScale;
  }
  set timeScale(value: number) {
    this.#timeScale = checkTimeScale(value);
  }
  /** Godot's `physics_jitter_fix` (0 = exact). */
  get jitterFix(): number {
    return this.#jitterFix;
  }
  set jitterFix(value: number) {
    const next = checkJitterFix(value);
    if (next > 0 && this.#jitterFix === 0) {
      // a fresh history, but time still owed (or borrowed) stays owed: none is lost by toggling
      const owed = this.#jitter.deficit;
      this.#jitter.reset();
      this.#jitter.deficit = owed;
    }
    this.#jitterFix = next;
  }
  /** When > 0, the fixed frame time of every frame (Unity `captureDeltaTime`). */
  get captureDeltaTime(): number {
    return this.#captureDeltaTime;
  }
  set captureDeltaTime(value: number) {
    this.#captureDeltaTime = checkCaptureDeltaTime(value);
  }
  /** `'report'` or `'throw'` (rethrow the first listener error after the frame). */
  get errorPolicy(): ErrorPolicy {
    return this.#errorPolicy;
  }
  set errorPolicy(value: ErrorPolicy) {
    this.#errorPolicy = checkErrorPolicy(value);
  }

  // ---- state ----------------------------------------------------------------------------

  /** Fixed steps run since creation. */
  get tick(): number {
    return this.#tick;
  }
  /** Game time simulated by fixed steps: `tick * fixedDelta` (per run of constant `fixedDelta`). */
  get fixedTime(): number {
    return this.#segmentTime + (this.#tick - this.#segmentTick) * this.#fixedDelta;
  }
  /** Game time at the current frame (scaled, after clamps). */
  get time(): number {
    return this.#time;
  }
  /** Real time counted by the loop (after sanitising and the `maxDeltaTime` clamp). */
  get unscaledTime(): number {
    return this.#unscaledTime;
  }
  /** Frames run since creation. */
  get frameCount(): number {
    return this.#stats.frames;
  }
  /** Overstep fraction of the last frame, in [0, 1]. */
  get alpha(): number {
    return this.#alpha;
  }
  /** Game time collected but not yet simulated, in seconds (`alpha * fixedDelta`, unclamped). */
  get accumulator(): number {
    return this.#accumulator;
  }
  /** True while `fixedUpdate`, the physics step and `postSimulation` run. */
  get inFixedStep(): boolean {
    return this.#inFixedStep;
  }
  /** True between `pause()` and `resume()`. */
  get paused(): boolean {
    return this.#paused;
  }
  /** True once `dispose()` has been called. */
  get disposed(): boolean {
    return this.#disposed;
  }
  /** Running totals. */
  get stats(): LoopStats {
    return this.#stats;
  }
  /**
   * The timestamp, in milliseconds exactly as given, of the frame being run (or last run) when
   * `frame()` or `frameAfterGap()` ran it; `NaN` when that frame came from `advance()` or
   * `stepOnce()`, or its timestamp was not a finite number. Set before `onFrameStart`, so
   * listeners can map event times (`event.timeStamp`) onto the frame; a refused nested call does
   * not change it.
   */
  get frameTimestampMs(): number {
    return this.#frameTimestampMs;
  }
  /** The last frame's {@link FrameInfo} (the object `advance`/`frame` return). */
  get lastFrame(): Readonly<FrameInfo> {
    return this.#info;
  }

  // ---- hooks ----------------------------------------------------------------------------

  /** Each frame, before any step (input sampling; Roblox's per-frame `PreSimulation`). */
  onFrameStart(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#frameStart.add(fn, options);
  }
  /** Each fixed step, before the physics step (Unity `FixedUpdate`, Godot `_physics_process`). */
  onFixedUpdate(fn: StepListener, options?: ListenerOptions): Unsubscribe {
    return this.#fixedUpdate.add(fn, options);
  }
  /** Each fixed step, after the physics step (Roblox `PostSimulation`). */
  onPostSimulation(fn: StepListener, options?: ListenerOptions): Unsubscribe {
    return this.#postSimulation.add(fn, options);
  }
  /** Each frame, after the steps and the interpolation pass (Unity `Update`, Godot `_process`). */
  onUpdate(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#update.add(fn, options);
  }
  /** Each frame, after `update` (Unity `LateUpdate`): cameras that follow things. */
  onLateUpdate(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#lateUpdate.add(fn, options);
  }
  /** Each frame, just before rendering (Roblox `PreRender`). */
  onPreRender(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#preRender.add(fn, options);
  }
  /** Each frame, after rendering. */
  onPostRender(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#postRender.add(fn, options);
  }
  /** When the step cap drops whole steps: `(steps, seconds)`. */
  onStepsDropped(fn: DroppedListener, options?: ListenerOptions): Unsubscribe {
    return this.#stepsDropped.add(fn, options);
  }
  /** When a bad frame time is sanitised to 0 s: `(kind, value)`. */
  onAnomaly(fn: AnomalyListener, options?: ListenerOptions): Unsubscribe {
    return this.#anomaly.add(fn, options);
  }
  /**
   * When a listener or an adapter throws: `(error, source)`. With no `onError` listener, errors
   * go to `console.error`. An `onError` listener that throws is itself sent to `console.error`.
   */
  onError(fn: ErrorListener, options?: ListenerOptions): Unsubscribe {
    return this.#error.add(fn, options);
  }

  // ---- adapters -------------------------------------------------------------------------

  /** Plugs an engine adapter in; returns the function that removes it. */
  addAdapter(adapter: LoopAdapter): Unsubscribe {
    this.#adapters = [...this.#adapters, adapter];
    return () => {
      if (!this.#adapters.includes(adapter)) return;
      this.#adapters = this.#adapters.filter((a) => a !== adapter);
      this.#call(adapter, 'detach');
    };
  }

  // ---- frames ---------------------------------------------------------------------------

  /**
   * Runs one frame that lasted `seconds` of real time (manual driving; tests; custom loops).
   * Bad values (NaN, negative, infinite) count as 0 s and as an anomaly.
   */
  advance(seconds: number): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    let frameTime = seconds;
    if (typeof seconds !== 'number' || !(seconds >= 0) || seconds === Number.POSITIVE_INFINITY) {
      frameTime = 0;
      this.#anomalyFor(seconds);
    }
    this.#frameTimestampMs = Number.NaN;
    this.#inFrameTime = frameTime;
    this.#inGapDropped = 0;
    return this.#runGuarded();
  }

  /**
   * Runs one frame at `timestampMs` (rAF-style, milliseconds). The first call sets the origin and
   * runs no step. A timestamp earlier than the last one, or not finite, counts as 0 s and as an
   * anomaly (an earlier one becomes the new origin).
   */
  frame(timestampMs: number): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    this.#inGapDropped = 0;
    if (typeof timestampMs !== 'number' || !Number.isFinite(timestampMs)) {
      this.#frameTimestampMs = Number.NaN;
      this.#anomalyFor(timestampMs);
      this.#inFrameTime = 0;
      return this.#runGuarded();
    }
    this.#frameTimestampMs = timestampMs;
    const last = this.#lastTimestampMs;
    this.#lastTimestampMs = timestampMs;
    if (Number.isNaN(last)) {
      this.#inFrameTime = 0;
      return this.#runGuarded();
    }
    if (timestampMs < last) {
      this.#countAnomaly('backwards', timestampMs);
      this.#inFrameTime = 0;
      return this.#runGuarded();
    }
    this.#inFrameTime = (timestampMs - last) / 1000;
    return this.#runGuarded();
  }

  /**
   * Runs one frame at `timestampMs` after a gap that must not be simulated (the page was
   * hidden): the time since the last frame is dropped, counted in `dropped`, and no step runs for
   * it.
   */
  frameAfterGap(timestampMs: number): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    if (typeof timestampMs !== 'number' || !Number.isFinite(timestampMs)) {
      this.#frameTimestampMs = Number.NaN;
      this.#anomalyFor(timestampMs);
      this.#inFrameTime = 0;
      this.#inGapDropped = 0;
      return this.#runGuarded();
    }
    this.#frameTimestampMs = timestampMs;
    const last = this.#lastTimestampMs;
    this.#lastTimestampMs = timestampMs;
    // a clock that went back is an anomaly here too (as in frame()), not a silent 0 s gap
    if (timestampMs < last) this.#countAnomaly('backwards', timestampMs);
    const gap = Number.isNaN(last) || timestampMs < last ? 0 : (timestampMs - last) / 1000;
    this.#inFrameTime = 0;
    this.#inGapDropped = gap * this.#effectiveScale();
    return this.#runGuarded();
  }

  /**
   * Runs exactly one fixed step now, as a frame of its own with `delta = fixedDelta`, whatever
   * the pause state (frame-advance debugging: `pause()`, then `stepOnce()` per click). The
   * accumulator is untouched.
   */
  stepOnce(): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    this.#frameTimestampMs = Number.NaN;
    this.#pendingSteps = 1;
    this.#inFrameTime = 0;
    this.#inGapDropped = 0;
    return this.#runGuarded();
  }

  /** Stops the simulation: steps stop, per-frame hooks go on with delta 0. */
  pause(): void {
    this.#paused = true;
  }
  /** Undoes `pause()`. */
  resume(): void {
    this.#paused = false;
  }

  /**
   * Forgets every previous pose: each adapter makes previous = current for all its bodies, so
   * the next rendered frame shows the current simulation state with no streak.
   */
  resetInterpolation(): void {
    const list = this.#adapters;
    for (let i = 0; i < list.length; i++) this.#call(list[i], 'resetInterpolation');
  }

  /**
   * Starts feeding frames from `driver` (default: {@link rafDriver}). The first frame sets the
   * time origin. Starting a started loop restarts it on the new driver.
   */
  start(driver?: Driver): void {
    if (this.#disposed) throw new Error('fixedtick: start() on a disposed FixedLoop');
    this.stop();
    const next = driver ?? rafDriver();
    this.#lastTimestampMs = NO_ORIGIN;
    next.start(this); // may throw (no rAF outside a browser): then the loop is not running
    this.#driver = next;
  }

  /** Stops the driver. The next `start()` sets a new time origin (the gap is not simulated). */
  stop(): void {
    const driver = this.#driver;
    this.#driver = undefined;
    driver?.stop();
  }

  /** True while a driver feeds the loop. */
  get running(): boolean {
    return this.#driver !== undefined;
  }

  /**
   * Stops the driver, detaches the adapters and removes every listener. Safe to call from inside
   * a hook: the frame under way finishes without calling further listeners. Frames after it run
   * nothing and return zeros.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.stop();
    const adapters = this.#adapters;
    this.#adapters = [];
    for (const adapter of adapters) this.#call(adapter, 'detach');
    for (const hook of [
      this.#frameStart,
      this.#fixedUpdate,
      this.#postSimulation,
      this.#update,
      this.#lateUpdate,
      this.#preRender,
      this.#postRender,
      this.#stepsDropped,
      this.#anomaly,
    ]) {
      hook.clear();
    }
  }

  // ---- internals ------------------------------------------------------------------------

  #effectiveScale(): number {
    return this.#paused ? 0 : this.#timeScale;
  }

  #anomalyFor(value: number): void {
    const kind: AnomalyKind =
      typeof value !== 'number' || Number.isNaN(value)
        ? 'nan'
        : value < 0 && Number.isFinite(value)
          ? 'negative'
          : 'infinite';
    this.#countAnomaly(kind, value);
  }

  #countAnomaly(kind: AnomalyKind, value: number): void {
    this.#stats.anomalies++;
    this.#anomaly.emit(kind, value);
  }

  #report(error: unknown, source: string): void {
    if (this.#errorPolicy === 'throw' && this.#pendingError === undefined) {
      this.#pendingError = { error };
    }
    if (this.#error.size === 0) {
      console.error(`fixedtick: error in ${source}:`, error);
      return;
    }
    this.#error.emit(error, source);
  }

  #call(adapter: LoopAdapter, method: 'detach' | 'resetInterpolation' | 'beginFrame'): void {
    try {
      if (method === 'beginFrame') adapter.beginFrame?.(this);
      else adapter[method]?.();
    } catch (error) {
      this.#report(error, `adapter.${method}`);
    }
  }

  /**
   * One frame. `frameTime` is sanitised real seconds; `gapDropped` is game time to drop outright
   * (after a hidden page).
   */
  /**
   * The frame's inputs (sanitised real seconds; game time to drop outright after a hidden page).
   * They travel in double fields rather than arguments: V8 boxes a double passed to a call it
   * does not inline, and frames must allocate nothing.
   */
  #inFrameTime = 0.5;
  #inGapDropped = 0.5;

  /**
   * Whether a frame may start now: false once disposed (the call then does nothing); throws when
   * called from inside a frame, before the call has changed anything.
   */
  #mayStartFrame(): boolean {
    if (this.#disposed) return false;
    if (this.#inFrame) {
      throw new Error('fixedtick: a frame was started from inside a frame (re-entrant advance)');
    }
    return true;
  }

  /** The frame a disposed loop returns: nothing ran. */
  #idleFrame(): FrameInfo {
    const info = this.#info;
    info.steps = 0;
    info.delta = 0;
    info.unscaledDelta = 0;
    info.dropped = 0;
    return info;
  }

  #runGuarded(): FrameInfo {
    const info = this.#info;
    this.#inFrame = true;
    try {
      this.#runFrame();
    } finally {
      this.#inFrame = false;
      this.#inFixedStep = false;
      const next = this.#nextFixedDelta;
      if (next !== 0) {
        this.#nextFixedDelta = 0;
        this.fixedDelta = next;
      }
    }
    const pending = this.#pendingError;
    if (pending !== undefined) {
      this.#pendingError = undefined;
      throw pending.error;
    }
    return info;
  }

  #runFrame(): void {
    const frameTime = this.#inFrameTime;
    const gapDropped = this.#inGapDropped;
    const info = this.#info;
    const stats = this.#stats;
    const fixedDelta = this.#fixedDelta;
    const forced = this.#pendingSteps;
    this.#pendingSteps = 0;

    // 2. capture mode, 3. clamp, 4. scale
    // stepOnce's frame brings no time of its own, not even in capture mode: exactly one step
    const raw = this.#captureDeltaTime > 0 && forced === 0 ? this.#captureDeltaTime : frameTime;
    const unscaled = Math.min(raw, this.#maxDeltaTime);
    const scale = this.#paused ? 0 : this.#timeScale;
    let delta = unscaled * scale;
    let dropped = (raw - unscaled) * scale + gapDropped;
    const countable = COUNTABLE_STEPS * fixedDelta;
    if (delta > countable) {
      dropped += delta - countable;
      delta = countable;
    }

    // 5. accumulate and count due steps
    let due: number;
    let accumulator: number;
    if (this.#jitterFix > 0 && delta > 0) {
      const jitter = this.#jitter;
      jitter.advance(this.#accumulator, delta, fixedDelta, this.#jitterFix);
      due = jitter.steps;
      accumulator = jitter.accumulator;
      delta = jitter.delta;
    } else if (scale > 0) {
      // time the jitter fix still owed (or had borrowed) when it was switched off is paid back
      // through the frames' delta, never below 0
      const owed = this.#jitter.deficit;
      if (owed !== 0) {
        const paid = Math.max(delta + owed, 0);
        this.#jitter.deficit = owed - (paid - delta);
        delta = paid;
      }
      accumulator = this.#accumulator + delta;
      // max(0, …): the tolerance can leave the accumulator a rounding error below -1 ns, which
      // must count as 0 steps, not -1 (that would hand back a whole step of time)
      due = Math.max(0, Math.floor((accumulator + STEP_TOLERANCE) / fixedDelta));
      accumulator -= due * fixedDelta;
    } else {
      // a paused frame (pause() or timeScale 0) runs no step, even when a smaller fixedDelta
      // has left more than one step in the accumulator: pause means steps stop. A running frame
      // of 0 s does run such steps (Bevy: the accumulated time is kept and spent).
      accumulator = this.#accumulator;
      due = 0;
    }

    // 6. cap (Godot): drop whole excess steps, keep the fractional remainder
    let steps = due;
    if (steps > this.#maxStepsPerFrame) {
      steps = this.#maxStepsPerFrame;
      const droppedSteps = due - steps;
      const droppedTime = droppedSteps * fixedDelta;
      dropped += droppedTime;
      delta -= droppedTime;
      if (delta < 0) delta = 0;
      this.#stepsDropped.emit(droppedSteps, droppedTime);
    }
    this.#accumulator = accumulator;
    if (forced > 0) {
      steps += forced;
      delta += forced * fixedDelta;
    }

    this.#time += delta;
    this.#unscaledTime += unscaled;
    info.steps = steps;
    info.delta = delta;
    info.unscaledDelta = unscaled;
    info.dropped = dropped;
    stats.frames++;
    stats.droppedTime += dropped;
    stats.lastSteps = steps;

    // Listener dispatch is written out at each hook (here and below) rather than called: V8
    // does not inline a dispatch function into this method, and a call site of its own lets V8
    // inline a hook's single listener. Several listeners go through Hook.emit.
    const previousAlpha = this.#alpha;
    const frameStartFns = this.#frameStart.fns;
    if (frameStartFns.length === 1) {
      try {
        frameStartFns[0](delta, previousAlpha);
      } catch (error) {
        this.#frameStart.report(error);
      }
    } else if (frameStartFns.length !== 0) this.#frameStart.emit(delta, previousAlpha);
    // adapters added during the frame take part from the next frame (like listeners)
    const adapters = this.#adapters;
    const hasAdapters = adapters.length !== 0;
    for (let i = 0; i < adapters.length; i++) this.#call(adapters[i], 'beginFrame');

    // 7. ticks
    let s = 0;
    for (; s < steps && !this.#disposed; s++) {
      if (s === 0 && hasAdapters) this.#adapterStep(0);
      this.#inFixedStep = true;
      const tick = this.#tick;
      const fixedUpdateFns = this.#fixedUpdate.fns;
      if (fixedUpdateFns.length === 1) {
        try {
          fixedUpdateFns[0](fixedDelta, tick);
        } catch (error) {
          this.#fixedUpdate.report(error);
        }
      } else if (fixedUpdateFns.length !== 0) this.#fixedUpdate.emit(fixedDelta, tick);
      if (hasAdapters) this.#adapterStep(1);
      const postSimulationFns = this.#postSimulation.fns;
      if (postSimulationFns.length === 1) {
        try {
          postSimulationFns[0](fixedDelta, tick);
        } catch (error) {
          this.#postSimulation.report(error);
        }
      } else if (postSimulationFns.length !== 0) this.#postSimulation.emit(fixedDelta, tick);
      this.#tick = tick + 1;
      stats.steps++;
      if (hasAdapters) this.#adapterStep(2);
      this.#inFixedStep = false;
    }
    if (s < steps) {
      // disposed mid-frame: report what really ran
      info.steps = s;
      stats.lastSteps = s;
    }

    // 8. interpolation pass
    const alphaRaw = accumulator / fixedDelta;
    const alpha = alphaRaw < 0 ? 0 : Math.min(alphaRaw, 1);
    this.#alpha = alpha;
    info.alpha = alpha;
    if (hasAdapters) this.#adapterStep(3);

    // 9. per-frame hooks and render
    const updateFns = this.#update.fns;
    if (updateFns.length === 1) {
      try {
        updateFns[0](delta, alpha);
      } catch (error) {
        this.#update.report(error);
      }
    } else if (updateFns.length !== 0) this.#update.emit(delta, alpha);
    const lateUpdateFns = this.#lateUpdate.fns;
    if (lateUpdateFns.length === 1) {
      try {
        lateUpdateFns[0](delta, alpha);
      } catch (error) {
        this.#lateUpdate.report(error);
      }
    } else if (lateUpdateFns.length !== 0) this.#lateUpdate.emit(delta, alpha);
    const preRenderFns = this.#preRender.fns;
    if (preRenderFns.length === 1) {
      try {
        preRenderFns[0](delta, alpha);
      } catch (error) {
        this.#preRender.report(error);
      }
    } else if (preRenderFns.length !== 0) this.#preRender.emit(delta, alpha);
    if (hasAdapters) this.#adapterStep(4);
    const postRenderFns = this.#postRender.fns;
    if (postRenderFns.length === 1) {
      try {
        postRenderFns[0](delta, alpha);
      } catch (error) {
        this.#postRender.report(error);
      }
    } else if (postRenderFns.length !== 0) this.#postRender.emit(delta, alpha);
  }

  /** Calls one adapter phase on every adapter, isolating errors (no closure, no allocation). */
  #adapterStep(phase: 0 | 1 | 2 | 3 | 4): void {
    const adapters = this.#adapters;
    if (adapters.length === 0) return;
    const fixedDelta = this.#fixedDelta;
    for (let i = 0; i < adapters.length; i++) {
      const a = adapters[i];
      try {
        if (phase === 0) a.beforeSteps?.(this);
        else if (phase === 1) a.physicsStep?.(fixedDelta, this);
        else if (phase === 2) a.afterStep?.(fixedDelta, this);
        else if (phase === 3) a.interpolate?.(this);
        else a.render?.(this);
      } catch (error) {
        this.#report(
          error,
          phase === 0
            ? 'adapter.beforeSteps'
            : phase === 1
              ? 'adapter.physicsStep'
              : phase === 2
                ? 'adapter.afterStep'
                : phase === 3
                  ? 'adapter.interpolate'
                  : 'adapter.render',
        );
      }
    }
  }
}
