/**
 * The pure clock of a fixed-timestep loop: real frame times in, steps to run and the overstep
 * fraction (alpha) out. It calls nobody; {@link FixedLoop} asks it for each frame's plan and
 * dispatches the hooks.
 *
 * Per frame, in order (docs/timing-model.md): capture mode replaces the frame's game time; the time scale
 * applies; `maxDeltaTime` clamps the *scaled* delta (Unity, Bevy); the delta is accumulated and
 * the due steps counted (within the step tolerance, or by Godot's `MainTimerSync` when
 * `jitterFix > 0`); `maxStepsPerFrame` caps them (Godot: whole excess steps are dropped, the
 * remainder stays). What the clamps cut off is *dropped*: counted, never simulated.
 *
 * Guarantees (each has a test named after it):
 * - `0 <= alpha <= 1` after every frame.
 * - `fixedTime` is `tick × fixedDelta` per run of constant `fixedDelta`, never a running sum.
 * - `time` is derived the same way (`fixedTime` + the overstep), never a running sum of deltas,
 *   so `time >= fixedTime` exactly after every frame, across `fixedDelta` changes and pauses.
 * - `unscaledTime` is the sum of the sanitised real frame times: never clamped, not changed by
 *   capture mode or the time scale.
 * - Every number it holds stays finite for any input: sums saturate at `Number.MAX_VALUE`, and no
 *   frame may hold more than 2^40 steps (`COUNTABLE_STEPS`).
 *
 * @example
 * ```ts
 * const clock = new FixedClock(resolveOptions({ tickRate: 50 }));
 * clock.frameTime = 0.05; // 2.5 steps of time
 * clock.gapTime = 0;
 * clock.tolerance = STEP_TOLERANCE;
 * clock.plan(0, false);
 * clock.steps; // 2
 * for (let s = 0; s < clock.steps; s++) clock.countStep();
 * clock.alpha; // 0.5
 * ```
 */
import { AUTO_MAX_STEPS_SECONDS } from './constants.ts';
import { JitterFix } from './jitter-fix.ts';
import type { ResolvedLoopOptions } from './options.ts';
import { StepHistory } from './step-history.ts';

/**
 * Most steps one frame's time may stand for: 2^40 (580 years at 60 Hz). Beyond it a step count
 * is no longer exact in doubles, and the remainder left in the accumulator would be off by more
 * than a step. Only an absurd frame time with neither clamp reaches it; the excess is dropped.
 */
const COUNTABLE_STEPS = 2 ** 40;

/** `a + b` (both finite, ≥ 0), saturating at `Number.MAX_VALUE` instead of reaching `Infinity`. */
function saturatingAdd(a: number, b: number): number {
  return saturate(a + b);
}

/**
 * `value` (≥ 0), or `Number.MAX_VALUE` for `Infinity`. (A branch, not `Math.min`: see
 * docs/performance.md, "The loop".)
 */
function saturate(value: number): number {
  return value === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : value;
}

/** The `'auto'` cap at `tickRate`: the steps of 2/15 s, at least one. */
export function autoMaxSteps(tickRate: number): number {
  // the tolerance keeps 60 × 2/15 = 8.000000000000002 at 8
  return Math.max(1, Math.ceil(tickRate * AUTO_MAX_STEPS_SECONDS - 1e-9));
}

/** A fixed-timestep clock. See the module doc. */
export class FixedClock {
  #fixedDelta: number;
  #tickRate: number;
  /** Clamp of one frame's scaled delta, in seconds (validated by the loop). */
  maxDeltaTime: number;
  #maxSteps: number;
  #autoMaxSteps: boolean;
  /** Game time per real time (validated by the loop). */
  timeScale: number;
  /** Godot's `physics_jitter_fix`; the history is kept whatever its value (validated by the loop). */
  jitterFix: number;
  /** Fixed game time per frame when > 0 (validated by the loop). */
  captureDeltaTime: number;

