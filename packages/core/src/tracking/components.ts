/**
 * A pose has three components — position, rotation, scale — and the tracker handles each on its
 * own (bevy_transform_interpolation does the same): a write to one component outside the fixed
 * step teleports that component only, while the others keep their simulation values and their
 * interpolation. A {@link ComponentMask} names a set of components; these helpers compare and
 * copy rows of the packed pose arrays (ten numbers per row, `POSE_STRIDE`) component by component.
 */

/**
 * True if `a` and `b` are different numbers, NaN counting as equal to NaN: a NaN the tracker
 * wrote and reads back is what it left there, not a write by others (docs/guarantees.md,
 * "Non-finite poses"). V8 inlines it; the second test runs only for numbers that differ.
 */
export function differs(a: number, b: number): boolean {
  // biome-ignore lint/suspicious/noSelfCompare: the NaN test, without a call
  return a !== b && (a === a || b === b);
}

/** True if the ten numbers of row `r` of `rows` are all finite (multiplied by 0, each gives 0). */
export function isFiniteRow(rows: Float64Array, r: number): boolean {
  return (
    rows[r] * 0 +
      rows[r + 1] * 0 +
      rows[r + 2] * 0 +
      rows[r + 3] * 0 +
      rows[r + 4] * 0 +
      rows[r + 5] * 0 +
      rows[r + 6] * 0 +
      rows[r + 7] * 0 +
      rows[r + 8] * 0 +
      rows[r + 9] * 0 ===
    0
  );
}

/** The components of row `r` of `rows` holding a number that is not finite. */
export function nonFiniteComponents(rows: Float64Array, r: number): ComponentMask {
  let mask = 0;
  for (let k = 0; k < 10; k++) {
    if (!Number.isFinite(rows[r + k])) mask |= k < 3 ? POSITION : k < 7 ? ROTATION : SCALE;
  }
  return mask;
}

/** A set of pose components: a bitwise OR of {@link POSITION}, {@link ROTATION}, {@link SCALE}. */
export type ComponentMask = number;

/** The position component (`x y z` at offset 0 of a pose row). */
export const POSITION = 1;
/** The rotation component (quaternion `x y z w` at offset 3 of a pose row). */
export const ROTATION = 2;
/** The scale component (`x y z` at offset 7 of a pose row). */
export const SCALE = 4;
/** Every component of a pose. */
export const ALL_COMPONENTS = POSITION | ROTATION | SCALE;
/**
 * Not a component: what a platform's `compare` adds to its mask when the node's parent changed
 * since it last looked (a node the engine simulates in world space, `simulatedInWorld`). The
 * tracker then keeps its simulation pose where the engine has it and re-expresses the node in its
 * new parent's space, instead of taking the parenting's new local numbers for a write.
 */
export const REPARENTED = 8;

/**
 * The components in which row `i` of `a` and row `j` of `b` differ, compared exactly (`!==`:
 * what was written is what is read back, so any other write shows; NaN equals NaN, as the
 * write check needs: docs/guarantees.md, "Non-finite poses"). `i` and `j` are offsets of whole
 * rows.
 */
export function differingComponents(
  a: Float64Array,
  i: number,
  b: Float64Array,
  j: number,
): ComponentMask {
  let mask = 0;
  if (differs(a[i], b[j]) || differs(a[i + 1], b[j + 1]) || differs(a[i + 2], b[j + 2]))
    mask = POSITION;
  if (
    differs(a[i + 3], b[j + 3]) ||
    differs(a[i + 4], b[j + 4]) ||
    differs(a[i + 5], b[j + 5]) ||
    differs(a[i + 6], b[j + 6])
  ) {
    mask |= ROTATION;
  }
  if (differs(a[i + 7], b[j + 7]) || differs(a[i + 8], b[j + 8]) || differs(a[i + 9], b[j + 9]))
    mask |= SCALE;
  return mask;
}

/**
 * Brings row `i` of the ledger `held` up to row `j` of `from`: copies the components that
 * differ and returns them (what must be written to the node). Written out, like the helpers
 * below: V8 checks the bounds of every access in a loop and keeps its counter.
 */
export function takeDiffering(
  held: Float64Array,
  i: number,
  from: Float64Array,
  j: number,
): ComponentMask {
  let mask = 0;
  if (
    differs(held[i], from[j]) ||
    differs(held[i + 1], from[j + 1]) ||
    differs(held[i + 2], from[j + 2])
  ) {
    held[i] = from[j];
    held[i + 1] = from[j + 1];
    held[i + 2] = from[j + 2];
    mask = POSITION;
  }
  if (
    differs(held[i + 3], from[j + 3]) ||
    differs(held[i + 4], from[j + 4]) ||
    differs(held[i + 5], from[j + 5]) ||
    differs(held[i + 6], from[j + 6])
  ) {
    held[i + 3] = from[j + 3];
    held[i + 4] = from[j + 4];
    held[i + 5] = from[j + 5];
    held[i + 6] = from[j + 6];
    mask |= ROTATION;
  }
  if (
    differs(held[i + 7], from[j + 7]) ||
    differs(held[i + 8], from[j + 8]) ||
    differs(held[i + 9], from[j + 9])
  ) {
    held[i + 7] = from[j + 7];
    held[i + 8] = from[j + 8];
    held[i + 9] = from[j + 9];
    mask |= SCALE;
  }
  return mask;
}

