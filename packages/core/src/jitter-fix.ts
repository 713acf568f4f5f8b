import { STEP_TOLERANCE } from './constants.ts';

/**
 * Number of past frames whose step counts the jitter fix keeps consistent. Godot's value: it is
 * what 144 Hz displays need with 60 Hz physics (12 frames run exactly 5 steps).
 */
export const JITTER_FIX_HISTORY = 12;

/**
 * Godot's `MainTimerSync` (main/main_timer_sync.cpp, `advance_core` + `advance_checked`), ported
 * to the loop's vocabulary: `accumulator` is Godot's `time_accum`, `delta` its process step.
 *
 * It remembers how many steps the last 12 frames ran. When the plain accumulator count for this
 * frame would break the pattern (a 60 Hz display jittering around the step boundary gives 0/2/0/2
 * instead of 1/1/1/1), it runs the typical count instead, provided that is within `jitterFix` of a
 * step of the exact count. The frame's delta is stretched or shrunk to match (by at most
 * `jitterFix` steps), and the difference is carried as a deficit into the next frame's delta, so
 * no time is lost or invented over time.
 *
 * Module-internal: {@link FixedLoop} owns one and calls {@link advance} once per frame.
 */
export class JitterFix {
  /** Sum of steps over the last i+1 frames (Godot `accumulated_physics_steps`). */
  readonly #accumulated = new Int32Array(JITTER_FIX_HISTORY);
  /** Typical value of `#accumulated[i]`: it or one more (Godot `typical_physics_steps`). */
  readonly #typical = new Int32Array(JITTER_FIX_HISTORY);
  /** Time borrowed by earlier frames, paid back through later deltas (Godot `time_deficit`). */
  deficit = 0;
  /** Output of {@link advance}: steps due this frame (before the step cap). */
  steps = 0;
  /** Output of {@link advance}: the frame's delta after smoothing. */
  delta = 0;
  /** Output of {@link advance}: the accumulator after the due steps are taken off. */
  accumulator = 0;

  constructor() {
    this.reset();
  }

  /** Forgets the history, as at start-up. */
  reset(): void {
    for (let i = 0; i < JITTER_FIX_HISTORY; i++) {
      this.#typical[i] = i;
      this.#accumulated[i] = i;
    }
    this.deficit = 0;
  }

  /**
   * Runs one frame: `accumulator` before this frame, the frame's (scaled) `delta`, the step and
   * the jitter fix. Results are left in {@link steps}, {@link delta}, {@link accumulator}.
   */
  advance(accumulator: number, delta: number, step: number, jitterFix: number): void {
    const minOutput = Math.max(delta / 8, 1e-6);
    const wanted = delta + this.deficit;

    // advance_core
    let accum = accumulator + wanted;
    let outDelta = wanted;
    let steps = Math.floor((accum + STEP_TOLERANCE) / step);
    let minTypical = this.#typical[0];
    let maxTypical = minTypical + 1;
    let updateTypical = false;
    for (let i = 0; i < JITTER_FIX_HISTORY - 1; i++) {
      const left = this.#typical[i + 1] - this.#accumulated[i];
      if (left > maxTypical || left + 1 < minTypical) {
        updateTypical = true;
        break;
      }
      if (left > minTypical) minTypical = left;
      if (left + 1 < maxTypical) maxTypical = left + 1;
    }
    if (steps < minTypical) {
      const maxPossible = Math.floor(accum / step + jitterFix);
      if (maxPossible < minTypical) {
        steps = maxPossible;
        updateTypical = true;
      } else {
        steps = minTypical;
      }
    } else if (steps > maxTypical) {
      const minPossible = Math.floor(accum / step - jitterFix);
      if (minPossible > maxTypical) {
        steps = minPossible;
        updateTypical = true;
      } else {
        steps = maxTypical;
      }
    }
    if (steps < 0) steps = 0;
    accum -= steps * step;
    for (let i = JITTER_FIX_HISTORY - 2; i >= 0; i--) {
      this.#accumulated[i + 1] = this.#accumulated[i] + steps;
    }
    this.#accumulated[0] = steps;
    if (updateTypical) {
      for (let i = JITTER_FIX_HISTORY - 1; i >= 0; i--) {
        if (this.#typical[i] > this.#accumulated[i]) {
          this.#typical[i] = this.#accumulated[i];
        } else if (this.#typical[i] < this.#accumulated[i] - 1) {
          this.#typical[i] = this.#accumulated[i] - 1;
        }
      }
    }

    // advance_checked: clamp the frame's delta, keeping delta - accum fixed.
    const deltaMinusAccum = outDelta - accum;
    const consistent = this.#averageSteps();
    if (consistent > 3) {
      outDelta = clamp(outDelta, this.#avgMin * step, this.#avgMax * step);
    }
    const maxDeviation = jitterFix * step;
    outDelta = clamp(outDelta, wanted - maxDeviation, wanted + maxDeviation);
    outDelta = clamp(outDelta, deltaMinusAccum, deltaMinusAccum + step);
    if (outDelta < minOutput) outDelta = minOutput;
    accum = outDelta - deltaMinusAccum;
    if (accum > step) {
      const extra = Math.floor((accum + STEP_TOLERANCE) / step);
      accum -= extra * step;
      steps += extra;
    }
    this.deficit = wanted - outDelta;
    this.steps = steps;
    this.delta = outDelta;
    this.accumulator = accum;
  }

  #avgMin = 0;
  #avgMax = 0;

  /** Godot `get_average_physics_steps`: the interval of steps per frame the history allows. */
  #averageSteps(): number {
    let min = this.#typical[0];
    let max = min + 1;
    for (let i = 1; i < JITTER_FIX_HISTORY; i++) {
      const lower = this.#typical[i];
      const currentMin = lower / (i + 1);
      if (currentMin > max) return this.#store(min, max, i);
      if (currentMin > min) min = currentMin;
      const currentMax = (lower + 1) / (i + 1);
      if (currentMax < min) return this.#store(min, max, i);
      if (currentMax < max) max = currentMax;
    }
    return this.#store(min, max, JITTER_FIX_HISTORY);
  }

  #store(min: number, max: number, consistent: number): number {
    this.#avgMin = min;
    this.#avgMax = max;
    return consistent;
  }
}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : Math.min(value, max);
}