  #accumulator = 0;
  #tick = 0;
  /** `fixedTime` and `tick` when `fixedDelta` last changed: fixedTime counts on from there. */
  #segmentTime = 0;
  #segmentTick = 0;
  /** Overstep given up by `discardOverstep`: part of `time`, never of `fixedTime`. */
  #discarded = 0;
  /** The tick the frame planned last ends at; `time` counts its steps before they run. */
  #endTick = 0;
  #unscaledTime = 0;
  #alpha = 0;
  #droppedTime = 0;
  readonly #history = new StepHistory();
  readonly #sync = new JitterFix(this.#history);

  // Inputs of plan(): fields, not arguments (docs/performance.md, "The loop").
  /** Input of {@link plan}: the frame's real seconds (sanitised: finite, ≥ 0). */
  frameTime = 0.5;
  /** Input of {@link plan}: real seconds of a hidden page to drop outright. */
  gapTime = 0.5;
  /** Input of {@link plan}: the step tolerance for this frame's clock, in seconds. */
  tolerance = 0.5;

  /** The last plan: steps to run (the cap applied, forced steps included). */
  steps = 0;
  /** The last plan: game seconds the frame advances (scaled, after clamps). */
  delta = 0;
  /** The last plan: real seconds the frame lasted (sanitised, never clamped). */
  unscaledDelta = 0;
  /** The last plan: game seconds dropped by the clamps, the cap and the gap. */
  dropped = 0;
  /** The last plan: whole steps the cap dropped (0 when it did not act). */
  droppedSteps = 0;

  /** @param options resolved and validated (see `resolveOptions`). */
  constructor(options: ResolvedLoopOptions) {
    this.#fixedDelta = options.fixedDelta;
    this.#tickRate = options.tickRate;
    this.maxDeltaTime = options.maxDeltaTime;
    this.#autoMaxSteps = options.maxStepsPerFrame === 'auto';
    this.#maxSteps =
      options.maxStepsPerFrame === 'auto'
        ? autoMaxSteps(options.tickRate)
        : options.maxStepsPerFrame;
    this.timeScale = options.timeScale;
    this.jitterFix = options.jitterFix;
    this.captureDeltaTime = options.captureDeltaTime;
  }

  // ---- settings (validated by the caller) ---------------------------------------------

