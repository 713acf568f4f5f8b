/**
 * The snapshots of one remote entity, stamped with server ticks, and the pose to draw at any
 * (fractional) tick between or after them.
 *
 * Why: a server's snapshots arrive in steps, late by a varying amount, and sometimes not at all.
 * Drawn a render delay behind the newest (see `TickClock.renderTick`), an entity is
 * interpolated between two snapshots that both arrived; when the next one is late it is
 * extrapolated along its last velocity for at most `maxExtrapolationTicks`, then held, never
 * snapped back and forth. A snapshot flagged as a teleport is never interpolated into: the pose
 * before it is held until its tick, and then it is shown as it is (no streak across the map).
 *
 * The rules of each mode are core's interpolation kernels (`lerp`, `slerp`, `extrapolate`,
 * `extrapolateRotation`, `estimateAngularVelocity` from `@fixedtick/core/interpolation`), called
 * here per row; nothing of their math is written twice.
 *
 * Rows are poses in the layout of `PoseBuffer`: position `x y z`, rotation quaternion
 * `x y z w`, scale `x y z` ({@link POSE_STRIDE} numbers).
 */
import {
  estimateAngularVelocity,
  extrapolate,
  extrapolateRotation,
  lerp,
  slerp,
} from '../interpolation/math.ts';
import { POSE_STRIDE, ROTATION_OFFSET, SCALE_OFFSET } from '../interpolation/pose-layout.ts';

// The row layout as module constants: read per entity per frame, where an imported binding can
// cost a getter call under some loaders (tsx's CommonJS transform).
const STRIDE = POSE_STRIDE;
const ROTATION = ROTATION_OFFSET;
const SCALE = SCALE_OFFSET;

/** What {@link SnapshotBuffer.sample} drew. */
export type SampleKind = 'empty' | 'before' | 'interpolated' | 'extrapolated' | 'held';

/**
 * Snapshots kept per entity unless told otherwise: 32, over half a second at 60 snapshots per
 * second — twice the render delay of a very jittery link — and 2.5 kB per entity, so the
 * buffers of 500 entities stay within a fast cache (the per-frame pass reads all of them).
 */
export const DEFAULT_SNAPSHOT_CAPACITY = 32;

/** Extrapolation limit unless told otherwise (ticks): 100 ms at 60 Hz. */
export const DEFAULT_MAX_EXTRAPOLATION_TICKS = 6;

/** See the module doc. */
export class SnapshotBuffer {
  readonly #capacity: number;
  readonly #ticks: Float64Array;
  readonly #rows: Float64Array;
  readonly #teleport: Uint8Array;
  /** Index of the oldest snapshot and number kept. */
  #head = 0;
  #count = 0;
  readonly #omega = new Float64Array(3);
  #dropped = 0;

  /** @param capacity snapshots kept (the oldest is forgotten first). */
  constructor(capacity = DEFAULT_SNAPSHOT_CAPACITY) {
    if (!Number.isSafeInteger(capacity) || capacity < 2) {
      throw new RangeError(
        `fixedtick: option "capacity" must be a whole number ≥ 2, got ${String(capacity)}`,
      );
    }
    this.#capacity = capacity;
    this.#ticks = new Float64Array(capacity);
    this.#rows = new Float64Array(capacity * STRIDE);
    this.#teleport = new Uint8Array(capacity);
  }

