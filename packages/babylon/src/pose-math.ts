/**
 * The few rigid-transform formulas the adapter needs, on plain numbers and typed arrays, so that
 * the per-frame path allocates nothing and imports no Babylon.js class at module load.
 *
 * Conventions are Babylon's: matrices are 16 numbers, row-major with row vectors (translation in
 * elements 12–14; row `i` is basis vector `i` times scale `i`), quaternions `x y z w` compose as
 * Hamilton products, and a child's world rotation is `parentWorld ⊗ local`.
 */

/**
 * Writes `scale · rotation · translation` of the pose row `row[r..r+9]` (`px py pz qx qy qz qw
 * sx sy sz`; unit scale unless `scaled`) into `out[o..o+15]` exactly as Babylon's
 * `Matrix.ComposeToRef` does (same operations, same rounding), so a matrix written here and one
 * written by Babylon compare equal.
 */
export function composeMatrix(
  out: Float32Array | Float64Array,
  o: number,
  row: ArrayLike<number>,
  r: number,
  scaled: boolean,
): void {
  const x = row[r + 3];
  const y = row[r + 4];
  const z = row[r + 5];
  const w = row[r + 6];
  const sx = scaled ? row[r + 7] : 1;
  const sy = scaled ? row[r + 8] : 1;
  const sz = scaled ? row[r + 9] : 1;
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
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - (xx + zz)) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = row[r];
  out[o + 13] = row[r + 1];
  out[o + 14] = row[r + 2];
  out[o + 15] = 1;
}

/**
 * Splits the affine matrix `m[o..o+15]` into position, rotation quaternion and scale, written to
 * `out[oi..oi+9]` in the pose-row layout of the core `PoseBuffer` (`px py pz qx qy qz qw sx sy
 * sz`). Scale is the length of each basis row (negative x scale if the basis is mirrored); the
 * rotation is read from the normalised rows with Babylon's `FromRotationMatrixToRef` branches.
 */
export function decomposeMatrix(
  m: ArrayLike<number>,
  o: number,
  out: Float64Array,
  oi: number,
): void {
  let a0 = m[o];
  let a1 = m[o + 1];
  let a2 = m[o + 2];
  let b0 = m[o + 4];
  let b1 = m[o + 5];
  let b2 = m[o + 6];
  let c0 = m[o + 8];
  let c1 = m[o + 9];
  let c2 = m[o + 10];
  let sx = Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2);
  const sy = Math.sqrt(b0 * b0 + b1 * b1 + b2 * b2);
  const sz = Math.sqrt(c0 * c0 + c1 * c1 + c2 * c2);
  const det = a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0);
  if (det < 0) sx = -sx;
  const ix = sx === 0 ? 0 : 1 / sx;
  const iy = sy === 0 ? 0 : 1 / sy;
  const iz = sz === 0 ? 0 : 1 / sz;
  a0 *= ix;
  a1 *= ix;
  a2 *= ix;
  b0 *= iy;
  b1 *= iy;
  b2 *= iy;
  c0 *= iz;
  c1 *= iz;
  c2 *= iz;
  out[oi] = m[o + 12];
  out[oi + 1] = m[o + 13];
  out[oi + 2] = m[o + 14];
  quaternionFromRows(a0, a1, a2, b0, b1, b2, c0, c1, c2, out, oi + 3);
  out[oi + 7] = sx;
  out[oi + 8] = sy;
  out[oi + 9] = sz;
}

/** Rotation quaternion of an orthonormal basis given as rows (Babylon's layout). */
function quaternionFromRows(
  m11: number,
  m21: number,
  m31: number,
  m12: number,
  m22: number,
  m32: number,
  m13: number,
  m23: number,
  m33: number,
  out: Float64Array,
  oi: number,
): void {
  const trace = m11 + m22 + m33;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    w = 0.25 / s;
    x = (m32 - m23) * s;
    y = (m13 - m31) * s;
    z = (m21 - m12) * s;
  } else if (m11 > m22 && m11 > m33) {
    const s = 2 * Math.sqrt(1 + m11 - m22 - m33);
    w = (m32 - m23) / s;
    x = 0.25 * s;
    y = (m12 + m21) / s;
    z = (m13 + m31) / s;
  } else if (m22 > m33) {
    const s = 2 * Math.sqrt(1 + m22 - m11 - m33);
    w = (m13 - m31) / s;
    x = (m12 + m21) / s;
    y = 0.25 * s;
    z = (m23 + m32) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m33 - m11 - m22);
    w = (m21 - m12) / s;
    x = (m13 + m31) / s;
    y = (m23 + m32) / s;
    z = 0.25 * s;
  }
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  const inv = len > 0 ? 1 / len : 0;
  out[oi] = x * inv;
  out[oi + 1] = y * inv;
  out[oi + 2] = z * inv;
  out[oi + 3] = w * inv;
}

