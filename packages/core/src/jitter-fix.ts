import { JITTER_FIX_HISTORY, type StepHistory } from './step-history.ts';

export { JITTER_FIX_HISTORY };

/**
 * Godot's `MainTimerSync` (main/main_timer_sync.cpp: `advance_checked` around `advance_core`),
 * in the loop's vocabulary: `accumulator` is Godot's `time_accum`, the frame's delta its
 * `process_step`, `deficit` its `time_deficit`.
 *
 * It remembers how many steps the last 12 frames ran. When the plain count for this frame would
 * break the pattern (a 60 Hz display jittering around the step boundary gives 0/2/0/2 instead of
 * 1/1/1/1), it runs the typical count instead, provided that is within `jitterFix` of a step of
 * the plain count. The frame's delta is stretched or shrunk to match (by at most `jitterFix`
 * steps), and the difference is carried as a deficit into the next frame's delta, so no time is
 * lost or invented over time.
 *
 * The arithmetic is Godot's, operation for operation (a differential test runs it against a
 * separate transcription of the C++): steps are `floor(accumulator × ticksPerSecond)` with no
 * tolerance, and the smallest delta a frame may report is a C++ `float`
 * (`Math.fround(max(delta / 8, 1e-6))`), so a 0 s frame reports about 1 µs and pays it back in the
 * next. While the fix is 0 the loop counts steps itself and records them in {@link history}, so
 * the history is what Godot keeps (Godot runs the sync every frame) and switching the fix on
 * later behaves as in Godot.
 *
 * Module-internal: {@link FixedClock} owns one.
 */
export class JitterFix {
  /** The last 12 frames' steps (Godot `accumulated_physics_steps`, `typical_physics_steps`). */
  readonly history: StepHistory;
  /** Time borrowed by earlier frames, paid back through later deltas (Godot `time_deficit`). */
  deficit = 0;
  /** In and out of {@link advance}: the accumulator before the frame, then after its steps. */
  accumulator = 0;
  /** In and out of {@link advance}: the frame's delta, then the delta after smoothing. */
  delta = 0;
  /** Input of {@link advance}: seconds per step (Godot `physics_step`). */
  step = 1;
  /** Input of {@link advance}: steps per second (Godot `physics_ticks_per_second`). */
  ticksPerSecond = 1;
  /** Input of {@link advance}: Godot's `physics_jitter_fix`. */
  jitterFix = 0.5;
  /** Output of {@link advance}: steps due this frame (before the step cap). */
  steps = 0;

  #averageMin = 0;
  #averageMax = 0;

  /** @param history the step history it shares with the loop (kept while the fix is 0). */
  constructor(history: StepHistory) {
    this.history = history;
  }

  /**
   * Runs one frame (Godot `advance_checked`) from the inputs in the fields ({@link accumulator},
   * {@link delta}, {@link step}, {@link ticksPerSecond}, {@link jitterFix}: fields, not
   * arguments, so a frame allocates nothing — docs/performance.md, "The loop"). Results are left
   * in {@link steps}, {@link delta} and {@link accumulator}.
   */
  advance(): void {
    const accumulator = this.accumulator;
    const delta = this.delta;
    const step = this.step;
    const ticksPerSecond = this.ticksPerSecond;
    const jitterFix = this.jitterFix;
    // `float min_output_step = p_process_step / 8; min_output_step = MAX(min_output_step, 1E-6);`
    const eighth = Math.fround(delta / 8);
    const minOutput = Math.fround(Math.max(eighth, 1e-6));
    const wanted = delta + this.deficit;

    // advance_core
    let accum = accumulator + wanted;
    let steps = Math.floor(accum * ticksPerSecond);
    const history = this.history;
    let updateTypical = history.typicalBounds();
    const minTypical = history.minTypical;
    const maxTypical = history.maxTypical;
    if (steps < minTypical) {
      const maxPossible = Math.floor(accum * ticksPerSecond + jitterFix);
      if (maxPossible < minTypical) {
        steps = maxPossible;
        updateTypical = true;
      } else {
        steps = minTypical;
      }
    } else if (steps > maxTypical) {
      const minPossible = Math.floor(accum * ticksPerSecond - jitterFix);
      if (minPossible > maxTypical) {
        steps = minPossible;
        updateTypical = true;
      } else {
        steps = maxTypical;
      }
    }
    if (steps < 0) steps = 0;
    accum -= steps * step;
    history.add(steps, updateTypical);

    // advance_checked: clamp the frame's delta, keeping delta - accum fixed
    const deltaMinusAccum = wanted - accum;
    let outDelta = wanted;
    if (this.#averageSteps() > 3) {
      outDelta = clamp(outDelta, this.#averageMin * step, this.#averageMax * step);
    }
    const maxDeviation = jitterFix * step;
    outDelta = clamp(outDelta, wanted - maxDeviation, wanted + maxDeviation);
    outDelta = clamp(outDelta, deltaMinusAccum, deltaMinusAccum + step);
    if (outDelta < minOutput) outDelta = minOutput;
    accum = outDelta - deltaMinusAccum;
    if (accum > step) {
      const extra = Math.floor(accum * ticksPerSecond);
      accum -= extra * step;
      steps += extra;
    }
    this.deficit = wanted - outDelta;
    this.steps = steps;
    this.delta = outDelta;
    this.accumulator = accum;
  }

  /**
   * Godot `get_average_physics_steps`: the interval of steps per frame the history allows (into
   * `#averageMin`/`#averageMax`); returns for how many frames back it is consistent.
   */
  #averageSteps(): number {
    const history = this.history;
    let min = history.typical(0);
    let max = min + 1;
    let consistent = JITTER_FIX_HISTORY;
    for (let i = 1; i < JITTER_FIX_HISTORY; i++) {
      const lower = history.typical(i);
      const currentMin = lower / (i + 1);
      if (currentMin > max) {
        consistent = i;
        break;
      }
      if (currentMin > min) min = currentMin;
      const currentMax = (lower + 1) / (i + 1);
      if (currentMax < min) {
        consistent = i;
        break;
      }
      if (currentMax < max) max = currentMax;
    }
    this.#averageMin = min;
    this.#averageMax = max;
    return consistent;
  }
}

/** Godot's `MainFrameTime::clamp_process_step`: below `min` → `min`, else above `max` → `max`. */
function clamp(value: number, min: number, max: number): number {
  if (value < min) return min;
  return Math.min(value, max);
}
