/**
 * The interpolation buffers every engine adapter shares: per tracked body, the previous and the
 * current simulation pose, an optional velocity, and the pose to render, in packed typed arrays.
 *
 * Why: fixed steps and display frames do not line up, so a frame must show the state a fraction
 * `alpha` of the way from the previous step to the current one (or, extrapolating, `alpha` of a
 * step past the current one). Keeping those poses as `Vector3`/`Quaternion` objects per body
 * costs allocations and pointer chasing; here they are rows of `Float64Array`s (64-bit, so a
 * pose written to an engine object and read back compares `===`, which teleport detection
 * relies on), and one `interpolate(alpha, fixedDelta)` pass fills the output rows.
 *
 * Layout: each pose array holds {@link POSE_STRIDE} numbers per slot —
 * position `x y z` at {@link POSITION_OFFSET}, rotation quaternion `x y z w` at
 * {@link ROTATION_OFFSET}, scale `x y z` at {@link SCALE_OFFSET}. `velocity` holds
 * {@link VELOCITY_STRIDE} per slot: linear `x y z`, then angular `x y z` (rad/s, axis-angle).
 * The arrays are replaced when the buffer grows, so re-read them after `add()`.
 *
 * Guarantees:
 * - Nothing is allocated by `push`, `shiftAll`, `setCurrent`, `setVelocity`, `interpolate` or
 *   `reset` (except when a scratch list first grows).
 * - After `reset(slot)` the output of that slot and of its tracked descendants equals their
 *   current pose exactly, and keeps doing so until the next `push`.
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
import {
  estimateAngularVelocity,
  extrapolate,
  lerp,
  rotateBy,
  SLERP_NLERP_THRESHOLD,
} from './math.ts';

/**
 * How a body is rendered between steps (Unity `RigidbodyInterpolation`, Godot
 * `physics_interpolation_mode`):
 * - `'none'`: the latest simulation pose. Up to one step of stutter at high refresh rates.
 * - `'interpolate'`: between the previous and the current pose. Smooth, one step of visual lag.
 * - `'extrapolate'`: past the current pose along the velocity. No lag, but overshoots when the
 *   velocity changes suddenly (a collision), then snaps back.
 */
export type InterpolationMode = 'none' | 'interpolate' | 'extrapolate';

/** Numbers per slot in the pose arrays: position 3, rotation quaternion 4, scale 3. */
export const POSE_STRIDE = 10;
/** Offset of position `x y z` within a pose row. */
export const POSITION_OFFSET = 0;
/** Offset of the rotation quaternion `x y z w` within a pose row. */
export const ROTATION_OFFSET = 3;
/** Offset of scale `x y z` within a pose row. */
export const SCALE_OFFSET = 7;
/** Numbers per slot in the velocity array: linear `x y z`, angular `x y z`. */
export const VELOCITY_STRIDE = 6;

/** Slot capacity of a new buffer unless told otherwise; it doubles as needed. */
const DEFAULT_CAPACITY = 64;

const FREE = 0;
const NONE = 1;
const INTERPOLATE = 2;
const EXTRAPOLATE = 3;

const IDENTITY_POSE = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1] as const;

function modeCode(mode: unknown): number {
  if (mode === 'interpolate') return INTERPOLATE;
  if (mode === 'none') return NONE;
  if (mode === 'extrapolate') return EXTRAPOLATE;
  throw new RangeError(
    `fixedtick: option "interpolation" must be "none", "interpolate" or "extrapolate", got ${
      typeof mode === 'string' ? JSON.stringify(mode) : String(mode)
    }`,
  );
}

function modeName(code: number): InterpolationMode {
  return code === NONE ? 'none' : code === EXTRAPOLATE ? 'extrapolate' : 'interpolate';
}

function grow<T extends Float64Array | Int32Array | Uint8Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}

/**
 * {@link PoseBuffer.interpolateSlotAt} for the first `count` slots of `list`, which must all be
 * in `'interpolate'` mode, at the clock of the last `setClock`: the core tracker's per-frame pass
 * (one loop over the awake bodies, docs/performance.md "The tracker"). Internal to core, not
 * part of the public API.
 * @internal
 */
export let interpolateList: (poses: PoseBuffer, list: Int32Array, count: number) => void;

