/**
 * The three.js {@link LoopAdapter}: keeps tracked `Object3D`s (and `InstancedMesh` instances) at
 * their simulation pose inside the fixed step and at their interpolated pose everywhere else.
 *
 * Per frame, in the loop's order:
 * 1. `beginFrame` — teleport check: each tracked object's local pose is compared (`===`, exact)
 *    with the pose this adapter last wrote to it. A difference means user code wrote a pose
 *    outside the fixed step: that pose becomes the simulation pose and the interpolation of the
 *    object and its tracked descendants is reset, so this very frame shows it with no smear.
 * 2. `beforeSteps` (frames that run steps) — restore: write the current simulation pose back, so
 *    `fixedUpdate` and the physics read and move the real state, never an interpolated one.
 * 3. `afterStep` (each step) — capture: current → previous, object → current.
 * 4. `interpolate` — the core {@link PoseBuffer} computes the render pose of every slot at
 *    `alpha`, and it is written to the objects.
 *
 * Poses are the objects' *local* `position`/`quaternion`/`scale`; three composes world matrices
 * at render time, so a tracked child of a tracked parent renders at the composition of both
 * interpolated poses. The per-frame passes (`beforeSteps`, `interpolate`) run over packed typed
 * arrays, visit each object once per pass, create no closures and allocate nothing: the render
 * pose comes from the core buffer's `interpolateSlotAt`, with the frame's alpha handed over once
 * as the loop object (`setClock`), never as a fractional argument, which V8 boxes. Each pass is
 * one path per slot through small helpers V8 inlines (instances branch off to methods of their
 * own), not hand-unrolled loops: the adapter's bytes are part of every game's download (budget:
 * docs/packaging.md). The restore pass reads the arrays once per pass rather than per object:
 * it measured ≈ 8 % faster than through the per-slot helpers.
 */
import {
  checkInterpolationMode,
  type FixedLoop,
  type LoopAdapter,
  optionError,
} from '@fixedtick/core';
import { type InterpolationMode, POSE_STRIDE, PoseBuffer } from '@fixedtick/core/interpolation';
import { type InstancedMesh, Matrix4, type Object3D, Quaternion, Vector3 } from 'three';
import { restoreRotation, setRotation } from './rotation-sync.ts';

/** A simulation pose: local position, rotation and scale. */
export interface SimulationPose {
  /** Local position. */
  position: Vector3;
  /** Local rotation. */
  quaternion: Quaternion;
  /** Local scale. */
  scale: Vector3;
}

/** Options of `track` / `trackInstance`. */
export interface TrackOptions {
  /**
   * How the object is drawn between fixed steps; see {@link InterpolationMode}.
   * @defaultValue the loop's `defaultInterpolation` (`'interpolate'` unless set)
   */
  interpolation?: InterpolationMode;
}

/** Numbers in an instance matrix. */
const MATRIX = 16;

type Numbers = { [index: number]: number; readonly length: number };

/** A copy of `array` with room for `length` numbers. */
function grow<T extends Float64Array | Float32Array | Int32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}

/** True if the `n` numbers of `a` from `i` equal those of `b` from `j`. */
function same(a: Numbers, i: number, b: Numbers, j: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (a[i + k] !== b[j + k]) return false;
  return true;
}

/** Copies `n` numbers of `from` from `j` to `to` from `i`. */
function copy(to: Numbers, i: number, from: Numbers, j: number, n: number): void {
  for (let k = 0; k < n; k++) to[i + k] = from[j + k];
}

/** A new pose (position, rotation, scale at the identity). */
function newPose(): SimulationPose {
  return { position: new Vector3(), quaternion: new Quaternion(), scale: new Vector3() };
}

/** Writes `pose` into row `r` of `poses`. */
function toRow(pose: SimulationPose, poses: Float64Array, r: number): void {
  pose.position.toArray(poses, r);
  pose.quaternion.toArray(poses, r + 3);
  pose.scale.toArray(poses, r + 7);
}

/** Sets `pose` to row `r` of `poses`. */
function fromRow(pose: SimulationPose, poses: Float64Array, r: number): void {
  pose.position.fromArray(poses, r);
  pose.quaternion.fromArray(poses, r + 3);
  pose.scale.fromArray(poses, r + 7);
}

