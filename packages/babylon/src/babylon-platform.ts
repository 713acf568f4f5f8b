/**
 * Babylon.js as a core tracking platform: how the core `Tracker` reads and writes a node's local
 * pose (`position`, `rotationQuaternion`, `scaling`), a thin-instanced mesh's matrix buffer, and
 * how a write it adopts reaches Havok. All the tracking logic is the core's.
 *
 * Spaces: a node driven by a physics body under a parent is simulated by Havok in world space.
 * The tracker interpolates it there and this platform converts, the way Havok's own sync does it
 * (`toLocal`: the world pose with unit scale, times the inverse of the parent's world matrix,
 * decomposed; the node keeps its own scale, which Havok does not simulate). Matrix work is
 * Babylon's own `Matrix`.
 */
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import {
  ALL_COMPONENTS,
  type ComponentMask,
  POSITION,
  REPARENTED,
  ROTATION,
  rowFromVectors,
  SCALE,
  type Tracker,
  type TrackingPlatform,
  vectorsDiffer,
} from '@fixedtick/core/tracking';
import type { BodyLike, NodeLike, QuatLike, Vec3Like } from './babylon-shapes.ts';
import { HavokPoses } from './havok-poses.ts';
import type { HavokStepper } from './havok-stepper.ts';
import { pushThinInstances } from './thin-instances.ts';

/** The node's rotation quaternion, made from its Euler angles if it has none (Havok needs one). */
function quaternionOf(node: NodeLike): QuatLike {
  let q = node.rotationQuaternion;
  if (q === null) {
    q = node.rotation.toQuaternion();
    node.rotationQuaternion = q;
  }
  return q;
}

/** A physics body under a parent, which Havok simulates in world space. */
function inWorld(node: NodeLike): boolean {
  const body = node.physicsBody;
  return !!body && body.numInstances < 1 && !!node.parent;
}

/** The Babylon.js {@link TrackingPlatform}; one per loop. */
export class BabylonPlatform implements TrackingPlatform<NodeLike> {
  /** Set by the loop once the tracker exists (thin-instance pushes read its simulation rows). */
  tracker: Tracker<NodeLike> | undefined;
  readonly #stepper: HavokStepper;
  /** Havok's body transforms, read in bulk after each step. */
  readonly #poses: HavokPoses;
  readonly #m = [new Matrix(), new Matrix(), new Matrix()];
  readonly #v = new Vector3();
  readonly #s = new Vector3();
  readonly #q = new Quaternion();
  /** The pose a node held before `adopted` moved it to its simulation pose for Havok. */
  readonly #saved = new Float64Array(10);
  /** A world-space simulation pose in the node's local terms, for `adopted`. */
  readonly #localPose = new Float64Array(10);
  /** By slot: the node's `position`, `rotationQuaternion` and `scaling` objects when last read. */
  readonly #pos: Vec3Like[] = [];
  readonly #rot: QuatLike[] = [];
  readonly #scl: Vec3Like[] = [];
  /** By slot: the node's parent when last read or compared. */
  readonly #parents: (NodeLike | null)[] = [];

  /** @param stepper the Havok stepper (teleports go through its physics engine). */
  constructor(stepper: HavokStepper) {
    this.#stepper = stepper;
    this.#poses = new HavokPoses(() => stepper.physicsEngine());
  }

  /** Reads the node's pose through its current vector objects (and keeps them for the writes). */
  read(node: NodeLike, slot: number, rows: Float64Array, at: number): void {
    const p = node.position;
    const q = quaternionOf(node);
    const s = node.scaling;
    if (slot >= 0) this.#bind(node, slot, p, q, s);
    rowFromVectors(rows, at, p, q, s);
  }

  /**
   * After a step, a body at rest whose Havok transform is bit for bit the one of the step before
   * (asleep): its node got its pose back unchanged from Babylon's sync. Told from Havok's body
   * buffer without touching the node (docs/performance.md, "Babylon.js").
   */
  untouchedByStep(node: NodeLike, slot: number): boolean {
    return this.#poses.unmoved(node, slot, this.#stepper.stepCount);
  }