/**
 * Previous/current/output poses of many bodies in packed typed arrays; see the module doc.
 * A body is a *slot* (a small integer) handed out by {@link PoseBuffer.add}; freed slots are
 * reused.
 */
export class PoseBuffer {
  #capacity: number;
  #size = 0;
  #count = 0;
  #previous: Float64Array;
  #current: Float64Array;
  #output: Float64Array;
  #velocity: Float64Array;
  #mode: Uint8Array;
  #hasVelocity: Uint8Array;
  #parent: Int32Array;
  #free: Int32Array;
  #freeCount = 0;
  /** Slots with a tracked parent: while 0, `reset` needs no walk over the other slots. */
  #linked = 0;
  #resetSlots: Int32Array;
  readonly #omega = new Float64Array(4);
  readonly #scalars = new Float64Array(2);
  /** A list of one slot, for `#lerpRows`. */
  readonly #one = new Int32Array(1);
  /**
   * By slot × 3: `dot`, `θ = acos(dot)` and `sin θ` of the slot's last slerp. They only change
   * with a step, so the frames between steps (7 of 12 at 144 fps and 60 Hz) reuse them: two trig
   * calls per body instead of four. Keyed by the dot itself (NaN: none yet), so the result is bit
   * for bit that of a fresh `acos`/`sin`, and a stale entry can never be used.
   */
  #slerp: Float64Array;