/** True if `object`'s local pose is not exactly row `r` of `poses` (a teleport, or not ours). */
function differs(object: Object3D, poses: Float64Array, r: number): boolean {
  const p = object.position;
  const q = object.quaternion;
  const s = object.scale;
  return (
    p.x !== poses[r] ||
    p.y !== poses[r + 1] ||
    p.z !== poses[r + 2] ||
    q.x !== poses[r + 3] ||
    q.y !== poses[r + 4] ||
    q.z !== poses[r + 5] ||
    q.w !== poses[r + 6] ||
    s.x !== poses[r + 7] ||
    s.y !== poses[r + 8] ||
    s.z !== poses[r + 9]
  );
}

/**
 * Writes row `r` of `poses` to `object`. When `order` is the object's Euler order, `rotation`
 * gets the angles at `euler[k..k+2]` (the ones the step left, captured with this very pose);
 * otherwise it is derived from the quaternion, and only if the quaternion changed.
 */
function write(
  object: Object3D,
  poses: Float64Array,
  r: number,
  euler: Float64Array,
  k: number,
  order: string | undefined,
): void {
  const q = object.quaternion;
  const e = object.rotation;
  object.position.fromArray(poses, r);
  if (e.order === order) {
    restoreRotation(q, e, poses, r + 3, euler, k);
  } else if (
    q.x !== poses[r + 3] ||
    q.y !== poses[r + 4] ||
    q.z !== poses[r + 5] ||
    q.w !== poses[r + 6]
  ) {
    setRotation(q, e, poses, r + 3);
  }
  object.scale.fromArray(poses, r + 7);
}

/** Tracks three.js objects for one {@link FixedLoop}; see the module doc. */
export class ThreeTracker implements LoopAdapter {
  readonly #loop: FixedLoop;
  readonly #poses = new PoseBuffer();
  /** By slot: the tracked object, or the `InstancedMesh` of a tracked instance. */
  #objects: (Object3D | undefined)[] = [];
  /** By slot: the instance index, or -1 for a plain object. */
  #instance = new Int32Array(this.#poses.capacity);
  /**
   * By slot × 32: the instance matrix captured after the last step (restored exactly), then the
   * one this adapter last wrote (teleport check).
   */
  #matrices = new Float32Array(this.#poses.capacity * MATRIX * 2);
  /** By slot × 3: `rotation` (Euler) captured with the current pose, restored with it. */
  #euler = new Float64Array(this.#poses.capacity * 3);
  /** By slot: the Euler order `#euler` was captured in. */
  #orders: string[] = [];
  /** By object: its slots by instance index, -1 for the object itself. */
  readonly #slots = new Map<Object3D, Map<number, number>>();
  #list = new Int32Array(16);
  /** Objects currently hold simulation poses (between restore and the interpolation pass). */
  #holding = false;
  /** `beginFrame` ran and the frame's first pass over the objects has not checked them yet. */
  #checkPending = false;
  /** The last step of the frame ran and its pose is still to be captured. */
  #capturePending = false;
  /** Steps run in this frame so far. */
  #stepsRun = 0;
  readonly #matrix = new Matrix4();
  /** Scratch pose of an instance (decomposed from or composed into its matrix). */
  readonly #pose = newPose();

  #mode: InterpolationMode = 'interpolate';

  /**
   * @param loop the loop whose `fixedDelta` and `alpha` the tracker reads.
   * @param defaultInterpolation see {@link ThreeTracker.defaultInterpolation}.
   */
  constructor(loop: FixedLoop, defaultInterpolation: InterpolationMode = 'interpolate') {
    this.#loop = loop;
    this.defaultInterpolation = defaultInterpolation;
  }

  /** Mode used by `track` when none is given; a bad value throws a `RangeError`. */
  get defaultInterpolation(): InterpolationMode {
    return this.#mode;
  }
  set defaultInterpolation(value: InterpolationMode) {
    this.#mode = checkInterpolationMode(value, 'defaultInterpolation');
  }

  /** Number of tracked objects and instances. */
  get size(): number {
    return this.#poses.count;
  }

  /** True if `object` is tracked (as an object, not by instance). */
  isTracked(object: Object3D): boolean {
    return this.#slot(object, -1) !== undefined;
  }

  // ---- tracking ---------------------------------------------------------------------------

  /** See `ThreeFixedLoop.track`. */
  track(object: Object3D, options: TrackOptions = {}): void {
    if (object?.isObject3D !== true) throw optionError('object3d', object, 'a three.js Object3D');
    this.#track(object, -1, options);
  }

