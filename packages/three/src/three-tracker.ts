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
 * interpolated poses. The two per-frame loops (`beforeSteps`, `interpolate`) run over packed
 * typed arrays, touch each object once per phase, create no closures and allocate nothing: the
 * render pose comes from the core buffer's `interpolateSlotAt`, with the frame's alpha handed
 * over once as the loop object (`setClock`), never as a fractional argument, which V8 boxes.
 */
import type { FixedLoop, LoopAdapter } from '@fixedtick/core';
import { type InterpolationMode, POSE_STRIDE, PoseBuffer } from '@fixedtick/core/interpolation';
import { type InstancedMesh, Matrix4, type Object3D, Quaternion, Vector3 } from 'three';
import { describe, optionError } from './option-error.ts';
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

/** Reads `object`'s local pose into row `slot` of `poses`, and its Euler angles and order. */
function read(
  object: Object3D,
  poses: Float64Array,
  slot: number,
  euler: Float64Array,
  orders: string[],
): void {
  const e = object.rotation;
  const k = slot * 3;
  toRow(object, poses, slot * POSE_STRIDE);
  euler[k] = e.x;
  euler[k + 1] = e.y;
  euler[k + 2] = e.z;
  orders[slot] = e.order;
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
  euler?: Float64Array,
  k = 0,
  order?: string,
): void {
  const q = object.quaternion;
  const e = object.rotation;
  object.position.fromArray(poses, r);
  if (e.order === order) {
    restoreRotation(q, e, poses, r + 3, euler as Float64Array, k);
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
  /** By slot × 16: the instance matrix captured after the last step (restored exactly). */
  #sim = new Float32Array(this.#poses.capacity * MATRIX);
  /** By slot × 16: the instance matrix this adapter last wrote (teleport check). */
  #last = new Float32Array(this.#poses.capacity * MATRIX);
  /** By slot × 3: `rotation` (Euler) captured with the current pose, restored with it. */
  #euler = new Float64Array(this.#poses.capacity * 3);
  /** By slot: the Euler order `#euler` was captured in. */
  #orders: string[] = [];
  readonly #slots = new Map<Object3D, number>();
  readonly #instanceSlots = new Map<InstancedMesh, Map<number, number>>();
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
  readonly #pose: SimulationPose = {
    position: new Vector3(),
    quaternion: new Quaternion(),
    scale: new Vector3(),
  };

  /** Mode used by `track` when none is given. */
  defaultInterpolation: InterpolationMode;

  /** @param loop the loop whose `fixedDelta` and `alpha` the tracker reads. */
  constructor(loop: FixedLoop, defaultInterpolation: InterpolationMode = 'interpolate') {
    this.#loop = loop;
    this.defaultInterpolation = defaultInterpolation;
  }

  /** Number of tracked objects and instances. */
  get size(): number {
    return this.#poses.count;
  }

  /** True if `object` is tracked (as an object, not by instance). */
  isTracked(object: Object3D): boolean {
    return this.#slots.has(object);
  }

  // ---- tracking ---------------------------------------------------------------------------

  /** See `ThreeFixedLoop.track`. */
  track(object: Object3D, options: TrackOptions = {}): void {
    if (object?.isObject3D !== true) throw optionError('object3d', object, 'a three.js Object3D');
    const mode = this.#mode(options);
    let slot = this.#slots.get(object);
    if (slot === undefined) {
      slot = this.#add(mode, object, -1);
      this.#slots.set(object, slot);
    } else {
      this.#poses.setMode(slot, mode);
    }
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
    const mode = this.#mode(options);
    let byIndex = this.#instanceSlots.get(mesh);
    if (byIndex === undefined) {
      byIndex = new Map();
      this.#instanceSlots.set(mesh, byIndex);
    }
    const slot = byIndex.get(index);
    if (slot === undefined) byIndex.set(index, this.#add(mode, mesh, index));
    else this.#poses.setMode(slot, mode);
  }

  /**
   * See `ThreeFixedLoop.untrack`. The object is left at its simulation pose (or at a pose user
   * code wrote to it since the last frame).
   */
  untrack(object: Object3D): boolean {
    const slot = this.#slots.get(object);
    if (slot === undefined) return false;
    this.#slots.delete(object);
    this.#remove(slot);
    return true;
  }

  /** See `ThreeFixedLoop.untrackInstance`. */
  untrackInstance(mesh: InstancedMesh, index: number): boolean {
    const byIndex = this.#instanceSlots.get(mesh);
    const slot = byIndex?.get(index);
    if (byIndex === undefined || slot === undefined) return false;
    byIndex.delete(index);
    if (byIndex.size === 0) this.#instanceSlots.delete(mesh);
    this.#remove(slot);
    return true;
  }

  /** Stops tracking everything (the loop is disposed). */
  detach(): void {
    for (const object of [...this.#slots.keys()]) this.untrack(object);
    for (const [mesh, byIndex] of [...this.#instanceSlots]) {
      for (const index of [...byIndex.keys()]) this.untrackInstance(mesh, index);
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
      const slot = this.#instanceSlots.get(object as InstancedMesh)?.get(index);
      if (slot === undefined) return 0;
      this.#list[0] = slot;
    }
    this.#resetList(n);
    return n;
  }

  /** Resets every tracked slot (`loop.resetInterpolation()`). */
  resetInterpolation(): void {
    const size = this.#poses.size;
    const objects = this.#objects;
    for (let slot = 0; slot < size; slot++) if (objects[slot]) this.#adopt(slot);
    this.#poses.resetAll();
    for (let slot = 0; slot < size; slot++) if (objects[slot]) this.#writeOutput(slot);
  }

  /**
   * The simulation pose of a tracked `object` (or of instance `index` of it), into `target` if
   * given. Outside the fixed step this is what the physics holds, not what is drawn.
   */
  getSimulationPose(object: Object3D, index?: number, target?: SimulationPose): SimulationPose {
    const slot =
      index === undefined
        ? this.#slots.get(object)
        : this.#instanceSlots.get(object as InstancedMesh)?.get(index);
    if (slot === undefined) {
      const instance = index === undefined ? '' : ` with tracked instance ${index}`;
      throw optionError('object3d', object, `a tracked object${instance}`);
    }
    const out = target ?? {
      position: new Vector3(),
      quaternion: new Quaternion(),
      scale: new Vector3(),
    };
    if (!this.#holding && !this.#differs(slot)) {
      fromRow(out, this.#poses.current, slot * POSE_STRIDE);
    } else if (index === undefined) {
      // inside the step the object holds it; outside, a pose written since the last frame is a
      // pending teleport and so the simulation pose too
      out.position.copy(object.position);
      out.quaternion.copy(object.quaternion);
      out.scale.copy(object.scale);
    } else {
      const array = (object as InstancedMesh).instanceMatrix.array;
      this.#matrix
        .fromArray(array, index * MATRIX)
        .decompose(out.position, out.quaternion, out.scale);
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
    const objects = this.#objects;
    const instance = this.#instance;
    const o = poses.output; // a teleport resets rows but never reallocates
    const c = poses.current;
    const euler = this.#euler;
    const orders = this.#orders;
    for (let slot = 0; slot < size; slot++) {
      const object = objects[slot];
      if (object === undefined) continue;
      if (instance[slot] >= 0) {
        if (check && this.#instanceDiffers(slot)) this.#teleport(slot);
        else this.#writeMatrix(slot, this.#sim);
        continue;
      }
      const p = object.position;
      const q = object.quaternion;
      const s = object.scale;
      const px = p.x;
      const py = p.y;
      const pz = p.z;
      const qx = q.x;
      const qy = q.y;
      const qz = q.z;
      const qw = q.w;
      const sx = s.x;
      const sy = s.y;
      const sz = s.z;
      const r = slot * POSE_STRIDE;
      if (
        check &&
        (px !== o[r] ||
          py !== o[r + 1] ||
          pz !== o[r + 2] ||
          qx !== o[r + 3] ||
          qy !== o[r + 4] ||
          qz !== o[r + 5] ||
          qw !== o[r + 6] ||
          sx !== o[r + 7] ||
          sy !== o[r + 8] ||
          sz !== o[r + 9])
      ) {
        this.#teleport(slot); // leaves the object at its (new) simulation pose
        continue;
      }
      if (px !== c[r]) p.x = c[r];
      if (py !== c[r + 1]) p.y = c[r + 1];
      if (pz !== c[r + 2]) p.z = c[r + 2];
      // the quaternion with the very Euler angles the step left (no trig, no callback)
      const e = object.rotation;
      if (e.order === orders[slot]) restoreRotation(q, e, c, r + 3, euler, slot * 3);
      else setRotation(q, e, c, r + 3);
      if (sx !== c[r + 7]) s.x = c[r + 7];
      if (sy !== c[r + 8]) s.y = c[r + 8];
      if (sz !== c[r + 9]) s.z = c[r + 9];
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
    const size = poses.size;
    const objects = this.#objects;
    const instance = this.#instance;
    const o = poses.output;
    const c = poses.current;
    const euler = this.#euler;
    const orders = this.#orders;
    poses.setClock(this.#loop);
    for (let slot = 0; slot < size; slot++) {
      const object = objects[slot];
      if (object === undefined) continue;
      if (instance[slot] >= 0) {
        if (capture) this.#readInstance(slot);
        else if (check && this.#instanceDiffers(slot)) this.#teleport(slot);
        poses.interpolateSlotAt(slot);
        this.#writeOutput(slot);
        continue;
      }
      const p = object.position;
      const q = object.quaternion;
      const s = object.scale;
      const px = p.x;
      const py = p.y;
      const pz = p.z;
      const qx = q.x;
      const qy = q.y;
      const qz = q.z;
      const qw = q.w;
      const sx = s.x;
      const sy = s.y;
      const sz = s.z;
      const r = slot * POSE_STRIDE;
      if (capture) {
        c[r] = px;
        c[r + 1] = py;
        c[r + 2] = pz;
        c[r + 3] = qx;
        c[r + 4] = qy;
        c[r + 5] = qz;
        c[r + 6] = qw;
        c[r + 7] = sx;
        c[r + 8] = sy;
        c[r + 9] = sz;
        const e = object.rotation;
        const k = slot * 3;
        euler[k] = e.x;
        euler[k + 1] = e.y;
        euler[k + 2] = e.z;
        orders[slot] = e.order;
      } else if (
        check &&
        (px !== o[r] ||
          py !== o[r + 1] ||
          pz !== o[r + 2] ||
          qx !== o[r + 3] ||
          qy !== o[r + 4] ||
          qz !== o[r + 5] ||
          qw !== o[r + 6] ||
          sx !== o[r + 7] ||
          sy !== o[r + 8] ||
          sz !== o[r + 9])
      ) {
        this.#teleport(slot);
      }
      poses.interpolateSlotAt(slot);
      if (px !== o[r]) p.x = o[r];
      if (py !== o[r + 1]) p.y = o[r + 1];
      if (pz !== o[r + 2]) p.z = o[r + 2];
      if (qx !== o[r + 3] || qy !== o[r + 4] || qz !== o[r + 5] || qw !== o[r + 6]) {
        setRotation(q, object.rotation, o, r + 3);
      }
      if (sx !== o[r + 7]) s.x = o[r + 7];
      if (sy !== o[r + 8]) s.y = o[r + 8];
      if (sz !== o[r + 9]) s.z = o[r + 9];
    }
  }

  // ---- internals ------------------------------------------------------------------------

  #mode(options: TrackOptions): InterpolationMode {
    if (options === null || typeof options !== 'object') {
      throw new RangeError(`fixedtick: track options must be an object, got ${describe(options)}`);
    }
    return options.interpolation ?? this.defaultInterpolation;
  }

  /** A new slot for `object` (instance `index` of it, or -1), starting at its pose now. */
  #add(mode: InterpolationMode, object: Object3D, index: number): number {
    const poses = this.#poses;
    const slot = poses.add(mode);
    const capacity = poses.capacity;
    if (this.#instance.length < capacity) {
      this.#instance = grow(this.#instance, capacity);
      this.#sim = grow(this.#sim, capacity * MATRIX);
      this.#last = grow(this.#last, capacity * MATRIX);
      this.#euler = grow(this.#euler, capacity * 3);
    }
    this.#objects[slot] = object;
    this.#instance[slot] = index;
    this.#read(slot);
    copy(this.#last, slot * MATRIX, this.#sim, slot * MATRIX, MATRIX);
    poses.reset(slot);
    return slot;
  }

  /** Stops tracking `slot`, leaving its object at its simulation pose unless user code moved it. */
  #remove(slot: number): void {
    if (!this.#holding && !this.#differs(slot)) {
      this.#poses.reset(slot);
      this.#writeOutput(slot);
    }
    this.#objects[slot] = undefined;
    this.#poses.remove(slot);
  }

  /** Reads the pose of `slot`'s object into its current row. */
  #read(slot: number): void {
    if (this.#instance[slot] >= 0) this.#readInstance(slot);
    else
      read(this.#objects[slot] as Object3D, this.#poses.current, slot, this.#euler, this.#orders);
  }

  /** Reads a tracked instance: its matrix into `#sim`, its pose into the current row. */
  #readInstance(slot: number): void {
    const array = (this.#objects[slot] as InstancedMesh).instanceMatrix.array;
    const from = this.#instance[slot] * MATRIX;
    const { position, quaternion, scale } = this.#pose;
    copy(this.#sim, slot * MATRIX, array, from, MATRIX);
    this.#matrix.fromArray(array, from).decompose(position, quaternion, scale);
    toRow(this.#pose, this.#poses.current, slot * POSE_STRIDE);
  }

  /** True if the instance's matrix is not the one this adapter last wrote. */
  #instanceDiffers(slot: number): boolean {
    const array = (this.#objects[slot] as InstancedMesh).instanceMatrix.array;
    return !same(array, this.#instance[slot] * MATRIX, this.#last, slot * MATRIX, MATRIX);
  }

  /** Copies 16 floats of `matrices` at `slot` into the instance and flags the upload. */
  #writeMatrix(slot: number, matrices: Float32Array): void {
    const attribute = (this.#objects[slot] as InstancedMesh).instanceMatrix;
    copy(attribute.array, this.#instance[slot] * MATRIX, matrices, slot * MATRIX, MATRIX);
    attribute.needsUpdate = true;
  }

  /** True if user code wrote a pose to `slot`'s object since this adapter last wrote it. */
  #differs(slot: number): boolean {
    if (this.#instance[slot] >= 0) return this.#instanceDiffers(slot);
    return differs(this.#objects[slot] as Object3D, this.#poses.output, slot * POSE_STRIDE);
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
    for (let k = 0; k < n; k++) this.#writeOutput(list[k]);
  }

  /** Writes the output row of `slot` to its object. */
  #writeOutput(slot: number): void {
    const o = this.#poses.output;
    const r = slot * POSE_STRIDE;
    // the simulation pose: written as the simulation left it (Euler angles, exact matrix)
    const current = same(o, r, this.#poses.current, r, POSE_STRIDE);
    if (this.#instance[slot] < 0) {
      const order = current ? this.#orders[slot] : undefined;
      write(this.#objects[slot] as Object3D, o, r, this.#euler, slot * 3, order);
      return;
    }
    const at = slot * MATRIX;
    if (current) {
      copy(this.#last, at, this.#sim, at, MATRIX);
    } else {
      const { position, quaternion, scale } = this.#pose;
      fromRow(this.#pose, o, r);
      const e = this.#matrix.compose(position, quaternion, scale).elements;
      copy(this.#last, at, e, 0, MATRIX); // rounded to float32 as stored
    }
    this.#writeMatrix(slot, this.#last);
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
      if (root.children.length === 0 && !this.#instanceSlots.has(root as InstancedMesh)) return n;
    }
    const size = this.#poses.size;
    const objects = this.#objects;
    for (let slot = 0; slot < size; slot++) {
      let node = objects[slot] ?? null;
      if (slot === first || node === null) continue;
      while (node !== null && node !== root) node = node.parent;
      if (node === null) continue;
      if (n === this.#list.length) this.#list = grow(this.#list, n * 2);
      this.#list[n++] = slot;
    }
    return n;
  }
}
