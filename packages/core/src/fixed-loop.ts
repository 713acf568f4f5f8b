/**
 * The fixed-timestep loop.
 *
 * Why: a game that moves things by `x += v` per frame runs 2.4× faster on a 144 Hz display, and
 * one that multiplies by the frame's `dt` still jumps to different heights at different frame
 * rates, because a numerical integrator's error depends on its step. The cure is a fixed
 * timestep: real time is collected in an *accumulator* (the overstep) and the simulation advances
 * in equal *steps* (ticks) of `fixedDelta` whenever enough has accumulated. Rendering then shows
 * the state a fraction *alpha* (the overstep fraction) of the way from the previous step to the
 * current one, so motion is smooth at any refresh rate.
 *
 * Two clamps keep a slow frame from becoming a slower one (the "death spiral", where simulating
 * a long frame takes long enough to make the next frame longer still): `maxDeltaTime` caps the
 * game time one frame may bring (Unity, Fiedler, Bevy), and `maxStepsPerFrame` caps the steps
 * one frame may run (Godot). What they cut off is *dropped*: counted, reported, never simulated.
 * The arithmetic is {@link FixedClock}'s, the calls are {@link FrameDispatch}'s and taking a
 * frame in (sanitised, inside the re-entrancy guard) is {@link FrameRunner}'s; this class is the
 * public face: options, state, hooks, drivers.
 *
 * Guarantees (each has a test named after it):
 * - `0 <= alpha <= 1` after every frame.
 * - `fixedTime` is always `tick * fixedDelta` (per run of constant `fixedDelta`).
 * - `time >= fixedTime`, exactly, after every frame; neither is a running sum.
 * - No drift: a step is due when the accumulator reaches `fixedDelta` within 1 ns (or within a
 *   timestamp's own rounding, for `Date.now()`-sized timestamps).
 * - Bad frame times never throw and never put a NaN in the state; they count as 0 s. Every
 *   readable number stays finite for any input.
 * - A throwing listener never stops the frame or loses simulated time.
 * - A frame started from inside a frame is refused before it changes anything.
 *
 * @example
 * ```ts
 * const loop = new FixedLoop({ tickRate: 60 });
 * loop.onFixedUpdate((dt) => { body.v -= 1800 * dt; body.y += body.v * dt; });
 * loop.onUpdate((dt, alpha) => draw(lerp(body.prevY, body.y, alpha)));
 * loop.start(); // requestAnimationFrame in a browser
 * ```
 */
import type { Driver, FrameSink } from './driver.ts';
import { rafDriver } from './drivers/raf-driver.ts';
import { FixedClock } from './fixed-clock.ts';
import type { FrameContext } from './frame-context.ts';
import { FrameDispatch } from './frame-dispatch.ts';
import { FrameRunner } from './frame-runner.ts';
import type { LoopAdapter } from './loop-adapter.ts';
import { LoopHooks } from './loop-hooks.ts';
import type { FrameInfo, LoopStats } from './loop-types.ts';
import {
  checkCaptureDeltaTime,
  checkErrorPolicy,
  checkFixedDelta,
  checkJitterFix,
  checkMaxDeltaTime,
  checkMaxStepsOrAuto,
  checkSeconds,
  checkTickRate,
  checkTimeScale,
  type ErrorPolicy,
  type FixedLoopOptions,
  resolveOptions,
} from './options.ts';

// the types other modules of the core read from here
export type { FrameContext, FrameInfo, LoopAdapter };

/**
 * One simulation clock: feeds real frame times in, runs fixed steps and per-frame hooks out.
 * See the module doc above and `docs/timing-model.md`.
 */
export class FixedLoop extends LoopHooks implements FrameSink {
  readonly #clock: FixedClock;
  readonly #dispatch: FrameDispatch;
  readonly #runner: FrameRunner;
  #driver: Driver | undefined;

  /** @param options validated; a bad value throws a `RangeError` naming it. */
  constructor(options: FixedLoopOptions = {}) {
    const resolved = resolveOptions(options);
    const clock = new FixedClock(resolved);
    const dispatch = new FrameDispatch(resolved.errorPolicy, clock.fixedDelta);
    super(dispatch);
    this.#clock = clock;
    this.#dispatch = dispatch;
    this.#runner = new FrameRunner(clock, dispatch);
  }

  // ---- options (live; a change applies from the next frame) ----------------------------

