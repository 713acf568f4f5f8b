/**
 * The pose store every engine adapter shares: per slot (a tracked body), the previous and the
 * current simulation pose, an optional velocity, and the pose to render, in packed typed arrays
 * of the pose-row layout (pose-layout.ts).
 *
 * Why: fixed steps and display frames do not line up, so a frame must show the state a fraction
 * `alpha` of the way from the previous step to the current one (or, extrapolating, `alpha` of a
 * step past the current one). Keeping those poses as `Vector3`/`Quaternion` objects per body
 * costs allocations and pointer chasing; here they are rows of `Float64Array`s, and one
 * `interpolate(alpha, fixedDelta)` pass fills the output rows with the kernel of each slot's mode
 * (interpolate.ts, extrapolate.ts, hold.ts).
 *
 * Guarantees:
 * - Nothing is allocated by `push`, `shiftAll`, `setCurrent`, `setVelocity`, `interpolate` or
 *   `reset`.
 * - After `reset(slot)` the output of that slot equals its current pose exactly, and keeps doing
 *   so until the next `push`.
 * - Storage follows what is in use: passes stop at the highest slot in use, and a buffer emptied
 *   by `remove` gives the storage of its peak back.
 *
 * @example
 * ```ts
 * const poses = new PoseBuffer();
 * const body = poses.add('interpolate');
 * poses.setPose(body, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);            // spawn: no streak from the origin
 * loop.onPostSimulation(() => poses.push(body, x, y, z, 0, 0, 0, 1, 1, 1, 1));
 * loop.onUpdate((_dt, alpha) => { poses.interpolate(alpha, loop.fixedDelta); draw(poses.output); });
 * ```
 */
import { extrapolateRow } from './extrapolate.ts';
import { holdRow } from './hold.ts';
import { interpolateRow, interpolateRows } from './interpolate.ts';
import {
  CLOCK_ALPHA,
  CLOCK_FIXED_DELTA,
  type InterpolationMode,
  POSE_STRIDE,
  VELOCITY_STRIDE,
} from './pose-layout.ts';
import { EXTRAPOLATE, INTERPOLATE, modeCode, modeName, NONE } from './pose-modes.ts';
import { FREE, PoseStorage } from './pose-storage.ts';

// options.ts reads the mode's type from here
export type { InterpolationMode } from './pose-layout.ts';

/** Slot capacity of a new buffer unless told otherwise; it doubles as needed. */
const DEFAULT_CAPACITY = 64;

const IDENTITY_POSE = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1] as const;

/**
 * Previous/current/output poses of many bodies in packed typed arrays; see the module doc.
 * A body is a *slot* (a small integer) handed out by {@link PoseBuffer.add}; freed slots are
 * reused.
 */
export class PoseBuffer {
  readonly #rows: PoseStorage;
  /** `alpha` and `fixedDelta` for the kernels (pose-layout.ts, `CLOCK_ALPHA`). */
  readonly #clock = new Float64Array(2);

