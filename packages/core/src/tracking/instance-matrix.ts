/**
 * Instance matrices, written straight from the pose rows: an instanced mesh's instances are
 * interpolated in the packed pose arrays and composed into the engine's own matrix buffer once
 * per frame (three's `instanceMatrix.array`, Babylon's thin-instance buffer), with no
 * per-instance objects. Both engines store a TRS matrix as the same 16 numbers (three:
 * column-major with column vectors; Babylon: row-major with row vectors), and both compose it
 * with the formula below, so the result is bit for bit `Matrix4.compose` / `Matrix.ComposeToRef`.
 */
import { type ComponentMask, POSITION, ROTATION, SCALE } from './components.ts';

/** Numbers in one instance matrix. */
export const MATRIX_STRIDE = 16;

/**
 * Composes the pose at `rows[r..r+9]` into the matrix at `out[o..o+15]` (three's
 * `Matrix4.compose`, Babylon's `Matrix.ComposeToRef`: the same arithmetic in the same order).
 */
export function composeMatrix(out: Float32Array, o: number, rows: Float64Array, r: number): void {
  composeMatrices(out, o, null, 0, rows, r);
}

/**
 * {@link composeMatrix} into two matrices at once, `a[i..]` and `b[j..]` (an instance's matrix
 * and the tracker's record of it): each number is worked out once and stored twice (once when
 * `b` is null).
 */
export function composeMatrices(
  a: Float32Array,
  i: number,
  b: Float32Array | null,
  j: number,
  rows: Float64Array,
  r: number,
): void {
  const x = rows[r + 3];
  const y = rows[r + 4];
  const z = rows[r + 5];
  const w = rows[r + 6];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  const sx = rows[r + 7];
  const sy = rows[r + 8];
  const sz = rows[r + 9];
  const m0 = (1 - (yy + zz)) * sx;
  const m1 = (xy + wz) * sx;
  const m2 = (xz - wy) * sx;
  const m4 = (xy - wz) * sy;
  const m5 = (1 - (xx + zz)) * sy;
  const m6 = (yz + wx) * sy;
  const m8 = (xz + wy) * sz;
  const m9 = (yz - wx) * sz;
  const m10 = (1 - (xx + yy)) * sz;
  const px = rows[r];
  const py = rows[r + 1];
  const pz = rows[r + 2];
  a[i] = m0;
  a[i + 1] = m1;
  a[i + 2] = m2;
  a[i + 3] = 0;
  a[i + 4] = m4;
  a[i + 5] = m5;
  a[i + 6] = m6;
  a[i + 7] = 0;
  a[i + 8] = m8;
  a[i + 9] = m9;
  a[i + 10] = m10;
  a[i + 11] = 0;
  a[i + 12] = px;
  a[i + 13] = py;
  a[i + 14] = pz;
  a[i + 15] = 1;
  if (b === null) return;
  b[j] = m0;
  b[j + 1] = m1;
  b[j + 2] = m2;
  b[j + 3] = 0;
  b[j + 4] = m4;
  b[j + 5] = m5;
  b[j + 6] = m6;
  b[j + 7] = 0;
  b[j + 8] = m8;
  b[j + 9] = m9;
  b[j + 10] = m10;
  b[j + 11] = 0;
  b[j + 12] = px;
  b[j + 13] = py;
  b[j + 14] = pz;
  b[j + 15] = 1;
}

/** True if the 16 numbers at `a[i..]` and `b[j..]` are equal. */
export function sameMatrix(a: Float32Array, i: number, b: Float32Array, j: number): boolean {
  // written out: V8 checks the bounds of a loop's every access and keeps its counter
  return (
    a[i] === b[j] &&
    a[i + 1] === b[j + 1] &&
    a[i + 2] === b[j + 2] &&
    a[i + 3] === b[j + 3] &&
    a[i + 4] === b[j + 4] &&
    a[i + 5] === b[j + 5] &&
    a[i + 6] === b[j + 6] &&
    a[i + 7] === b[j + 7] &&
    a[i + 8] === b[j + 8] &&
    a[i + 9] === b[j + 9] &&
    a[i + 10] === b[j + 10] &&
    a[i + 11] === b[j + 11] &&
    a[i + 12] === b[j + 12] &&
    a[i + 13] === b[j + 13] &&
    a[i + 14] === b[j + 14] &&
    a[i + 15] === b[j + 15]
  );
}

/** Copies the 16 numbers at `from[j..]` to `to[i..]`. */
export function copyMatrix(to: Float32Array, i: number, from: Float32Array, j: number): void {
  for (let k = 0; k < 16; k++) to[i + k] = from[j + k];
}

/**
 * Tolerance with which a decomposed rotation (unit-quaternion components, absolute) or scale
 * (relative) counts as unchanged. A matrix is float32, so decomposing two matrices that differ
 * only in their translation can still give rotations and scales a few float32 roundings (6e-8
 * each) apart; 1e-6 is well above that and well below any deliberate turn (1e-6 of a unit
 * quaternion component is about 2e-6 rad).
 */
const DECOMPOSED_TOLERANCE = 1e-6;

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= DECOMPOSED_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Which components a write changed, given the matrix now stored (`now`, decomposed to
 * `nowPose`) and the one last written (`was`, decomposed to `wasPose`): position when the
 * translation differs; rotation and scale when the basis differs and their decompositions are
 * more than float32 rounding apart, so a write that only moves an instance keeps its rotation
 * and scale and their interpolation. A change of the projective row counts as every component.
 * May return 0 for a matrix that differs only by rounding.
 */
export function changedInstanceComponents(
  now: Float32Array,
  i: number,
  was: Float32Array,
  j: number,
  nowPose: Float64Array,
  n: number,
  wasPose: Float64Array,
  w: number,
): ComponentMask {
  if (
    now[i + 3] !== was[j + 3] ||
    now[i + 7] !== was[j + 7] ||
    now[i + 11] !== was[j + 11] ||
    now[i + 15] !== was[j + 15]
  ) {
    return POSITION | ROTATION | SCALE;
  }
  let mask = 0;
  if (now[i + 12] !== was[j + 12] || now[i + 13] !== was[j + 13] || now[i + 14] !== was[j + 14]) {
    mask = POSITION;
  }
  let basis = false;
  for (let k = 0; k < 11 && !basis; k++) basis = now[i + k] !== was[j + k];
  if (!basis) return mask;
  // q and -q are one rotation: compare with the one in the same hemisphere
  const sign =
    nowPose[n + 3] * wasPose[w + 3] +
      nowPose[n + 4] * wasPose[w + 4] +
      nowPose[n + 5] * wasPose[w + 5] +
      nowPose[n + 6] * wasPose[w + 6] <
    0
      ? -1
      : 1;
  for (let k = 3; k < 7; k++) {
    if (!near(nowPose[n + k], sign * wasPose[w + k])) mask |= ROTATION;
  }
  for (let k = 7; k < 10; k++) if (!near(nowPose[n + k], wasPose[w + k])) mask |= SCALE;
  return mask;
}