  /**
   * Seconds of game time per step. Changing it keeps the accumulated time (Bevy semantics), so
   * nothing jumps; `fixedTime` continues from its current value. Set during a frame, it applies
   * when the frame ends.
   */
  get fixedDelta(): number {
    return this.#runner.fixedDelta;
  }
  set fixedDelta(value: number) {
    const next = checkFixedDelta(value);
    this.#runner.setStep(next, 1 / next);
  }
  /**
   * Steps per second: the `tickRate` given (exactly: Godot's jitter fix uses it as given), else
   * `1 / fixedDelta`. Setting it sets `fixedDelta = 1 / tickRate`.
   */
  get tickRate(): number {
    return this.#runner.tickRate;
  }
  set tickRate(value: number) {
    this.#runner.setStep(checkTickRate(value), value);
  }
  /**
   * Clamp of one frame's game time (after `timeScale`), in seconds; `Infinity` = none. As in
   * Unity ("the maximum value of Time.deltaTime in any given frame") and Bevy (`max_delta`).
   */
  get maxDeltaTime(): number {
    return this.#clock.maxDeltaTime;
  }
  set maxDeltaTime(value: number) {
    this.#clock.maxDeltaTime = checkMaxDeltaTime(value);
  }
  /**
   * The cap on steps per frame in force (`Infinity` = none). Set a number, or `'auto'` for the
   * steps of 2/15 s at the current tick rate (the default: 8 at 60 Hz, following `fixedDelta`).
   */
  get maxStepsPerFrame(): number {
    return this.#clock.maxStepsPerFrame;
  }
  set maxStepsPerFrame(value: number | 'auto') {
    this.#clock.setMaxSteps(checkMaxStepsOrAuto(value));
  }
  /** Game time per real time (≥ 0; 0 pauses the simulation). */
  get timeScale(): number {
    return this.#clock.timeScale;
  }
  set timeScale(value: number) {
    this.#clock.timeScale = checkTimeScale(value);
  }
  /**
   * Godot's `physics_jitter_fix` (0 = exact). The 12-frame step history is kept while it is 0,
   * as Godot keeps it, so switching it on later behaves as in Godot; time it borrowed is paid
   * back after it is switched off.
   */
  get jitterFix(): number {
    return this.#clock.jitterFix;
  }
  set jitterFix(value: number) {
    this.#clock.jitterFix = checkJitterFix(value);
  }
  /** When > 0, the fixed game time of every frame (Unity `captureDeltaTime`). */
  get captureDeltaTime(): number {
    return this.#clock.captureDeltaTime;
  }
  set captureDeltaTime(value: number) {
    this.#clock.captureDeltaTime = checkCaptureDeltaTime(value);
  }
  /** `'report'` or `'throw'` (rethrow the first listener error after the frame). */
  get errorPolicy(): ErrorPolicy {
    return this.#dispatch.errorPolicy;
  }
  set errorPolicy(value: ErrorPolicy) {
    this.#dispatch.errorPolicy = checkErrorPolicy(value);
  }

  // ---- state ----------------------------------------------------------------------------

  /** Fixed steps run since creation. */
  get tick(): number {
    return this.#clock.tick;
  }
  /**
   * Game time simulated by fixed steps: `tick * fixedDelta` (per run of constant `fixedDelta`).
   * Inside a step, the time the step starts from.
   */
  get fixedTime(): number {
    return this.#clock.fixedTime;
  }
  /**
   * Game time at the current frame: the end of its steps plus the overstep, derived (never a
   * running sum), so `time >= fixedTime` exactly after every frame.
   */
  get time(): number {
    return this.#clock.time;
  }
  /**
   * Real time of every frame so far, in seconds: the sanitised frame times, never clamped and not
   * changed by capture mode or the time scale (hidden-page gaps included).
   */
  get unscaledTime(): number {
    return this.#clock.unscaledTime;
  }
  /** Frames run since creation. */
  get frameCount(): number {
    return this.#runner.stats.frames;
  }
  /** Overstep fraction of the last frame, in [0, 1]. */
  get alpha(): number {
    return this.#dispatch.alpha;
  }
  /**
   * Game time collected but not yet simulated, in seconds (`alpha * fixedDelta`, unclamped: the
   * 1 ns step tolerance can leave it a rounding error below 0).
   */
  get accumulator(): number {
    return this.#clock.accumulator;
  }
  /**
   * Bevy's `overstep()`: game time collected towards the next step, in seconds, never below 0
   * (the {@link accumulator}, clamped).
   */
  get overstep(): number {
    const accumulator = this.#clock.accumulator;
    return Math.max(accumulator, 0);
  }
  /**
   * The timestamp, in milliseconds exactly as given, of the frame being run (or last run) when
   * `frame()` or `frameAfterGap()` ran it; `NaN` when that frame came from `advance()` or
   * `stepOnce()`, or its timestamp was not a finite number. Set before `onFrameStart`, so
   * listeners can map event times (`event.timeStamp`) onto the frame; a refused nested call does
   * not change it.
   */
  get frameTimestampMs(): number {
    return this.#runner.frameTimestampMs;
  }
  /** True while `fixedUpdate`, the physics step and `postSimulation` run. */
  get inFixedStep(): boolean {
    return this.#dispatch.inFixedStep;
  }
  /** True between `pause()` and `resume()`. */
  get paused(): boolean {
    return this.#runner.paused;
  }
  /** True once `dispose()` has been called. */
  get disposed(): boolean {
    return this.#runner.disposed;
  }
  /** Running totals. */
  get stats(): LoopStats {
    return this.#runner.stats;
  }
  /** The last frame's {@link FrameInfo} (the object `advance`/`frame` return). */
  get lastFrame(): Readonly<FrameInfo> {
    return this.#runner.info;
  }

