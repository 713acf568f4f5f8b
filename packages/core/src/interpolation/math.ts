/**
 * The pure math of render interpolation: scalar lerp, shortest-arc normalised quaternion slerp,
 * and extrapolation of a position by a velocity and of a rotation by an angular velocity.
 *
 * Every function works in place on indexable arrays at an offset (quaternions are stored
 * `x, y, z, w`, as three.js and Babylon.js do), so a caller can run it over a packed typed array
 * without allocating. Each states its endpoint contract, and the contracts are exact (not
 * "within rounding"): adapters detect teleports by comparing poses with `===`, so `t = 0` must
 * give back the previous value bit for bit, `t = 1` the current one, and equal endpoints must
 * give that value for every `t`.
 */
import type { NumericArray } from '../integrate.ts';

/**
 * Above this `|dot|` of two unit quaternions (angle between the rotations below about 3.6°),
 * {@link slerp} blends linearly and renormalises (nlerp) instead of using `acos`/`sin`: there
 * `sin θ` is too small to divide by safely, and nlerp's angular error is at most 1.015e-6 rad
 * (at the threshold itself, around `t = 0.21`). It is the
 * threshold of the classic reference implementation and of three.js's `Quaternion.slerp`.
 */
export const SLERP_NLERP_THRESHOLD = 0.9995;

/** Below this rotation angle (radians) {@link extrapolateRotation} returns the input unchanged. */
const MIN_ROTATION_ANGLE = 1e-12;

/**
 * Linear interpolation from `a` (at `t = 0`) to `b` (at `t = 1`); `t` outside [0, 1]
 * extrapolates along the same line.
 *
 * Endpoint contract (exact): `t = 0 → a`, `t = 1 → b`, and `a === b → a` for every finite `t`.
 * The naive `a + (b - a) * t` misses `b` at `t = 1` by one rounding step for some inputs, which
 * an exact-compare teleport check would mistake for a write; this form evaluates from the nearer
 * end instead. Ends whose difference overflows (`-1e308` to `1e308`) keep the contract too.
 */
export function lerp(a: number, b: number, t: number): number {
  const d = b - a;
  // ends more than Number.MAX_VALUE apart: the difference overflows (Infinity * 0 is NaN)
  if (d === Number.POSITIVE_INFINITY || d === Number.NEGATIVE_INFINITY) return wideLerp(a, b, t);
  return t < 0.5 ? a + d * t : b - d * (1 - t);
}

/** {@link lerp} for ends whose difference overflows: exact at both ends, finite between them. */
function wideLerp(a: number, b: number, t: number): number {
  if (t === 0) return a;
  if (t === 1) return b;
  return a * (1 - t) + b * t;
}

/**
 * Shortest-arc spherical interpolation of the quaternions at `a[ai..ai+3]` (at `t = 0`) and
 * `b[bi..bi+3]` (at `t = 1`), normalised, written to `out[oi..oi+3]`. `out` may alias `a` or `b`.
 *
 * Shortest arc: `q` and `-q` are the same rotation, so when the two quaternions point into
 * opposite hemispheres `b` is negated first; otherwise a 10° turn could render as a 350° one.
 * Nearly parallel quaternions (see {@link SLERP_NLERP_THRESHOLD}) are blended by nlerp.
 *
 * Endpoint contract (exact): `t <= 0 → a`, `t >= 1 → b` (copied as given, unnormalised),
 * equal `a` and `b` → `a` for every `t`. `t` is clamped to [0, 1]; use
 * {@link extrapolateRotation} to go beyond the current rotation.
 */
export function slerp(
  out: NumericArray,
  oi: number,
  a: NumericArray,
  ai: number,
  b: NumericArray,
  bi: number,
  t: number,
): void {
  const ax = a[ai];
  const ay = a[ai + 1];
  const az = a[ai + 2];
  const aw = a[ai + 3];
  const bx = b[bi];
  const by = b[bi + 1];
  const bz = b[bi + 2];
  const bw = b[bi + 3];
  if (t <= 0 || (ax === bx && ay === by && az === bz && aw === bw)) {
    out[oi] = ax;
    out[oi + 1] = ay;
    out[oi + 2] = az;
    out[oi + 3] = aw;
    return;
  }
  if (t >= 1) {
    out[oi] = bx;
    out[oi + 1] = by;
    out[oi + 2] = bz;
    out[oi + 3] = bw;
    return;
  }
  let dot = ax * bx + ay * by + az * bz + aw * bw;
  let sign = 1;
  if (dot < 0) {
    dot = -dot;
    sign = -1;
  }
  let s0 = 1 - t;
  let s1 = t;
  if (dot < SLERP_NLERP_THRESHOLD) {
    const theta = Math.acos(dot);
    const sinTheta = Math.sin(theta);
    s0 = Math.sin(s0 * theta) / sinTheta;
    s1 = Math.sin(t * theta) / sinTheta;
  }
  s1 *= sign;
  const x = ax * s0 + bx * s1;
  const y = ay * s0 + by * s1;
  const z = az * s0 + bz * s1;
  const w = aw * s0 + bw * s1;
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  const inv = len > 0 ? 1 / len : 0;
  out[oi] = x * inv;
  out[oi + 1] = y * inv;
  out[oi + 2] = z * inv;
  out[oi + 3] = w * inv;
}

