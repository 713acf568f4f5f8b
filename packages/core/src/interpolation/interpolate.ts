/**
 * The `'interpolate'` mode's kernel: the frame shows the pose `alpha` of the way from the
 * previous to the current one — position and scale by the exact-endpoint {@link lerp}, rotation
 * by shortest-arc slerp, normalised (the contracts of math.ts). Pure functions over rows.
 *
 * Two forms of one rule: {@link interpolateRow}, the kernel, one row at a time; and
 * {@link interpolateRows}, the same arithmetic written out in one loop over a list of slots, the
 * form the tracker's per-frame pass calls so that V8 keeps the arrays and `t` in registers across
 * slots (a call per slot it does not inline costs more than the arithmetic). A test holds the two
 * bit for bit (packages/core/test/interpolation-kernels.test.ts); change them together.
 *
 * The slerp cache: by slot × 3, the `dot`, `θ = acos(dot)` and `sin θ` of the slot's last slerp.
 * They only change with a step, so the frames between steps (7 of 12 at 144 fps and 60 Hz) reuse
 * them: two trig calls per body instead of four. Keyed by the dot itself (NaN: none yet), so the
 * result is bit for bit that of a fresh `acos`/`sin`, and a stale entry is never used.
 * @internal
 */
import { lerp, SLERP_NLERP_THRESHOLD } from './math.ts';
import { CLOCK_ALPHA, POSE_STRIDE, SLERP_CACHE_STRIDE } from './pose-layout.ts';

/** Output row `slot` ← previous row lerped/slerped to current row at `clock[CLOCK_ALPHA]`. */
export function interpolateRow(
  previous: Float64Array,
  current: Float64Array,
  output: Float64Array,
  cache: Float64Array,
  slot: number,
  clock: Float64Array,
): void {
  const p = previous;
  const c = current;
  const o = output;
  const t = clock[CLOCK_ALPHA];
  const r = slot * POSE_STRIDE;
  const ax = p[r + 3];
  const ay = p[r + 4];
  const az = p[r + 5];
  const aw = p[r + 6];
  const bx = c[r + 3];
  const by = c[r + 4];
  const bz = c[r + 5];
  const bw = c[r + 6];
  let x = ax;
  let y = ay;
  let z = az;
  let w = aw;
  // t <= 0 or no turn: the previous rotation as it is
  const turns = !(t <= 0 || (ax === bx && ay === by && az === bz && aw === bw));
  if (turns && t >= 1) {
    x = bx;
    y = by;
    z = bz;
    w = bw;
  } else if (turns) {
    let dot = ax * bx + ay * by + az * bz + aw * bw;
    let s0 = 1 - t;
    let s1 = dot < 0 ? -t : t;
    if (dot < SLERP_NLERP_THRESHOLD && -dot < SLERP_NLERP_THRESHOLD) {
      let sign = 1;
      if (dot < 0) {
        dot = -dot;
        sign = -1;
      }
      const k = slot * SLERP_CACHE_STRIDE;
      let theta = cache[k + 1];
      let sinTheta = cache[k + 2];
      if (cache[k] !== dot) {
        theta = Math.acos(dot);
        sinTheta = Math.sin(theta);
        cache[k] = dot;
        cache[k + 1] = theta;
        cache[k + 2] = sinTheta;
      }
      s0 = Math.sin((1 - t) * theta) / sinTheta;
      s1 = (Math.sin(t * theta) / sinTheta) * sign;
    }
    x = ax * s0 + bx * s1;
    y = ay * s0 + by * s1;
    z = az * s0 + bz * s1;
    w = aw * s0 + bw * s1;
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    const inv = len > 0 ? 1 / len : 0;
    x *= inv;
    y *= inv;
    z *= inv;
    w *= inv;
  }
  o[r] = lerp(p[r], c[r], t);
  o[r + 1] = lerp(p[r + 1], c[r + 1], t);
  o[r + 2] = lerp(p[r + 2], c[r + 2], t);
  o[r + 3] = x;
  o[r + 4] = y;
  o[r + 5] = z;
  o[r + 6] = w;
  o[r + 7] = lerp(p[r + 7], c[r + 7], t);
  o[r + 8] = lerp(p[r + 8], c[r + 8], t);
  o[r + 9] = lerp(p[r + 9], c[r + 9], t);
}

/**
 * {@link interpolateRow} for the first `count` slots of `list`, written out in one loop (see
 * the module doc): the rotation first and the lerps after it, so that their arithmetic overlaps
 * the square root and the divisions.
 */
export function interpolateRows(
  previous: Float64Array,
  current: Float64Array,
  output: Float64Array,
  cache: Float64Array,
  list: Int32Array,
  count: number,
  clock: Float64Array,
): void {
  const p = previous;
  const c = current;
  const o = output;
  const t = clock[CLOCK_ALPHA];
  for (let n = 0; n < count; n++) {
    const slot = list[n];
    const r = slot * POSE_STRIDE;
    const ax = p[r + 3];
    const ay = p[r + 4];
    const az = p[r + 5];
    const aw = p[r + 6];
    const bx = c[r + 3];
    const by = c[r + 4];
    const bz = c[r + 5];
    const bw = c[r + 6];
    let x = ax;
    let y = ay;
    let z = az;
    let w = aw;
    const turns = !(t <= 0 || (ax === bx && ay === by && az === bz && aw === bw));
    if (turns && t >= 1) {
      x = bx;
      y = by;
      z = bz;
      w = bw;
    } else if (turns) {
      let dot = ax * bx + ay * by + az * bz + aw * bw;
      let s0 = 1 - t;
      let s1 = dot < 0 ? -t : t;
      if (dot < SLERP_NLERP_THRESHOLD && -dot < SLERP_NLERP_THRESHOLD) {
        let sign = 1;
        if (dot < 0) {
          dot = -dot;
          sign = -1;
        }
        const k = slot * SLERP_CACHE_STRIDE;
        let theta = cache[k + 1];
        let sinTheta = cache[k + 2];
        if (cache[k] !== dot) {
          theta = Math.acos(dot);
          sinTheta = Math.sin(theta);
          cache[k] = dot;
          cache[k + 1] = theta;
          cache[k + 2] = sinTheta;
        }
        s0 = Math.sin((1 - t) * theta) / sinTheta;
        s1 = (Math.sin(t * theta) / sinTheta) * sign;
      }
      x = ax * s0 + bx * s1;
      y = ay * s0 + by * s1;
      z = az * s0 + bz * s1;
      w = aw * s0 + bw * s1;
      const len = Math.sqrt(x * x + y * y + z * z + w * w);
      const inv = len > 0 ? 1 / len : 0;
      x *= inv;
      y *= inv;
      z *= inv;
      w *= inv;
    }
    o[r] = lerp(p[r], c[r], t);
    o[r + 1] = lerp(p[r + 1], c[r + 1], t);
    o[r + 2] = lerp(p[r + 2], c[r + 2], t);
    o[r + 3] = x;
    o[r + 4] = y;
    o[r + 5] = z;
    o[r + 6] = w;
    o[r + 7] = lerp(p[r + 7], c[r + 7], t);
    o[r + 8] = lerp(p[r + 8], c[r + 8], t);
    o[r + 9] = lerp(p[r + 9], c[r + 9], t);
  }
}