  // ---- overstep (Bevy's Time<Fixed>) -----------------------------------------------------

  /**
   * Gives up `seconds` of the overstep, saturating at none (Bevy `discard_overstep`): after a
   * long load, `loop.discardOverstep(Infinity)` so nothing catches up. `time` does not go back
   * (the discarded time stays in it); `fixedTime` and the steps to come do not include it.
   * `seconds` is from 0 to 1e9, or `Infinity`.
   */
  discardOverstep(seconds: number): void {
    this.#clock.discardOverstep(checkSeconds(seconds, 'seconds', true));
  }
  /**
   * Adds `seconds` (0 to 1e9) to the overstep (Bevy `accumulate_overstep`): the next frames run
   * the steps it makes due, under the step cap, and `time` moves on by it now.
   */
  accumulateOverstep(seconds: number): void {
    this.#clock.accumulateOverstep(checkSeconds(seconds, 'seconds', false));
    this.#runner.stats.droppedTime = this.#clock.droppedTime;
  }

  // ---- frames ---------------------------------------------------------------------------

  /**
   * Runs one frame that lasted `seconds` of real time (manual driving; tests; custom loops).
   * Bad values (NaN, negative, infinite) count as 0 s and as an anomaly.
   */
  advance(seconds: number): FrameInfo {
    return this.#runner.advance(seconds);
  }

  /**
   * Runs one frame at `timestampMs` (rAF-style, milliseconds; any size, `Date.now()` included).
   * The first call sets the origin and runs no step. A timestamp earlier than the last one, or
   * not finite, counts as 0 s and as an anomaly (an earlier one becomes the new origin).
   */
  frame(timestampMs: number): FrameInfo {
    return this.#runner.frame(timestampMs, false);
  }

  /**
   * Runs one frame at `timestampMs` after a gap that must not be simulated (the page was
   * hidden): the time since the last frame is dropped, counted in `dropped`, and no step runs for
   * it. It still counts as real time (`unscaledDelta`, `unscaledTime`).
   */
  frameAfterGap(timestampMs: number): FrameInfo {
    return this.#runner.frame(timestampMs, true);
  }

  /**
   * Runs exactly one fixed step now, as a frame of its own with `delta = fixedDelta`, whatever
   * the pause state (frame-advance debugging: `pause()`, then `stepOnce()` per click). The
   * accumulator is untouched.
   */
  stepOnce(): FrameInfo {
    return this.#runner.stepOnce();
  }

  /** Stops the simulation: steps stop, per-frame hooks go on with delta 0. */
  pause(): void {
    this.#runner.paused = true;
  }
  /** Undoes `pause()`. */
  resume(): void {
    this.#runner.paused = false;
  }

  /**
   * Forgets every previous pose: each adapter makes previous = current for all its bodies, so
   * the next rendered frame shows the current simulation state with no streak.
   */
  resetInterpolation(): void {
    const dispatch = this.#dispatch;
    for (const adapter of dispatch.adapters) dispatch.callAdapter(adapter, 'resetInterpolation');
  }

  /**
   * Starts feeding frames from `driver` (default: {@link rafDriver}). The first frame sets the
   * time origin. Starting a started loop restarts it on the new driver.
   */
  start(driver?: Driver): void {
    if (this.#runner.disposed) throw new Error('fixedtick: start() on a disposed FixedLoop');
    this.stop();
    const next = driver ?? rafDriver();
    this.#runner.resetTimestamps();
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
   * a hook: the frame under way finishes without calling further listeners or adapters. Frames
   * after it run nothing, count nothing and return zeros.
   */
  dispose(): void {
    if (this.#runner.disposed) return;
    this.#runner.disposed = true;
    this.stop();
    this.#dispatch.dispose();
  }
}