/** True if row `i` of `a` equals row `j` of `b`, number for number (`===`, NaN equal to NaN). */
export function sameRow(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  return (
    !differs(a[i], b[j]) &&
    !differs(a[i + 1], b[j + 1]) &&
    !differs(a[i + 2], b[j + 2]) &&
    !differs(a[i + 3], b[j + 3]) &&
    !differs(a[i + 4], b[j + 4]) &&
    !differs(a[i + 5], b[j + 5]) &&
    !differs(a[i + 6], b[j + 6]) &&
    !differs(a[i + 7], b[j + 7]) &&
    !differs(a[i + 8], b[j + 8]) &&
    !differs(a[i + 9], b[j + 9])
  );
}

/** Copies the whole row `j` of `from` into row `i` of `to`. */
export function copyRow(to: Float64Array, i: number, from: Float64Array, j: number): void {
  to[i] = from[j];
  to[i + 1] = from[j + 1];
  to[i + 2] = from[j + 2];
  to[i + 3] = from[j + 3];
  to[i + 4] = from[j + 4];
  to[i + 5] = from[j + 5];
  to[i + 6] = from[j + 6];
  to[i + 7] = from[j + 7];
  to[i + 8] = from[j + 8];
  to[i + 9] = from[j + 9];
}

/** Copies the components `mask` of row `j` of `from` into row `i` of `to`. */
export function copyComponents(
  to: Float64Array,
  i: number,
  from: Float64Array,
  j: number,
  mask: ComponentMask,
): void {
  if (mask & POSITION) {
    to[i] = from[j];
    to[i + 1] = from[j + 1];
    to[i + 2] = from[j + 2];
  }
  if (mask & ROTATION) {
    to[i + 3] = from[j + 3];
    to[i + 4] = from[j + 4];
    to[i + 5] = from[j + 5];
    to[i + 6] = from[j + 6];
  }
  if (mask & SCALE) {
    to[i + 7] = from[j + 7];
    to[i + 8] = from[j + 8];
    to[i + 9] = from[j + 9];
  }
}

/** An engine's vector: three's and Babylon's `Vector3`, or any `{ x, y, z }`. */
export interface XYZ {
  /** X component. */
  readonly x: number;
  /** Y component. */
  readonly y: number;
  /** Z component. */
  readonly z: number;
}

/** An engine's quaternion: three's and Babylon's `Quaternion`, or any `{ x, y, z, w }`. */
export interface XYZW extends XYZ {
  /** Scalar part. */
  readonly w: number;
}

/**
 * Writes a pose held as engine vectors — position `p`, rotation `q`, scale `s` — into the row at
 * `rows[at..at+9]`: what a platform's `read` does for an engine that keeps poses in vector objects.
 */
export function rowFromVectors(rows: Float64Array, at: number, p: XYZ, q: XYZW, s: XYZ): void {
  rows[at] = p.x;
  rows[at + 1] = p.y;
  rows[at + 2] = p.z;
  rows[at + 3] = q.x;
  rows[at + 4] = q.y;
  rows[at + 5] = q.z;
  rows[at + 6] = q.w;
  rows[at + 7] = s.x;
  rows[at + 8] = s.y;
  rows[at + 9] = s.z;
}

/**
 * The components in which a pose held as engine vectors differs (`!==`) from the row at
 * `rows[at..]`: a platform's `compare` for an engine that keeps poses in vector objects.
 */
export function vectorsDiffer(
  rows: Float64Array,
  at: number,
  p: XYZ,
  q: XYZW,
  s: XYZ,
): ComponentMask {
  let mask = 0;
  if (differs(p.x, rows[at]) || differs(p.y, rows[at + 1]) || differs(p.z, rows[at + 2]))
    mask = POSITION;
  if (
    differs(q.x, rows[at + 3]) ||
    differs(q.y, rows[at + 4]) ||
    differs(q.z, rows[at + 5]) ||
    differs(q.w, rows[at + 6])
  ) {
    mask |= ROTATION;
  }
  if (differs(s.x, rows[at + 7]) || differs(s.y, rows[at + 8]) || differs(s.z, rows[at + 9]))
    mask |= SCALE;
  return mask;
}