/**
 * Where something at `position` moving at `velocity` is `seconds` later: `position + velocity *
 * seconds`. Endpoint contract (exact): `seconds = 0` or `velocity = 0 → position`.
 */
export function extrapolate(position: number, velocity: number, seconds: number): number {
  return position + velocity * seconds;
}

/**
 * Rotates the quaternion at `q[qi..qi+3]` by the angular velocity `(wx, wy, wz)` (radians per
 * second, axis-angle vector in the same frame as the rotation — world space for a root body, the
 * parent's space for a child, as physics engines report it) for `seconds`, normalised, into
 * `out[oi..oi+3]`: `out = exp(ω·seconds / 2) ⊗ q`. `out` may alias `q`.
 *
 * Endpoint contract (exact): `seconds = 0` or `ω = 0 → q`. For a constant angular velocity the
 * result is the exact continuous rotation, whatever `seconds` is.
 */
export function extrapolateRotation(
  out: NumericArray,
  oi: number,
  q: NumericArray,
  qi: number,
  wx: number,
  wy: number,
  wz: number,
  seconds: number,
): void {
  const args = ROTATE_ARGS;
  args[0] = wx;
  args[1] = wy;
  args[2] = wz;
  args[3] = seconds;
  rotateBy(out, oi, q, qi, args, 0);
}

/** Scratch arguments of {@link extrapolateRotation} (sync, never re-entered). */
const ROTATE_ARGS = new Float64Array(4);

/**
 * {@link extrapolateRotation} with `(wx, wy, wz, seconds)` read from `args[ai..ai+3]`: the form
 * the buffers call in their per-frame pass, because V8 boxes doubles passed as arguments to a
 * function it does not inline. Internal to the core.
 */
export function rotateBy(
  out: NumericArray,
  oi: number,
  q: NumericArray,
  qi: number,
  args: NumericArray,
  ai: number,
): void {
  const wx = args[ai];
  const wy = args[ai + 1];
  const wz = args[ai + 2];
  const seconds = args[ai + 3];
  const qx = q[qi];
  const qy = q[qi + 1];
  const qz = q[qi + 2];
  const qw = q[qi + 3];
  const rate = Math.sqrt(wx * wx + wy * wy + wz * wz);
  const angle = rate * seconds;
  if (!(Math.abs(angle) > MIN_ROTATION_ANGLE)) {
    out[oi] = qx;
    out[oi + 1] = qy;
    out[oi + 2] = qz;
    out[oi + 3] = qw;
    return;
  }
  const half = angle / 2;
  const s = Math.sin(half) / rate;
  const dx = wx * s;
  const dy = wy * s;
  const dz = wz * s;
  const dw = Math.cos(half);
  // d ⊗ q
  const x = dw * qx + dx * qw + dy * qz - dz * qy;
  const y = dw * qy - dx * qz + dy * qw + dz * qx;
  const z = dw * qz + dx * qy - dy * qx + dz * qw;
  const w = dw * qw - dx * qx - dy * qy - dz * qz;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out[oi] = x * inv;
  out[oi + 1] = y * inv;
  out[oi + 2] = z * inv;
  out[oi + 3] = w * inv;
}

/**
 * The constant angular velocity (radians per second, axis-angle vector) that turns the rotation
 * `prev[pi..pi+3]` into `curr[ci..ci+3]` in `seconds`, by the shortest arc, written to
 * `out[oi..oi+2]`. It is what {@link extrapolateRotation} needs when the physics engine does not
 * report an angular velocity. Contract: equal rotations (or `seconds <= 0`) → `(0, 0, 0)`, and
 * `extrapolateRotation(prev, estimate, seconds)` gives back `curr`.
 */
export function estimateAngularVelocity(
  out: NumericArray,
  oi: number,
  prev: NumericArray,
  pi: number,
  curr: NumericArray,
  ci: number,
  seconds: number,
): void {
  const px = prev[pi];
  const py = prev[pi + 1];
  const pz = prev[pi + 2];
  const pw = prev[pi + 3];
  const cx = curr[ci];
  const cy = curr[ci + 1];
  const cz = curr[ci + 2];
  const cw = curr[ci + 3];
  // d = curr ⊗ conj(prev): the rotation applied on the left during the step
  let x = -cw * px + cx * pw - cy * pz + cz * py;
  let y = -cw * py + cx * pz + cy * pw - cz * px;
  let z = -cw * pz - cx * py + cy * px + cz * pw;
  let w = cw * pw + cx * px + cy * py + cz * pz;
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const sinHalf = Math.sqrt(x * x + y * y + z * z);
  if (!(seconds > 0) || sinHalf === 0) {
    out[oi] = 0;
    out[oi + 1] = 0;
    out[oi + 2] = 0;
    return;
  }
  const angle = 2 * Math.atan2(sinHalf, w);
  const k = angle / (sinHalf * seconds);
  out[oi] = x * k;
  out[oi + 1] = y * k;
  out[oi + 2] = z * k;
}