  /** See `ThreeFixedLoop.trackInstance`. */
  trackInstance(mesh: InstancedMesh, index: number, options: TrackOptions = {}): void {
    if (mesh?.isInstancedMesh !== true) {
      throw optionError('instancedMesh', mesh, 'a three.js InstancedMesh');
    }
    const count = mesh.instanceMatrix.count;
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw optionError('index', index, `a whole number from 0 to ${count - 1}`);
    }
    this.#track(mesh, index, options);
  }

  /**
   * See `ThreeFixedLoop.untrack`. The object is left at its simulation pose (or at a pose user
   * code wrote to it since the last frame).
   */
  untrack(object: Object3D): boolean {
    return this.#untrack(object, -1);
  }

  /** See `ThreeFixedLoop.untrackInstance`. */
  untrackInstance(mesh: InstancedMesh, index: number): boolean {
    return index >= 0 && this.#untrack(mesh, index);
  }

  /** Stops tracking everything (the loop is disposed). */
  detach(): void {
    for (const [object, slots] of [...this.#slots]) {
      for (const index of [...slots.keys()]) this.#untrack(object, index);
    }
  }

  // ---- teleports ------------------------------------------------------------------------

  /**
   * Resets the interpolation of `object` (tracked or not) and of every tracked object and
   * instance below it; with `index`, of that one instance of `object` (an `InstancedMesh`).
   * A pose written to an object since the last frame is adopted as its simulation pose first.
   * Returns how many slots were reset.
   */
  reset(object: Object3D, index?: number): number {
    let n = 1;
    if (index === undefined) {
      n = this.#collect(object, -1);
    } else {
      const slot = this.#slot(object, index, true);
      if (slot === undefined) return 0;
      this.#list[0] = slot;
    }
    this.#resetList(n);
    return n;
  }

  /** Resets every tracked slot (`loop.resetInterpolation()`). */
  resetInterpolation(): void {
    const size = this.#poses.size;
    for (let slot = 0; slot < size; slot++) if (this.#objects[slot]) this.#adopt(slot);
    this.#poses.resetAll();
    for (let slot = 0; slot < size; slot++) if (this.#objects[slot]) this.#put(slot);
  }

  /**
   * The simulation pose of a tracked `object` (or of instance `index` of it), into `target` if
   * given. Outside the fixed step this is what the physics holds, not what is drawn.
   */
  getSimulationPose(object: Object3D, index?: number, target?: SimulationPose): SimulationPose {
    const slot = this.#slot(object, index ?? -1, index !== undefined);
    if (slot === undefined) {
      const instance = index === undefined ? '' : ` with tracked instance ${index}`;
      throw optionError('object3d', object, `a tracked object${instance}`);
    }
    const out = target ?? newPose();
    if (this.#holding || this.#differs(slot)) {
      // inside the step the object holds it; outside, a pose written since the last frame is a
      // pending teleport and so the simulation pose too
      const held = this.#held(slot);
      out.position.copy(held.position);
      out.quaternion.copy(held.quaternion);
      out.scale.copy(held.scale);
    } else {
      fromRow(out, this.#poses.current, slot * POSE_STRIDE);
    }
    return out;
  }

  // ---- LoopAdapter ------------------------------------------------------------------------

  /**
   * Arms the teleport check. Nothing runs between this and the frame's first pass over the
   * objects (restore in a frame with steps, the interpolation pass otherwise), so the check is
   * done there, fused with that pass: each object is visited once instead of twice.
   */
  beginFrame(): void {
    this.#holding = false;
    this.#checkPending = true;
    this.#capturePending = false;
    this.#stepsRun = 0;
  }

  /** Teleport check (if armed) and restore: objects get their simulation pose back. */
  beforeSteps(): void {
    const check = this.#checkPending;
    this.#checkPending = false;
    const poses = this.#poses;
    const size = poses.size;
    const c = poses.current;
    const o = poses.output; // a teleport resets rows but never reallocates
    const objects = this.#objects;
    for (let slot = 0; slot < size; slot++) {
      const object = objects[slot];
      if (object === undefined) continue;
      const r = slot * POSE_STRIDE;
      // a teleport leaves the object at its (new) simulation pose
      if (this.#instance[slot] >= 0) {
        if (check && this.#differs(slot)) this.#teleport(slot);
        else this.#putInstance(slot, c);
      } else if (check && differs(object, o, r)) this.#teleport(slot);
      else write(object, c, r, this.#euler, slot * 3, this.#orders[slot]);
    }
    this.#holding = true;
  }

  /**
   * Capture: the pose the step left becomes the current simulation pose. The frame's last step
   * is captured by the interpolation pass instead (nothing runs in between), fused with it.
   */
  afterStep(): void {
    if (++this.#stepsRun >= this.#loop.lastFrame.steps) {
      this.#capturePending = true;
      return;
    }
    const poses = this.#poses;
    poses.shiftAll();
    const size = poses.size;
    for (let slot = 0; slot < size; slot++) if (this.#objects[slot]) this.#read(slot);
  }

  /**
   * The frame's last pass over the objects: capture of the last step (in a frame with steps) or
   * the teleport check (in a frame without), then the render pose for `alpha`.
   */
  interpolate(): void {
    const check = this.#checkPending;
    const capture = this.#capturePending;
    this.#checkPending = false;
    this.#capturePending = false;
    this.#holding = false;
    const poses = this.#poses;
    if (capture) poses.shiftAll();
    poses.setClock(this.#loop);
    const size = poses.size;
    for (let slot = 0; slot < size; slot++) {
      if (this.#objects[slot] === undefined) continue;
      if (capture) this.#read(slot);
      else if (check && this.#differs(slot)) this.#teleport(slot);
      poses.interpolateSlotAt(slot);
      this.#put(slot);
    }
  }

  // ---- internals ------------------------------------------------------------------------

  /**
   * The slot of `object` (`index` -1) or of instance `index` of it; with `instance`, only of an
   * instance (an index a caller gave: -1 is not one).
   */
  #slot(object: Object3D, index: number, instance = false): number | undefined {
    return instance && !(index >= 0) ? undefined : this.#slots.get(object)?.get(index);
  }

  /** Tracks `object` (`index` -1) or instance `index` of it, or changes its mode. */
  #track(object: Object3D, index: number, options: TrackOptions): void {
    if (options === null || typeof options !== 'object') {
      throw optionError('options', options, 'an object');
    }
    const mode = options.interpolation ?? this.#mode;
    const slots = this.#slots.get(object);
    const slot = slots?.get(index);
    if (slot !== undefined) {
      this.#poses.setMode(slot, mode);
      return;
    }
    const poses = this.#poses;
    const added = poses.add(mode); // throws on a bad mode before anything refers to `object`
    const capacity = poses.capacity;
    if (this.#instance.length < capacity) {
      this.#instance = grow(this.#instance, capacity);
      this.#matrices = grow(this.#matrices, capacity * MATRIX * 2);
      this.#euler = grow(this.#euler, capacity * 3);
    }
    if (slots === undefined) this.#slots.set(object, new Map([[index, added]]));
    else slots.set(index, added);
    this.#objects[added] = object;
    this.#instance[added] = index;
    this.#read(added);
    poses.reset(added);
    this.#put(added);
  }

  /**
   * Stops tracking `object` (`index` -1) or instance `index` of it, leaving it at its simulation
   * pose unless user code moved it.
   */
  #untrack(object: Object3D, index: number): boolean {
    const slots = this.#slots.get(object);
    const slot = slots?.get(index);
    if (slots === undefined || slot === undefined) return false;
    slots.delete(index);
    if (slots.size === 0) this.#slots.delete(object);
    if (!this.#holding && !this.#differs(slot)) {
      this.#poses.reset(slot);
      this.#put(slot);
    }
    this.#objects[slot] = undefined;
    this.#poses.remove(slot);
    return true;
  }

  /** The pose `slot`'s object holds: the object itself, or its instance's decomposed matrix. */
  #held(slot: number): SimulationPose {
    const object = this.#objects[slot] as Object3D;
    const index = this.#instance[slot];
    if (index < 0) return object;
    const { position, quaternion, scale } = this.#pose;
    const array = (object as InstancedMesh).instanceMatrix.array;
    this.#matrix.fromArray(array, index * MATRIX).decompose(position, quaternion, scale);
    return this.#pose;
  }

  /**
   * Reads the pose of `slot`'s object into its current row, with its Euler angles and order; of
   * an instance, its matrix too (in a method of its own, so that this hot path stays small
   * enough for V8 to inline into the passes).
   */
  #read(slot: number): void {
    if (this.#instance[slot] >= 0) {
      this.#readInstance(slot);
      return;
    }
    const object = this.#objects[slot] as Object3D;
    const e = object.rotation;
    const k = slot * 3;
    toRow(object, this.#poses.current, slot * POSE_STRIDE);
    this.#euler[k] = e.x;
    this.#euler[k + 1] = e.y;
    this.#euler[k + 2] = e.z;
    this.#orders[slot] = e.order;
  }

  /** {@link ThreeTracker.#read} of an instance: its matrix, and its pose decomposed from it. */
  #readInstance(slot: number): void {
    const array = (this.#objects[slot] as InstancedMesh).instanceMatrix.array;
    toRow(this.#held(slot), this.#poses.current, slot * POSE_STRIDE);
    copy(this.#matrices, slot * MATRIX * 2, array, this.#instance[slot] * MATRIX, MATRIX);
  }

  /** True if user code wrote a pose to `slot`'s object since this adapter last wrote it. */
  #differs(slot: number): boolean {
    const object = this.#objects[slot] as Object3D;
    const index = this.#instance[slot];
    if (index < 0) return differs(object, this.#poses.output, slot * POSE_STRIDE);
    const array = (object as InstancedMesh).instanceMatrix.array;
    return !same(array, index * MATRIX, this.#matrices, slot * MATRIX * 2 + MATRIX, MATRIX);
  }

  /**
   * Takes the object's pose as its simulation pose when it holds one: always while objects hold
   * simulation poses (inside the step), otherwise only if user code wrote it (a teleport).
   */
  #adopt(slot: number): void {
    if (this.#holding || this.#differs(slot)) this.#read(slot);
  }

  /** Teleport of `slot` detected by `beginFrame`: it and its tracked descendants. */
  #teleport(slot: number): void {
    const n = this.#instance[slot] < 0 ? this.#collect(this.#objects[slot] as Object3D, slot) : 1;
    this.#list[0] = slot;
    this.#resetList(n);
  }

  /** Adopts written poses, resets and writes the render pose of the first `n` listed slots. */
  #resetList(n: number): void {
    const list = this.#list;
    for (let k = 0; k < n; k++) this.#adopt(list[k]);
    for (let k = 0; k < n; k++) this.#poses.reset(list[k]);
    if (this.#holding) return; // the interpolation pass will write them
    for (let k = 0; k < n; k++) this.#put(list[k]);
  }

  /**
   * Writes row `slot` of `rows` (the render poses unless told) to its object. The simulation pose
   * is written as the simulation left it: with its Euler angles, or the exact instance matrix.
   */
  #put(slot: number, rows = this.#poses.output): void {
    if (this.#instance[slot] >= 0) {
      this.#putInstance(slot, rows);
      return;
    }
    const r = slot * POSE_STRIDE;
    const order = this.#exact(rows, r) ? this.#orders[slot] : undefined;
    write(this.#objects[slot] as Object3D, rows, r, this.#euler, slot * 3, order);
  }

  /** True if row `r` of `rows` is the current simulation pose. */
  #exact(rows: Float64Array, r: number): boolean {
    const c = this.#poses.current;
    return rows === c || same(rows, r, c, r, POSE_STRIDE);
  }

  /** {@link ThreeTracker.#put} of an instance (out of line: the plain path is the hot one). */
  #putInstance(slot: number, rows: Float64Array): void {
    const r = slot * POSE_STRIDE;
    const matrices = this.#matrices;
    const at = slot * MATRIX * 2;
    if (this.#exact(rows, r)) {
      copy(matrices, at + MATRIX, matrices, at, MATRIX);
    } else {
      const pose = this.#pose;
      fromRow(pose, rows, r);
      const { elements } = this.#matrix.compose(pose.position, pose.quaternion, pose.scale);
      copy(matrices, at + MATRIX, elements, 0, MATRIX); // rounded to float32 as stored
    }
    const attribute = (this.#objects[slot] as InstancedMesh).instanceMatrix;
    copy(attribute.array, this.#instance[slot] * MATRIX, matrices, at + MATRIX, MATRIX);
    attribute.needsUpdate = true;
  }

  /**
   * Lists in `#list` every tracked slot whose object (or whose instance's mesh) is `root` or lies
   * below it in the scene graph, `first` (if ≥ 0) first; returns the count. A leaf with no
   * tracked instances needs no walk.
   */
  #collect(root: Object3D, first: number): number {
    let n = 0;
    if (first >= 0) {
      this.#list[n++] = first;
      if (root.children.length === 0 && this.#slots.get(root)?.size === 1) return n;
    }
    const size = this.#poses.size;
    for (let slot = 0; slot < size; slot++) {
      let node = this.#objects[slot] ?? null;
      if (slot === first || node === null) continue;
      while (node !== null && node !== root) node = node.parent;
      if (node === null) continue;
      if (n === this.#list.length) this.#list = grow(this.#list, n * 2);
      this.#list[n++] = slot;
    }
    return n;
  }
}