/**
 * Scales the three basis rows of the matrix at `m[o..o+15]` by `scale[i..i+2]` in place: Havok
 * writes thin-instance matrices with rotation and translation only, and this puts each
 * instance's own scale back.
 */
export function scaleBasisRows(
  m: Float32Array,
  o: number,
  scale: ArrayLike<number>,
  i: number,
): void {
  const sx = scale[i];
  const sy = scale[i + 1];
  const sz = scale[i + 2];
  m[o] *= sx;
  m[o + 1] *= sx;
  m[o + 2] *= sx;
  m[o + 4] *= sy;
  m[o + 5] *= sy;
  m[o + 6] *= sy;
  m[o + 8] *= sz;
  m[o + 9] *= sz;
  m[o + 10] *= sz;
}

/**
 * Turns the world position and rotation of pose row `row[r..r+6]` into the local position and
 * rotation of a child of a parent whose world matrix is `pm` (row-major, row vectors) and whose
 * world rotation is `rq`; writes `px py pz qx qy qz qw` to `out[oi..oi+6]`. The position goes through
 * the full inverse of the parent's 3×3 (so parent scale is honoured); the rotation is
 * `conj(parentRotation) ⊗ world`.
 */
export function worldToLocal(
  pm: ArrayLike<number>,
  rq: { x: number; y: number; z: number; w: number },
  row: ArrayLike<number>,
  r: number,
  out: Float64Array,
  oi: number,
): void {
  const rx = rq.x;
  const ry = rq.y;
  const rz = rq.z;
  const rw = rq.w;
  const wx = row[r];
  const wy = row[r + 1];
  const wz = row[r + 2];
  const qx = row[r + 3];
  const qy = row[r + 4];
  const qz = row[r + 5];
  const qw = row[r + 6];
  // row vectors: world = local · A + t, with A the upper 3×3 → local = (world − t) · A⁻¹
  const a00 = pm[0];
  const a01 = pm[1];
  const a02 = pm[2];
  const a10 = pm[4];
  const a11 = pm[5];
  const a12 = pm[6];
  const a20 = pm[8];
  const a21 = pm[9];
  const a22 = pm[10];
  const c00 = a11 * a22 - a12 * a21;
  const c01 = a02 * a21 - a01 * a22;
  const c02 = a01 * a12 - a02 * a11;
  const c10 = a12 * a20 - a10 * a22;
  const c11 = a00 * a22 - a02 * a20;
  const c12 = a02 * a10 - a00 * a12;
  const c20 = a10 * a21 - a11 * a20;
  const c21 = a01 * a20 - a00 * a21;
  const c22 = a00 * a11 - a01 * a10;
  const det = a00 * c00 + a01 * c10 + a02 * c20;
  const id = det === 0 ? 0 : 1 / det;
  const dx = wx - pm[12];
  const dy = wy - pm[13];
  const dz = wz - pm[14];
  out[oi] = (dx * c00 + dy * c10 + dz * c20) * id;
  out[oi + 1] = (dx * c01 + dy * c11 + dz * c21) * id;
  out[oi + 2] = (dx * c02 + dy * c12 + dz * c22) * id;
  // conj(r) ⊗ q, r normalised
  const rl = rx * rx + ry * ry + rz * rz + rw * rw;
  const ir = rl > 0 ? 1 / rl : 0;
  const ax = -rx * ir;
  const ay = -ry * ir;
  const az = -rz * ir;
  const aw = rw * ir;
  out[oi + 3] = aw * qx + ax * qw + ay * qz - az * qy;
  out[oi + 4] = aw * qy - ax * qz + ay * qw + az * qx;
  out[oi + 5] = aw * qz + ax * qy - ay * qx + az * qw;
  out[oi + 6] = aw * qw - ax * qx - ay * qy - az * qz;
}