  /**
   * After a step, a body Babylon's sync wrote (no parent, sync on: `HavokPoses.synced`) is read
   * through the vector objects kept for its slot, position and rotation only: Babylon's sync
   * writes into those objects and never the scale (docs/performance.md, "Babylon.js").
   */
  readStepped(node: NodeLike, slot: number, rows: Float64Array, at: number): void {
    if (!this.#poses.synced(node, slot, this.#stepper.stepCount)) {
      this.read(node, slot, rows, at);
      return;
    }
    const p = this.#pos[slot];
    rows[at] = p.x;
    rows[at + 1] = p.y;
    rows[at + 2] = p.z;
    const q = this.#rot[slot];
    rows[at + 3] = q.x;
    rows[at + 4] = q.y;
    rows[at + 5] = q.z;
    rows[at + 6] = q.w;
  }

  /**
   * Compares through the vector objects kept for the slot: Babylon nodes are large and scattered,
   * so not touching the node saves a cache miss per body per frame. The `thorough` check (before
   * the steps) also looks for a vector object replaced on the node (`mesh.position = new
   * Vector3(…)`), which counts as a write of that component.
   */
  compare(
    node: NodeLike,
    slot: number,
    rows: Float64Array,
    at: number,
    thorough: boolean,
  ): ComponentMask {
    const parent = node.parent as NodeLike | null;
    if (parent !== this.#parents[slot]) {
      // reparented (`setParent`, `parent = …`): the tracker keeps a body where Havok has it
      this.#parents[slot] = parent;
      return REPARENTED | ALL_COMPONENTS;
    }
    if (thorough) {
      let mask = 0;
      if (node.position !== this.#pos[slot]) mask = POSITION;
      if (node.rotationQuaternion !== this.#rot[slot]) mask |= ROTATION;
      if (node.scaling !== this.#scl[slot]) mask |= SCALE;
      if (mask !== 0) return mask;
    }
    return vectorsDiffer(rows, at, this.#pos[slot], this.#rot[slot], this.#scl[slot]);
  }

  writePosition(node: NodeLike, slot: number, rows: Float64Array, at: number): void {
    (slot >= 0 ? this.#pos[slot] : node.position).set(rows[at], rows[at + 1], rows[at + 2]);
  }

  writeRotation(node: NodeLike, slot: number, rows: Float64Array, at: number): void {
    (slot >= 0 ? this.#rot[slot] : quaternionOf(node)).set(
      rows[at + 3],
      rows[at + 4],
      rows[at + 5],
      rows[at + 6],
    );
  }

  writeScale(node: NodeLike, slot: number, rows: Float64Array, at: number): void {
    (slot >= 0 ? this.#scl[slot] : node.scaling).set(rows[at + 7], rows[at + 8], rows[at + 9]);
  }

  parentOf(node: NodeLike): NodeLike | null {
    return (node.parent as NodeLike | null) ?? null;
  }

  isAlive(node: NodeLike): boolean {
    return !node.isDisposed();
  }

  /**
   * A physics body under a parent: Havok simulates it in world space. Asked when the tracker
   * re-sorts its nodes, which also has every body's place in Havok's buffer looked up again.
   */
  simulatedInWorld(node: NodeLike): boolean {
    this.#poses.forget();
    return inWorld(node);
  }

  toSimulation(
    node: NodeLike,
    from: Float64Array,
    at: number,
    to: Float64Array,
    toAt: number,
  ): void {
    const [local, world] = this.#m;
    this.#compose(from, at, local);
    const parent = node.parent as NodeLike | null;
    local.multiplyToRef(parent?.computeWorldMatrix(true) ?? Matrix.IdentityReadOnly, world);
    this.#decomposed(world, to, toAt, from, at);
  }

  toLocal(node: NodeLike, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    const [world, inverse, local] = this.#m;
    this.#compose(from, at, world);
    const parent = node.parent as NodeLike | null;
    if (parent === null) inverse.copyFrom(Matrix.IdentityReadOnly);
    else parent.computeWorldMatrix(true).invertToRef(inverse);
    world.multiplyToRef(inverse, local);
    this.#decomposed(local, to, toAt, from, at);
  }

  /** Havok's velocity of the node's body (instance `index` of a thin-instanced one). */
  velocity(node: NodeLike, index: number, out: Float64Array, at: number): boolean {
    const body = node.physicsBody;
    if (!body) return false;
    const v = this.#v;
    const w = this.#s;
    const instance = index >= 0 ? index : undefined;
    body.getLinearVelocityToRef(v, instance);
    body.getAngularVelocityToRef(w, instance);
    out[at] = v.x;
    out[at + 1] = v.y;
    out[at + 2] = v.z;
    out[at + 3] = w.x;
    out[at + 4] = w.y;
    out[at + 5] = w.z;
    return true;
  }

  /** A write adopted as a simulation pose moves the node's Havok body there too. */
  adopted(
    node: NodeLike,
    _slot: number,
    rows: Float64Array,
    at: number,
    mask: ComponentMask,
    index: number,
  ): void {
    const body = node.physicsBody;
    // Havok does not simulate scale: a scale write stays the node's own
    if (!body || body.isDisposed === true || (mask & (POSITION | ROTATION)) === 0) return;
    if (index >= 0) {
      if (this.tracker !== undefined) pushThinInstances(this.#stepper, this.tracker, node, body);
      return;
    }
    // Havok reads the body's pose from the node: put the simulation pose there for the push
    const saved = this.#saved;
    this.read(node, -1, saved, 0);
    let local = rows;
    let from = at;
    if (inWorld(node)) {
      local = this.#localPose;
      from = 0;
      this.toLocal(node, rows, at, local, 0);
    }
    this.writePosition(node, -1, local, from);
    this.writeRotation(node, -1, local, from);
    this.#stepper.pushBody(body, node);
    this.writePosition(node, -1, saved, 0);
    this.writeRotation(node, -1, saved, 0);
  }

  instanceMatrices(mesh: NodeLike): Float32Array | null {
    return mesh._thinInstanceDataStorage?.matrixData ?? null;
  }

  /** Babylon's own `Matrix.decompose`. */
  decompose(matrices: Float32Array, offset: number, rows: Float64Array, at: number): void {
    const m = this.#m[0];
    Matrix.FromArrayToRef(matrices, offset, m);
    m.decompose(this.#s, this.#q, this.#v);
    rowFromVectors(rows, at, this.#v, this.#q, this.#s);
  }

  instancesUpdated(mesh: NodeLike): void {
    mesh.thinInstanceBufferUpdated?.('matrix');
  }

  /** Teleports a node's Havok body to the node's pose (also of an untracked node). */
  pushBody(body: BodyLike, node: NodeLike): void {
    quaternionOf(node);
    this.#stepper.pushBody(body, node);
  }

  /** Position and rotation of `from[at..]` with unit scale, composed into `m`. */
  #compose(from: Float64Array, at: number, m: Matrix): void {
    Matrix.ComposeToRef(
      this.#s.set(1, 1, 1),
      this.#q.set(from[at + 3], from[at + 4], from[at + 5], from[at + 6]),
      this.#v.set(from[at], from[at + 1], from[at + 2]),
      m,
    );
  }

  /** `m` decomposed to `to[toAt..]`: its position and normalised rotation; the scale of `from`. */
  #decomposed(m: Matrix, to: Float64Array, toAt: number, from: Float64Array, at: number): void {
    m.decompose(this.#s, this.#q, this.#v);
    // the node's own scale, not the decomposed one: Havok does not simulate scale
    this.#s.set(from[at + 7], from[at + 8], from[at + 9]);
    rowFromVectors(to, toAt, this.#v, this.#q.normalize(), this.#s);
  }

  #bind(node: NodeLike, slot: number, p: Vec3Like, q: QuatLike, s: Vec3Like): void {
    // stored only when replaced: a store of an object into an array costs a write barrier
    if (this.#pos[slot] !== p) this.#pos[slot] = p;
    if (this.#rot[slot] !== q) this.#rot[slot] = q;
    if (this.#scl[slot] !== s) this.#scl[slot] = s;
    const parent = (node.parent as NodeLike | null) ?? null;
    if (this.#parents[slot] !== parent) this.#parents[slot] = parent;
  }
}
