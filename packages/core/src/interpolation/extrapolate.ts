/**
 * The `'extrapolate'` mode's kernel: the frame shows the current pose advanced `alpha` of a step
 * along the body's velocity — the engine's, when one was supplied, else the motion between the
 * previous and the current pose. Rotation is advanced by the angular velocity (exact for a
 * constant one); scale is held (engines report no scale velocity). Pure function over rows.
 * @internal
 */
import { estimateAngularVelocity, extrapolate, rotateBy } from './math.ts';
import { CLOCK_ALPHA, CLOCK_FIXED_DELTA, POSE_STRIDE, VELOCITY_STRIDE } from './pose-layout.ts';

/** Scratch of the rotation step: `(wx, wy, wz, seconds)` for `rotateBy` (sync, never re-entered). */
const OMEGA = new Float64Array(4);

/**
 * Output row `slot` ← current row advanced by `clock[CLOCK_ALPHA]` of a step of
 * `clock[CLOCK_FIXED_DELTA]` seconds, along `velocity` row `slot` when `supplied`, else along
 * (current − previous) per step.
 */
export function extrapolateRow(
  previous: Float64Array,
  current: Float64Array,
  output: Float64Array,
  velocity: Float64Array,
  supplied: boolean,
  slot: number,
  clock: Float64Array,
): void {
  const r = slot * POSE_STRIDE;
  const p = previous;
  const c = current;
  const o = output;
  const alpha = clock[CLOCK_ALPHA];
  const w = OMEGA;
  if (supplied) {
    const seconds = alpha * clock[CLOCK_FIXED_DELTA];
    const i = slot * VELOCITY_STRIDE;
    o[r] = extrapolate(c[r], velocity[i], seconds);
    o[r + 1] = extrapolate(c[r + 1], velocity[i + 1], seconds);
    o[r + 2] = extrapolate(c[r + 2], velocity[i + 2], seconds);
    w[0] = velocity[i + 3];
    w[1] = velocity[i + 4];
    w[2] = velocity[i + 5];
    w[3] = seconds;
  } else {
    // velocity from the last two poses: (curr - prev) per step, advanced alpha steps
    o[r] = extrapolate(c[r], c[r] - p[r], alpha);
    o[r + 1] = extrapolate(c[r + 1], c[r + 1] - p[r + 1], alpha);
    o[r + 2] = extrapolate(c[r + 2], c[r + 2] - p[r + 2], alpha);
    estimateAngularVelocity(w, 0, p, r + 3, c, r + 3, 1);
    w[3] = alpha;
  }
  rotateBy(o, r + 3, c, r + 3, w, 0);
  o[r + 7] = c[r + 7];
  o[r + 8] = c[r + 8];
  o[r + 9] = c[r + 9];
}