  /**
   * Adds the pose at `rows[offset .. offset + POSE_STRIDE)` for server tick `tick`. `teleport`:
   * the entity jumped there (spawn, respawn, portal); it will not be interpolated into.
   * Returns false, keeping nothing, for a tick not newer than the newest kept (a duplicate or an
   * out-of-order message; counted in `dropped`).
   */
  push(tick: number, rows: ArrayLike<number>, offset = 0, teleport = false): boolean {
    if (this.#count > 0 && !(tick > this.#tickAt(this.#count - 1))) {
      this.#dropped++;
      return false;
    }
    if (this.#count === this.#capacity) {
      this.#head = (this.#head + 1) % this.#capacity;
      this.#count--;
    }
    const slot = (this.#head + this.#count) % this.#capacity;
    this.#ticks[slot] = tick;
    this.#teleport[slot] = teleport ? 1 : 0;
    const at = slot * STRIDE;
    for (let i = 0; i < STRIDE; i++) this.#rows[at + i] = rows[offset + i];
    this.#count++;
    return true;
  }

  /**
   * Writes the pose at server tick `tick` (fractional) to `out[oi .. oi + POSE_STRIDE)`:
   * - between two snapshots: interpolated (`lerp`, shortest-arc `slerp`), or the earlier one
   *   held when the later is a teleport;
   * - after the newest: extrapolated along the velocity of the last two snapshots for at most
   *   `maxExtrapolationTicks` past the newest, then held at that limit (a teleport or a lone
   *   snapshot is held as it is);
   * - before the oldest: the oldest.
   */
  sample(
    tick: number,
    out: Float64Array,
    oi = 0,
    maxExtrapolationTicks = DEFAULT_MAX_EXTRAPOLATION_TICKS,
    secondsPerTick = 1 / 60,
  ): SampleKind {
    const count = this.#count;
    if (count === 0) return 'empty';
    const rows = this.#rows;
    const ticks = this.#ticks;
    const capacity = this.#capacity;
    const first = this.#head;
    if (!(tick >= ticks[first])) {
      this.#copy(first, out, oi);
      return 'before';
    }
    // The newest snapshot at or before `tick`, searched from the newest end: the render tick is
    // a few snapshots behind it. (Slot arithmetic inline: this runs per entity per frame.)
    let i = count - 1;
    let a = (first + i) % capacity;
    while (ticks[a] > tick) {
      i--;
      a = a === 0 ? capacity - 1 : a - 1;
    }
    if (i < count - 1) {
      const b = a === capacity - 1 ? 0 : a + 1;
      if (this.#teleport[b] === 1) {
        this.#copy(a, out, oi);
        return 'held';
      }
      const t = (tick - ticks[a]) / (ticks[b] - ticks[a]);
      const pa = a * STRIDE;
      const pb = b * STRIDE;
      for (let k = 0; k < ROTATION; k++) out[oi + k] = lerp(rows[pa + k], rows[pb + k], t);
      slerp(out, oi + ROTATION, rows, pa + ROTATION, rows, pb + ROTATION, t);
      for (let k = SCALE; k < STRIDE; k++) {
        out[oi + k] = lerp(rows[pa + k], rows[pb + k], t);
      }
      return 'interpolated';
    }
    if (i === 0 || this.#teleport[a] === 1 || tick === ticks[a]) {
      this.#copy(a, out, oi);
      return 'held';
    }
    const p = a === 0 ? capacity - 1 : a - 1;
    const span = (ticks[a] - ticks[p]) * secondsPerTick;
    const ahead = Math.min(tick - ticks[a], maxExtrapolationTicks) * secondsPerTick;
    const pa = a * STRIDE;
    const pp = p * STRIDE;
    for (let k = 0; k < ROTATION; k++) {
      out[oi + k] = extrapolate(rows[pa + k], (rows[pa + k] - rows[pp + k]) / span, ahead);
    }
    const omega = this.#omega;
    estimateAngularVelocity(omega, 0, rows, pp + ROTATION, rows, pa + ROTATION, span);
    extrapolateRotation(
      out,
      oi + ROTATION,
      rows,
      pa + ROTATION,
      omega[0],
      omega[1],
      omega[2],
      ahead,
    );
    for (let k = SCALE; k < STRIDE; k++) out[oi + k] = rows[pa + k];
    return 'extrapolated';
  }

  /** Snapshots kept. */
  get size(): number {
    return this.#count;
  }

  /** The newest snapshot's tick (NaN when empty). */
  get newestTick(): number {
    return this.#count === 0 ? Number.NaN : this.#tickAt(this.#count - 1);
  }

  /** Snapshots refused by `push` (not newer than the newest). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets every snapshot. */
  clear(): void {
    this.#head = 0;
    this.#count = 0;
  }

  #slot(i: number): number {
    return (this.#head + i) % this.#capacity;
  }

  #tickAt(i: number): number {
    return this.#ticks[this.#slot(i)];
  }

  #copy(slot: number, out: Float64Array, oi: number): void {
    const at = slot * STRIDE;
    for (let k = 0; k < STRIDE; k++) out[oi + k] = this.#rows[at + k];
  }
}