  /** @param capacity slots to allocate up front (the buffer grows by doubling). */
  constructor(capacity = DEFAULT_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `fixedtick: option "capacity" must be a whole number ≥ 1, got ${String(capacity)}`,
      );
    }
    this.#capacity = capacity;
    this.#previous = new Float64Array(capacity * POSE_STRIDE);
    this.#current = new Float64Array(capacity * POSE_STRIDE);
    this.#output = new Float64Array(capacity * POSE_STRIDE);
    this.#velocity = new Float64Array(capacity * VELOCITY_STRIDE);
    this.#mode = new Uint8Array(capacity);
    this.#hasVelocity = new Uint8Array(capacity);
    this.#parent = new Int32Array(capacity).fill(-1);
    this.#free = new Int32Array(capacity);
    this.#resetSlots = new Int32Array(capacity);
    this.#slerp = new Float64Array(capacity * 3).fill(Number.NaN);
  }

  /** Previous simulation pose of every slot (stride {@link POSE_STRIDE}). */
  get previous(): Float64Array {
    return this.#previous;
  }
  /** Current (latest) simulation pose of every slot (stride {@link POSE_STRIDE}). */
  get current(): Float64Array {
    return this.#current;
  }
  /** Pose to render, filled by {@link PoseBuffer.interpolate} and `reset` (stride {@link POSE_STRIDE}). */
  get output(): Float64Array {
    return this.#output;
  }
  /** Linear then angular velocity of every slot (stride {@link VELOCITY_STRIDE}). */
  get velocity(): Float64Array {
    return this.#velocity;
  }
  /** One past the highest slot ever in use: loops over slots run from 0 to `size - 1`. */
  get size(): number {
    return this.#size;
  }
  /** Slots in use. */
  get count(): number {
    return this.#count;
  }
  /** Slots allocated before the next growth. */
  get capacity(): number {
    return this.#capacity;
  }
  /**
   * Slots touched by the last {@link PoseBuffer.reset}: the first `n` entries, where `n` is what
   * `reset` returned. Reused by the next call.
   */
  get resetSlots(): Int32Array {
    return this.#resetSlots;
  }

  /**
   * Starts tracking a body: returns its slot, with the identity pose in every row (set the real
   * one with {@link PoseBuffer.setPose}), no velocity, and `parent` as its tracked parent slot
   * (`-1`: none). Throws a `RangeError` for an unknown `mode`.
   */
  add(mode: InterpolationMode = 'interpolate', parent = -1): number {
    const code = modeCode(mode);
    let slot: number;
    if (this.#freeCount > 0) {
      slot = this.#free[--this.#freeCount];
    } else {
      if (this.#size === this.#capacity) this.#grow(this.#capacity * 2);
      slot = this.#size++;
    }
    this.#count++;
    this.#mode[slot] = code;
    this.#hasVelocity[slot] = 0;
    this.#velocity.fill(0, slot * VELOCITY_STRIDE, (slot + 1) * VELOCITY_STRIDE);
    this.#parent[slot] = -1;
    const row = slot * POSE_STRIDE;
    this.#previous.set(IDENTITY_POSE, row);
    this.#current.set(IDENTITY_POSE, row);
    this.#output.set(IDENTITY_POSE, row);
    if (parent !== -1) this.setParent(slot, parent);
    return slot;
  }

  /**
   * Stops tracking `slot`; the slot may be handed out again by `add`. Its tracked children are
   * re-linked to its own parent, so a later `reset` of an ancestor still reaches them.
   */
  remove(slot: number): void {
    this.#check(slot);
    const parent = this.#parent[slot];
    const links = this.#parent;
    if (this.#linked > 0) {
      for (let i = 0; i < this.#size; i++) {
        if (links[i] !== slot) continue;
        links[i] = parent;
        if (parent === -1) this.#linked--;
      }
    }
    if (parent !== -1) this.#linked--;
    this.#mode[slot] = FREE;
    this.#parent[slot] = -1;
    this.#hasVelocity[slot] = 0;
    if (this.#freeCount === this.#free.length) this.#free = grow(this.#free, this.#capacity);
    this.#free[this.#freeCount++] = slot;
    this.#count--;
  }

  /** True if `slot` is in use. */
  has(slot: number): boolean {
    return Number.isInteger(slot) && slot >= 0 && slot < this.#size && this.#mode[slot] !== FREE;
  }

  /** The interpolation mode of `slot`. */
  getMode(slot: number): InterpolationMode {
    this.#check(slot);
    return modeName(this.#mode[slot]);
  }

  /** Changes the interpolation mode of `slot`; it applies from the next `interpolate`. */
  setMode(slot: number, mode: InterpolationMode): void {
    this.#check(slot);
    this.#mode[slot] = modeCode(mode);
  }

  /** The tracked parent slot of `slot`, or `-1`. */
  getParent(slot: number): number {
    this.#check(slot);
    return this.#parent[slot];
  }

  /**
   * Links `slot` to its nearest tracked ancestor (`-1`: none), so that resetting the ancestor
   * resets it too. Throws a `RangeError` if the link would make a cycle.
   */
  setParent(slot: number, parent: number): void {
    this.#check(slot);
    if (parent !== -1) {
      this.#check(parent);
      for (let p = parent; p !== -1; p = this.#parent[p]) {
        if (p === slot) {
          throw new RangeError(
            `fixedtick: option "parent" of slot ${slot} must not be itself or a descendant, got ${parent}`,
          );
        }
      }
    }
    const old = this.#parent[slot];
    if (old === -1 && parent !== -1) this.#linked++;
    else if (old !== -1 && parent === -1) this.#linked--;
    this.#parent[slot] = parent;
  }

  /**
   * Sets previous, current and output pose of `slot` at once (spawn, teleport): the body is
   * rendered at exactly this pose until it moves. Does not touch its descendants (see `reset`).
   */
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
    this.#resetOne(slot);
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
    const c = this.#current;
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
    const p = this.#previous;
    const c = this.#current;
    for (let k = 0; k < POSE_STRIDE; k++) p[row + k] = c[row + k];
    this.setCurrent(slot, px, py, pz, qx, qy, qz, qw, sx, sy, sz);
  }

  /**
   * Copies every current pose to previous in one block move: the first half of a `push` for all
   * slots, for adapters that then write the `current` rows themselves.
   */
  shiftAll(): void {
    // whole arrays (same length): a block copy with no view allocated; unused rows are harmless
    this.#previous.set(this.#current);
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
    const v = this.#velocity;
    const i = slot * VELOCITY_STRIDE;
    v[i] = vx;
    v[i + 1] = vy;
    v[i + 2] = vz;
    v[i + 3] = wx;
    v[i + 4] = wy;
    v[i + 5] = wz;
    this.#hasVelocity[slot] = 1;
  }

  /**
   * {@link PoseBuffer.setVelocity} from `from[at..at+5]` (linear `x y z`, angular `x y z`): the
   * form for a per-step pass, which passes no fractional numbers as arguments. Hot path: `slot`
   * is not checked.
   */
  setVelocityFrom(slot: number, from: Float64Array, at: number): void {
    const v = this.#velocity;
    const i = slot * VELOCITY_STRIDE;
    for (let k = 0; k < VELOCITY_STRIDE; k++) v[i + k] = from[at + k];
    this.#hasVelocity[slot] = 1;
  }

  /** Forgets a supplied velocity: `'extrapolate'` goes back to estimating from the last two poses. */
  clearVelocity(slot: number): void {
    this.#check(slot);
    this.#clearVelocity(slot);
  }

  /** True while `slot` has a velocity supplied by `setVelocity`. */
  hasVelocity(slot: number): boolean {
    this.#check(slot);
    return this.#hasVelocity[slot] === 1;
  }

  /**
   * Teleport (Godot `reset_physics_interpolation`): for `slot` and every tracked descendant,
   * previous = current, velocity cleared, output = current, so the next rendered frame shows the
   * current pose with no streak and motion continues from it. Returns how many slots it touched;
   * they are listed in {@link PoseBuffer.resetSlots} (the slot itself first) for the adapter to
   * write to its objects.
   */
  reset(slot: number): number {
    this.#check(slot);
    if (this.#linked === 0) {
      this.#resetSlots[0] = slot;
      this.#resetOne(slot);
      return 1;
    }
    let n = 0;
    const parents = this.#parent;
    const modes = this.#mode;
    for (let i = 0; i < this.#size; i++) {
      if (modes[i] === FREE) continue;
      let p = i;
      while (p !== -1 && p !== slot) p = parents[p];
      if (p !== slot) continue;
      if (n === this.#resetSlots.length) this.#resetSlots = grow(this.#resetSlots, this.#capacity);
      this.#resetSlots[n++] = i;
      this.#resetOne(i);
    }
    // the slot itself first
    const list = this.#resetSlots;
    for (let k = 1; k < n; k++) {
      if (list[k] === slot) {
        list[k] = list[0];
        list[0] = slot;
        break;
      }
    }
    return n;
  }

  /** {@link PoseBuffer.reset} for every slot at once (`loop.resetInterpolation()`). */
  resetAll(): void {
    this.#previous.set(this.#current);
    this.#output.set(this.#current);
    this.#velocity.fill(0);
    this.#hasVelocity.fill(0);
  }

  /**
   * Fills `output` for every slot in use: `'none'` → current; `'interpolate'` → lerp/slerp from
   * previous to current at `alpha`; `'extrapolate'` → current advanced by `alpha * fixedDelta`
   * seconds of the supplied velocity, or of the motion between previous and current. Scale is
   * interpolated in `'interpolate'` and held at current otherwise (engines report no scale
   * velocity). Allocates nothing. A body's slerp angle only changes with a step, so frames between
   * steps reuse it (bit for bit what a fresh one gives).
   */
  interpolate(alpha: number, fixedDelta: number): void {
    const size = this.#size;
    for (let slot = 0; slot < size; slot++) this.interpolateSlot(slot, alpha, fixedDelta);
  }

  /**
   * {@link PoseBuffer.interpolate} for one slot (a free slot is left alone), for adapters that
   * check, interpolate and write each body in one pass over their objects. Hot path: `slot` is
   * not checked beyond being in use.
   */
  interpolateSlot(slot: number, alpha: number, fixedDelta: number): void {
    // alpha and fixedDelta reach the row helpers through a scratch array: V8 boxes a double
    // passed to a function it does not inline (one heap number per body per frame)
    const scalars = this.#scalars;
    scalars[0] = alpha;
    scalars[1] = fixedDelta;
    this.interpolateSlotAt(slot);
  }

  /**
   * Takes the frame's `alpha` and `fixedDelta` from `clock` (a `FixedLoop`, say) for the
   * {@link PoseBuffer.interpolateSlotAt} calls that follow. An object rather than two numbers:
   * V8 boxes a fractional argument to a call it does not inline, a heap number per frame.
   */
  setClock(clock: { readonly alpha: number; readonly fixedDelta: number }): void {
    this.#scalars[0] = clock.alpha;
    this.#scalars[1] = clock.fixedDelta;
  }

  /**
   * {@link PoseBuffer.interpolateSlot} at the `alpha` and `fixedDelta` of the last
   * {@link PoseBuffer.setClock} (or `interpolateSlot`): the allocation-free form for an
   * adapter's per-frame pass.
   */
  interpolateSlotAt(slot: number): void {
    const mode = this.#mode[slot];
    if (mode === INTERPOLATE) {
      this.#one[0] = slot;
      this.#lerpRows(this.#one, 1);
    } else if (mode === NONE) {
      const c = this.#current;
      const o = this.#output;
      const r = slot * POSE_STRIDE;
      for (let k = 0; k < POSE_STRIDE; k++) o[r + k] = c[r + k];
    } else if (mode === EXTRAPOLATE) {
      this.#extrapolateRow(slot);
    }
  }

  static {
    interpolateList = (poses, list, count) => poses.#lerpRows(list, count);
  }

  /** Throws a `RangeError` unless `slot` is in use. */
  #check(slot: number): void {
    if (!this.has(slot)) {
      throw new RangeError(`fixedtick: option "slot" must be a tracked slot, got ${String(slot)}`);
    }
  }

  #clearVelocity(slot: number): void {
    this.#velocity.fill(0, slot * VELOCITY_STRIDE, (slot + 1) * VELOCITY_STRIDE);
    this.#hasVelocity[slot] = 0;
  }

  #resetOne(slot: number): void {
    const r = slot * POSE_STRIDE;
    const p = this.#previous;
    const c = this.#current;
    const o = this.#output;
    for (let k = 0; k < POSE_STRIDE; k++) {
      const v = c[r + k];
      p[r + k] = v;
      o[r + k] = v;
    }
    this.#clearVelocity(slot);
  }

  /**
   * Interpolates the rows of the first `count` slots of `list` (the lerp/slerp contracts of
   * `math.ts`, inlined by hand): position and scale by exact-endpoint lerp, rotation by
   * normalised lerp when the two rotations are close (|dot| ≥ {@link SLERP_NLERP_THRESHOLD}, the
   * common case at game tick rates), else by slerp with `acos`/`sin θ` from the slot's slerp
   * cache when the dot is that of its last slerp. The one place this math is written for rows:
   * one loop over a list, so that V8 keeps the arrays and `t` in registers across slots instead
   * of a call per slot it will not inline (docs/performance.md, "The tracker"). The rotation is
   * worked out first and the lerps after it, so that their arithmetic overlaps the square root
   * and the divisions.
   */
  #lerpRows(list: Int32Array, count: number): void {
    const p = this.#previous;
    const c = this.#current;
    const o = this.#output;
    const cache = this.#slerp;
    const t = this.#scalars[0];
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
          const k = slot * 3;
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

  #extrapolateRow(slot: number): void {
    const r = slot * POSE_STRIDE;
    const p = this.#previous;
    const c = this.#current;
    const o = this.#output;
    const alpha = this.#scalars[0];
    const w = this.#omega; // (wx, wy, wz, seconds) for rotateBy
    if (this.#hasVelocity[slot] === 1) {
      const seconds = alpha * this.#scalars[1];
      const v = this.#velocity;
      const i = slot * VELOCITY_STRIDE;
      o[r] = extrapolate(c[r], v[i], seconds);
      o[r + 1] = extrapolate(c[r + 1], v[i + 1], seconds);
      o[r + 2] = extrapolate(c[r + 2], v[i + 2], seconds);
      w[0] = v[i + 3];
      w[1] = v[i + 4];
      w[2] = v[i + 5];
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

  #grow(capacity: number): void {
    this.#capacity = capacity;
    this.#previous = grow(this.#previous, capacity * POSE_STRIDE);
    this.#current = grow(this.#current, capacity * POSE_STRIDE);
    this.#output = grow(this.#output, capacity * POSE_STRIDE);
    this.#velocity = grow(this.#velocity, capacity * VELOCITY_STRIDE);
    this.#mode = grow(this.#mode, capacity);
    this.#hasVelocity = grow(this.#hasVelocity, capacity);
    const parents = new Int32Array(capacity).fill(-1);
    parents.set(this.#parent);
    this.#parent = parents;
    const slerp = new Float64Array(capacity * 3).fill(Number.NaN);
    slerp.set(this.#slerp);
    this.#slerp = slerp;
  }
}
