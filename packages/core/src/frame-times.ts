import { MAX_TOLERANCE_STEPS, STEP_TOLERANCE } from './constants.ts';
import type { AnomalyKind } from './loop-types.ts';

/** What a bad frame time is: NaN (or not a number), negative, or infinite. */
export function anomalyKind(value: unknown): AnomalyKind {
  if (typeof value !== 'number' || Number.isNaN(value)) return 'nan';
  return value < 0 && Number.isFinite(value) ? 'negative' : 'infinite';
}

/** True for a frame time the loop takes as given: a finite number ≥ 0. */
export function isFrameTime(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value !== Number.POSITIVE_INFINITY;
}

/**
 * Turns rAF-style timestamps (milliseconds) into frame times (seconds) by differences from the
 * last one, so the size of the timestamps does not matter: a `Date.now()` clock (~1.7e12 ms) or
 * `performance.now()` give the same frames. Such a timestamp is exact only to its own rounding
 * (~0.2 µs at 1.7e12 ms, coarser than the 1 ns step tolerance), so each frame also says how
 * closely its time is known: {@link tolerance}.
 */
export class TimestampClock {
  /** The last timestamp taken, or NaN before the first one (the origin). */
  #lastMs = Number.NaN;
  /** Output of {@link take}: the frame's seconds (0 for the origin or an anomaly). */
  seconds = 0;
  /** Output of {@link take}: the step tolerance for this frame, in seconds. */
  tolerance = STEP_TOLERANCE;
  /** Output of {@link take}: what was wrong with the timestamp, or `undefined`. */
  anomaly: AnomalyKind | undefined;

  /** Forgets the origin: the next timestamp starts a new one (after `start()`). */
  reset(): void {
    this.#lastMs = Number.NaN;
  }

  /**
   * Takes the timestamp of a frame, with the step for the tolerance's upper bound. A timestamp
   * that is not a finite number keeps the origin; one earlier than the last, or so far from it
   * that the difference overflows, becomes the new origin; all three are anomalies of 0 s.
   */
  take(timestampMs: number, fixedDelta: number): void {
    this.seconds = 0;
    this.tolerance = STEP_TOLERANCE;
    this.anomaly = undefined;
    if (typeof timestampMs !== 'number' || !Number.isFinite(timestampMs)) {
      this.anomaly = anomalyKind(timestampMs);
      return;
    }
    const last = this.#lastMs;
    this.#lastMs = timestampMs;
    if (Number.isNaN(last)) return;
    const elapsedMs = timestampMs - last;
    if (elapsedMs < 0) {
      this.anomaly = 'backwards';
      return;
    }
    if (elapsedMs === Number.POSITIVE_INFINITY) {
      this.anomaly = 'infinite';
      return;
    }
    this.seconds = elapsedMs / 1000;
    // each timestamp is rounded to within one unit in its last place: about |t| × 2^-52 ms
    const rounding = (Math.max(Math.abs(timestampMs), Math.abs(last)) * Number.EPSILON) / 1000;
    if (rounding > STEP_TOLERANCE) {
      this.tolerance = Math.max(
        STEP_TOLERANCE,
        Math.min(rounding, fixedDelta * MAX_TOLERANCE_STEPS),
      );
    }
  }
}