  /** @param capacity slots to allocate up front (the buffer grows by doubling). */
  constructor(capacity = DEFAULT_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `fixedtick: option "capacity" must be a whole number ≥ 1, got ${String(capacity)}`,
      );
    }
    this.#rows = new PoseStorage(capacity);
  }

  /** Previous simulation pose of every slot (stride {@link POSE_STRIDE}). */
  get previous(): Float64Array {
    return this.#rows.previous;
  }
  /** Current (latest) simulation pose of every slot (stride {@link POSE_STRIDE}). */
  get current(): Float64Array {
    return this.#rows.current;
  }
  /** Pose to render, filled by {@link PoseBuffer.interpolate} and `reset` (stride {@link POSE_STRIDE}). */
  get output(): Float64Array {
    return this.#rows.output;
  }
  /** Linear then angular velocity of every slot (stride {@link VELOCITY_STRIDE}). */
  get velocity(): Float64Array {
    return this.#rows.velocity;
  }
  /** One past the highest slot in use: loops over slots run from 0 to `size - 1`. */
  get size(): number {
    return this.#rows.size;
  }
  /** Slots in use. */
  get count(): number {
    return this.#rows.count;
  }
  /** Slots allocated before the next growth. */
  get capacity(): number {
    return this.#rows.capacity;
  }

  /**
   * Starts tracking a body: returns its slot, with the identity pose in every row (set the real
   * one with {@link PoseBuffer.setPose}) and no velocity. Throws a `RangeError` for an unknown
   * `mode`.
   */
  add(mode: InterpolationMode = 'interpolate'): number {
    const slot = this.#rows.take(modeCode(mode));
    this.#clearVelocity(slot);
    const row = slot * POSE_STRIDE;
    this.#rows.previous.set(IDENTITY_POSE, row);
    this.#rows.current.set(IDENTITY_POSE, row);
    this.#rows.output.set(IDENTITY_POSE, row);
    return slot;
  }

  /**
   * Stops tracking `slot`; the slot may be handed out again by `add`. Freeing the highest slot
   * in use shortens `size`; freeing the last one gives the storage back.
   */
  remove(slot: number): void {
    this.#check(slot);
    this.#rows.free(slot);
  }

  /** True if `slot` is in use. */
  has(slot: number): boolean {
    return (
      Number.isInteger(slot) &&
      slot >= 0 &&
      slot < this.#rows.size &&
      this.#rows.mode[slot] !== FREE
    );
  }

  /** The interpolation mode of `slot`. */
  getMode(slot: number): InterpolationMode {
    this.#check(slot);
    return modeName(this.#rows.mode[slot]);
  }

  /** Changes the interpolation mode of `slot`; it applies from the next `interpolate`. */
  setMode(slot: number, mode: InterpolationMode): void {
    this.#check(slot);
    this.#rows.mode[slot] = modeCode(mode);
  }

  /** Sets previous, current and output pose of `slot` at once (spawn, teleport). */
  setPose(
    slot: number,
    px: number,
    py: number,
    pz: number,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
    sx: number,
    sy: number,
    sz: number,
  ): void {
    this.setCurrent(slot, px, py, pz, qx, qy, qz, qw, sx, sy, sz);
    this.reset(slot);
  }

  /**
   * Overwrites the current pose of `slot` without shifting it to previous (an adapter adopting a
   * pose written outside the step, before `reset`). Hot path: `slot` is not checked.
   */
  setCurrent(
    slot: number,
    px: number,
    py: number,
    pz: number,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
    sx: number,
    sy: number,
    sz: number,
  ): void {
    const c = this.#rows.current;
    const row = slot * POSE_STRIDE;
    c[row] = px;
    c[row + 1] = py;
    c[row + 2] = pz;
    c[row + 3] = qx;
    c[row + 4] = qy;
    c[row + 5] = qz;
    c[row + 6] = qw;
    c[row + 7] = sx;
    c[row + 8] = sy;
    c[row + 9] = sz;
  }

  /**
   * Records a new simulation pose of `slot` after a step: the current pose becomes the previous
   * one and this one the current. Call once per step per body (or `shiftAll` once per step and
   * write `current` rows directly). Hot path: `slot` is not checked.
   */
  push(
    slot: number,
    px: number,
    py: number,
    pz: number,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
    sx: number,
    sy: number,
    sz: number,
  ): void {
    const row = slot * POSE_STRIDE;
    const p = this.#rows.previous;
    const c = this.#rows.current;
    for (let k = 0; k < POSE_STRIDE; k++) p[row + k] = c[row + k];
    this.setCurrent(slot, px, py, pz, qx, qy, qz, qw, sx, sy, sz);
  }

  /**
   * Copies every current pose to previous in one block move: the first half of a `push` for all
   * slots, for adapters that then write the `current` rows themselves.
   */
  shiftAll(): void {
    // whole arrays (same length): a block copy with no view allocated; unused rows are harmless
    this.#rows.previous.set(this.#rows.current);
  }

  /**
   * Supplies the velocity of `slot` from the physics engine (linear m/s or units/s, angular rad/s
   * as an axis-angle vector in the pose's frame). `'extrapolate'` then uses it instead of the
   * estimate from the last two poses, until `clearVelocity` or `reset`. Hot path: `slot` is not
   * checked.
   */
  setVelocity(
    slot: number,
    vx: number,
    vy: number,
    vz: number,
    wx: number,
    wy: number,
    wz: number,
  ): void {
    const v = this.#rows.velocity;
    const i = slot * VELOCITY_STRIDE;
    v[i] = vx;
    v[i + 1] = vy;
    v[i + 2] = vz;
    v[i + 3] = wx;
    v[i + 4] = wy;
    v[i + 5] = wz;
    this.#rows.hasVelocity[slot] = 1;
  }

  /**
   * {@link PoseBuffer.setVelocity} from `from[at..at+5]` (linear `x y z`, angular `x y z`): the
   * form for a per-step pass, which passes no fractional numbers as arguments. Hot path: `slot`
   * is not checked.
   */
  setVelocityFrom(slot: number, from: Float64Array, at: number): void {
    const v = this.#rows.velocity;
    const i = slot * VELOCITY_STRIDE;
    for (let k = 0; k < VELOCITY_STRIDE; k++) v[i + k] = from[at + k];
    this.#rows.hasVelocity[slot] = 1;
  }

  /** Forgets a supplied velocity: `'extrapolate'` goes back to estimating from the last two poses. */
  clearVelocity(slot: number): void {
    this.#check(slot);
    this.#clearVelocity(slot);
  }

  /** True while `slot` has a velocity supplied by `setVelocity`. */
  hasVelocity(slot: number): boolean {
    this.#check(slot);
    return this.#rows.hasVelocity[slot] === 1;
  }

  /**
   * Teleport (Godot `reset_physics_interpolation`) of `slot`: previous = current, velocity
   * cleared, output = current, so the next rendered frame shows the current pose with no streak
   * and motion continues from it. (The tracker resets a node's tracked descendants with it,
   * through the scene graph.)
   */
  reset(slot: number): void {
    this.#check(slot);
    const r = slot * POSE_STRIDE;
    const p = this.#rows.previous;
    const c = this.#rows.current;
    const o = this.#rows.output;
    for (let k = 0; k < POSE_STRIDE; k++) {
      const v = c[r + k];
      p[r + k] = v;
      o[r + k] = v;
    }
    this.#clearVelocity(slot);
  }

  /** {@link PoseBuffer.reset} for every slot at once (`loop.resetInterpolation()`). */
  resetAll(): void {
    this.#rows.previous.set(this.#rows.current);
    this.#rows.output.set(this.#rows.current);
    this.#rows.velocity.fill(0);
    this.#rows.hasVelocity.fill(0);
  }

  /**
   * Fills `output` for every slot in use with its mode's kernel: `'none'` → current;
   * `'interpolate'` → lerp/slerp from previous to current at `alpha`; `'extrapolate'` → current
   * advanced by `alpha * fixedDelta` seconds of the supplied velocity, or of the motion between
   * previous and current. Allocates nothing.
   */
  interpolate(alpha: number, fixedDelta: number): void {
    this.#clock[CLOCK_ALPHA] = alpha;
    this.#clock[CLOCK_FIXED_DELTA] = fixedDelta;
    const size = this.#rows.size;
    for (let slot = 0; slot < size; slot++) this.interpolateSlotAt(slot);
  }

  /** {@link PoseBuffer.interpolate} for one slot (a free slot is left alone). */
  interpolateSlot(slot: number, alpha: number, fixedDelta: number): void {
    this.#clock[CLOCK_ALPHA] = alpha;
    this.#clock[CLOCK_FIXED_DELTA] = fixedDelta;
    this.interpolateSlotAt(slot);
  }

  /**
   * Takes the frame's `alpha` and `fixedDelta` from `clock` (a loop's `FrameContext`, say) for
   * the {@link PoseBuffer.interpolateSlotAt} calls that follow. An object rather than two
   * numbers: V8 boxes a fractional argument to a call it does not inline, a heap number per frame.
   */
  setClock(clock: { readonly alpha: number; readonly fixedDelta: number }): void {
    this.#clock[CLOCK_ALPHA] = clock.alpha;
    this.#clock[CLOCK_FIXED_DELTA] = clock.fixedDelta;
  }

  /**
   * {@link PoseBuffer.interpolateSlot} at the `alpha` and `fixedDelta` of the last
   * {@link PoseBuffer.setClock}: the allocation-free form for an adapter's per-frame pass. Hot
   * path: `slot` is not checked beyond being in use.
   */
  interpolateSlotAt(slot: number): void {
    const mode = this.#rows.mode[slot];
    if (mode === INTERPOLATE) {
      interpolateRow(
        this.#rows.previous,
        this.#rows.current,
        this.#rows.output,
        this.#rows.slerp,
        slot,
        this.#clock,
      );
    } else if (mode === NONE) {
      holdRow(this.#rows.current, this.#rows.output, slot);
    } else if (mode === EXTRAPOLATE) {
      const supplied = this.#rows.hasVelocity[slot] === 1;
      extrapolateRow(
        this.#rows.previous,
        this.#rows.current,
        this.#rows.output,
        this.#rows.velocity,
        supplied,
        slot,
        this.#clock,
      );
    }
  }

  /**
   * The `'interpolate'` kernel's written-out loop (interpolate.ts) over the first `count` slots
   * of `list`, which must all be in `'interpolate'` mode, at the clock of the last `setClock`:
   * the tracker's per-frame pass. For adapters inside the core.
   * @internal
   */
  interpolateList(list: Int32Array, count: number): void {
    interpolateRows(
      this.#rows.previous,
      this.#rows.current,
      this.#rows.output,
      this.#rows.slerp,
      list,
      count,
      this.#clock,
    );
  }

  /** Throws a `RangeError` unless `slot` is in use. */
  #check(slot: number): void {
    if (!this.has(slot)) {
      throw new RangeError(`fixedtick: option "slot" must be a tracked slot, got ${String(slot)}`);
    }
  }

  #clearVelocity(slot: number): void {
    this.#rows.velocity.fill(0, slot * VELOCITY_STRIDE, (slot + 1) * VELOCITY_STRIDE);
    this.#rows.hasVelocity[slot] = 0;
  }
}