  /** Seconds per step. */
  get fixedDelta(): number {
    return this.#fixedDelta;
  }
  /** Steps per second, exactly as given (`tickRate`), else `1 / fixedDelta`. */
  get tickRate(): number {
    return this.#tickRate;
  }
  /**
   * Sets the step (and its rate, which Godot's arithmetic uses as given); keeps the accumulated
   * time, and `fixedTime` continues from its current value (Bevy).
   */
  setStep(fixedDelta: number, tickRate: number): void {
    if (fixedDelta !== this.#fixedDelta) {
      this.#segmentTime = this.fixedTime;
      this.#segmentTick = this.#tick;
      this.#fixedDelta = fixedDelta;
    }
    this.#tickRate = tickRate;
    if (this.#autoMaxSteps) this.#maxSteps = autoMaxSteps(tickRate);
    this.#refresh();
  }
  /** The step cap in force (the `'auto'` one follows the tick rate). */
  get maxStepsPerFrame(): number {
    return this.#maxSteps;
  }
  /** True while the cap is `'auto'`. */
  get autoMaxStepsPerFrame(): boolean {
    return this.#autoMaxSteps;
  }
  /** Sets the cap: a number, or `'auto'` to follow the tick rate again. */
  setMaxSteps(value: number | 'auto'): void {
    this.#autoMaxSteps = value === 'auto';
    this.#maxSteps = value === 'auto' ? autoMaxSteps(this.#tickRate) : value;
  }

  // ---- state --------------------------------------------------------------------------

  /** Steps counted so far. */
  get tick(): number {
    return this.#tick;
  }
  /** Game time simulated by steps: `tick × fixedDelta` per run of constant `fixedDelta`. */
  get fixedTime(): number {
    return this.#segmentTime + (this.#tick - this.#segmentTick) * this.#fixedDelta;
  }
  /**
   * Game time at the end of the frame planned last: the end of its steps plus the overstep (and
   * any overstep discarded), so never below `fixedTime`.
   */
  get time(): number {
    // fixedTime at the end of the frame's steps, computed exactly as the fixedTime getter will
    // compute it then, plus non-negative terms: never below it
    const fixedDelta = this.#fixedDelta;
    const endTick = Math.max(this.#endTick, this.#tick);
    const endFixedTime = this.#segmentTime + (endTick - this.#segmentTick) * fixedDelta;
    return endFixedTime + Math.max(this.#accumulator, 0) + this.#discarded;
  }
  /** Real time of every frame so far (sanitised, never clamped). */
  get unscaledTime(): number {
    return this.#unscaledTime;
  }
  /** Game time collected towards the next step (Bevy's overstep); may be 1 ns below 0. */
  get accumulator(): number {
    return this.#accumulator;
  }
  /** Overstep fraction `accumulator / fixedDelta`, clamped to [0, 1]. */
  get alpha(): number {
    return this.#alpha;
  }
  /** Game time dropped so far (saturating). */
  get droppedTime(): number {
    return this.#droppedTime;
  }

  /** Counts one step as run: call it once per step of the plan, after the step's listeners. */
  countStep(): void {
    this.#tick++;
  }

  /**
   * Ends the frame planned last. Steps of the plan that were not run (the loop was disposed
   * during the frame) no longer count in `time`.
   */
  endFrame(): void {
    this.#endTick = this.#tick;
  }

  /** Gives up `seconds` of the overstep, down to none (Bevy `discard_overstep`). */
  discardOverstep(seconds: number): void {
    const kept = Math.max(Math.min(this.#accumulator, this.#accumulator - seconds), 0);
    const given = this.#accumulator - kept;
    if (given <= 0) return;
    this.#accumulator = kept;
    this.#discarded += given;
    this.#refresh();
  }

  /** Adds `seconds` to the overstep (Bevy `accumulate_overstep`), up to 2^40 steps' worth. */
  accumulateOverstep(seconds: number): void {
    const countable = COUNTABLE_STEPS * this.#fixedDelta;
    const next = this.#accumulator + seconds;
    if (next > countable) {
      this.#droppedTime = saturatingAdd(this.#droppedTime, next - countable);
      this.#accumulator = countable;
    } else {
      this.#accumulator = next;
    }
    this.#refresh();
  }

  /**
   * Plans one frame from {@link frameTime}, {@link gapTime} and {@link tolerance}, with `forced`
   * steps to run whatever the pause (`stepOnce`) and whether the loop is `paused`. Leaves the
   * plan in {@link steps}, {@link delta}, {@link unscaledDelta}, {@link dropped},
   * {@link droppedSteps}; `alpha` and `time` are those after the plan's steps. Call
   * {@link countStep} once per step, then {@link endFrame}.
   */
  plan(forced: number, paused: boolean): void {
    // The usual frame stays small enough for V8 to inline into the loop (docs/performance.md,
    // "The loop"); the rare cases are methods of their own that work on the same fields.
    const frameTime = this.frameTime;
    const gapTime = this.gapTime;
    const scale = paused ? 0 : this.timeScale;
    this.unscaledDelta = frameTime + gapTime;
    this.#unscaledTime = saturatingAdd(this.#unscaledTime, frameTime + gapTime);

    // capture mode (not for stepOnce: its frame brings exactly one step), scale, then clamp the
    // scaled delta; products saturate instead of reaching Infinity
    const raw = this.captureDeltaTime > 0 && forced === 0 ? this.captureDeltaTime : frameTime;
    const scaled = saturate(raw * scale);
    let delta = scaled;
    if (delta > this.maxDeltaTime) delta = this.maxDeltaTime;
    this.delta = delta;
    this.dropped = scaled - delta;
    if (gapTime > 0) this.dropped = saturatingAdd(this.dropped, saturate(gapTime * scale));
    this.steps = 0;
    this.droppedSteps = 0;

    // accumulate and count due steps; a paused frame (pause() or timeScale 0) runs none, even
    // when a smaller fixedDelta has left more than one step in the accumulator, and a stepOnce
    // frame leaves the accumulator as it was
    if (scale > 0 && forced === 0) {
      if (this.jitterFix > 0) this.#countWithJitterFix();
      else this.#countSteps();
    }
    if (this.steps > this.#maxSteps) this.#cap();
    if (forced > 0) this.#force(forced);
    if (this.dropped > 0) this.#droppedTime = saturatingAdd(this.#droppedTime, this.dropped);
    this.#endTick = this.#tick + this.steps;
    this.#refresh();
  }

  /** Accumulates the frame's delta and counts the due steps, within the tolerance. */
  #countSteps(): void {
    const fixedDelta = this.#fixedDelta;
    const countable = COUNTABLE_STEPS * fixedDelta;
    if (this.#sync.deficit !== 0 || this.delta > countable) this.#settleDelta();
    let accumulator = this.#accumulator + this.delta;
    if (accumulator > countable) accumulator = this.#dropUncountable(accumulator);
    // max(0, …): the tolerance can leave the accumulator a rounding error below -tolerance,
    // which must count as 0 steps, not -1 (that would hand back a whole step of time)
    let due = Math.floor((accumulator + this.tolerance) / fixedDelta);
    if (due < 0) due = 0;
    this.#accumulator = accumulator - due * fixedDelta;
    this.steps = due;
    this.#history.record(due);
  }

  /** `stepOnce`: its steps run whatever the pause, each with a whole `fixedDelta`. */
  #force(forced: number): void {
    this.steps += forced;
    this.delta += forced * this.#fixedDelta;
  }

  /**
   * The rare deltas of the plain count: one of more than 2^40 steps (the excess dropped), and
   * time the jitter fix still owed (or had borrowed) when it was switched off, paid back here as
   * Godot does with the fix at 0, but never below a 0 s frame.
   */
  #settleDelta(): void {
    const countable = COUNTABLE_STEPS * this.#fixedDelta;
    let delta = this.delta;
    if (delta > countable) {
      this.dropped = saturatingAdd(this.dropped, delta - countable);
      delta = countable;
    }
    const owed = this.#sync.deficit;
    if (owed !== 0) {
      let paid = delta + owed;
      if (paid < 0) paid = 0;
      this.#sync.deficit = owed - (paid - delta);
      delta = paid;
    }
    this.delta = delta;
  }

  /** An accumulator of more than 2^40 steps (after `accumulateOverstep`): drops the excess. */
  #dropUncountable(accumulator: number): number {
    const countable = COUNTABLE_STEPS * this.#fixedDelta;
    this.dropped = saturatingAdd(this.dropped, accumulator - countable);
    return countable;
  }

  /** Counts the due steps with Godot's `MainTimerSync` (`jitterFix > 0`). */
  #countWithJitterFix(): void {
    const countable = COUNTABLE_STEPS * this.#fixedDelta;
    if (this.delta > countable) {
      this.dropped = saturatingAdd(this.dropped, this.delta - countable);
      this.delta = countable;
    }
    const sync = this.#sync;
    sync.accumulator = this.#accumulator;
    sync.delta = this.delta;
    sync.step = this.#fixedDelta;
    sync.ticksPerSecond = this.#tickRate;
    sync.jitterFix = this.jitterFix;
    sync.advance();
    this.steps = sync.steps;
    this.#accumulator = sync.accumulator;
    this.delta = sync.delta;
  }

  /** The step cap (Godot): drops whole excess steps and keeps the fractional remainder. */
  #cap(): void {
    const droppedSteps = this.steps - this.#maxSteps;
    const stepsTime = droppedSteps * this.#fixedDelta;
    this.steps = this.#maxSteps;
    this.dropped = saturatingAdd(this.dropped, stepsTime);
    let delta = this.delta - stepsTime;
    if (delta < 0) delta = 0;
    this.delta = delta;
    this.droppedSteps = droppedSteps;
  }

  /** Recomputes `alpha` from the accumulator (`time` is computed when read). */
  #refresh(): void {
    let alpha = this.#accumulator / this.#fixedDelta;
    if (alpha < 0) alpha = 0;
    else if (alpha > 1) alpha = 1;
    this.#alpha = alpha;
  }
}
