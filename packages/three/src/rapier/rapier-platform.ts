/**
 * Rapier as a core tracking platform, on top of the three.js one: meshes are written as three.js
 * objects (`ThreePlatform`), while the simulation pose lives in Rapier's bodies.
 *
 * - `capture`: after each step, the body's world pose is read into the tracker's rows with
 *   Rapier's `translation(target)` / `rotation(target)` (no object allocated by the reads); a
 *   sleeping body is not read at all (`isSleeping()`, one call) and the tracker skips it.
 *   Rapier simulates no scale: the row keeps the mesh's current simulation scale.
 * - `velocity`: Rapier's `linvel` / `angvel`, for `'extrapolate'`.
 * - `adopted`: a pose written to a mesh outside the step, or a teleport, moves the body —
 *   position and rotation each on its own — and wakes it.
 * - `restoresNodes: false`: meshes are pictures of their bodies; nothing reads them inside the
 *   step, so they keep their drawn pose there (no second write per mesh per frame that steps).
 * - world space: a mesh under a transformed parent is interpolated in world space, where Rapier
 *   simulates, and written in its parent's space (`ParentFrames`).
 */
import { POSE_STRIDE, type PoseBuffer } from '@fixedtick/core/interpolation';
import {
  ALL_COMPONENTS,
  type ComponentMask,
  copyComponents,
  POSITION,
  ROTATION,
} from '@fixedtick/core/tracking';
import { ThreePlatform } from '@fixedtick/three';
import type { Object3D } from 'three';
import { isUntransformedRoot, ParentFrames } from './parent-frame.ts';
import type { RapierRigidBody, RapierRotation, RapierVector, RapierWorld } from './rapier-types.ts';

/**
 * A target for Rapier's getters (`translation(target)`, …). A class of its own, its fields
 * first set to non-integer numbers, so V8 stores them as doubles in place: an object literal
 * `{ x: 0, y: 0, z: 0 }` shares its hidden class with every such literal in the program, and
 * once any of them held a non-number there, each number written to it is a fresh heap box
 * (measured: 80 B per pose read; these: none).
 */
export class VectorTarget implements RapierVector {
  x = 0.5;
  y = 0.5;
  z = 0.5;
}

/** A rotation target for Rapier's getters; see {@link VectorTarget}. */
export class RotationTarget implements RapierRotation {
  x = 0.5;
  y = 0.5;
  z = 0.5;
  w = 0.5;
}

/** `v`'s `x y z` into `rows[at..at+2]`. */
function putVector(rows: Float64Array, at: number, v: RapierVector): void {
  rows[at] = v.x;
  rows[at + 1] = v.y;
  rows[at + 2] = v.z;
}

/** `rows[at..at+2]` into `v`, returned. */
function takeVector<V extends RapierVector>(v: V, rows: Float64Array, at: number): V {
  v.x = rows[at];
  v.y = rows[at + 1];
  v.z = rows[at + 2];
  return v;
}

/** `rows[at..at+3]` (`x y z w`) into `q`, returned. */
function takeRotation<Q extends RapierRotation>(q: Q, rows: Float64Array, at: number): Q {
  takeVector(q, rows, at).w = rows[at + 3];
  return q;
}

/** The Rapier {@link TrackingPlatform}: one per `RapierPhysics` (it keeps per-slot bodies). */
export class RapierPlatform extends ThreePlatform {
  /** By slot: the body that drives the slot's mesh. */
  readonly #bodies: (RapierRigidBody | undefined)[] = [];
  /**
   * By slot: the handle of the slot's body, kept here so that the look-up for removed bodies
   * reads one array instead of every body object (a cache miss each at 50 000 bodies). A handle
   * is a double, Rapier's index and generation in a float64's bits (index 5, generation 0:
   * 2.5e-323). Kept in a plain array: with real Rapier the look-up allocates nothing (measured
   * at 1 000 bodies, 1.8 look-ups a frame; a boxed handle per call would be 29 kB a frame).
   */
  readonly #handles: number[] = [];
  /** Bound mesh → its slot (`velocity` is given the node, not its slot). */
  readonly #slots = new Map<Object3D, number>();
  /** By slot: 1 if Rapier reported the body asleep at its last capture. */
  #asleep = new Uint8Array(64);
  /** Converts poses of meshes under transformed parents. */
  readonly frames = new ParentFrames();
  readonly #vector = new VectorTarget();
  readonly #rotation = new RotationTarget();
  /** The tracker's pose buffer (its rows' scale is the mesh's simulation scale). */
  poses: PoseBuffer | undefined;
  /** Bodies found asleep by the captures since `sleeping` was last set to 0. */
  sleeping = 0;
  /** Rapier holds the simulation: meshes are not given it back before the steps. */
  readonly restoresNodes = false;

  /** `body` drives `object`, the mesh in `slot`. */
  bind(object: Object3D, slot: number, body: RapierRigidBody): void {
    this.#hold(slot, body);
    this.#slots.set(object, slot);
    this.#asleep[slot] = 0;
  }

  /**
   * The slots whose bodies are no longer in `world` (removed while bound, or replaced at their
   * index by a new body) into `found`, and their count. Looked up in Rapier's JavaScript body set
   * by handle: nothing is asked of the bodies themselves, whose every method would trap Rapier's
   * WASM once they are gone.
   */
  staleSlots(world: RapierWorld, found: number[]): number {
    const bodies = this.#bodies;
    const handles = this.#handles;
    let count = 0;
    for (let slot = 0; slot < bodies.length; slot++) {
      const body = bodies[slot];
      if (body !== undefined && world.getRigidBody(handles[slot]) !== body) found[count++] = slot;
    }
    return count;
  }

  /**
   * `body` drives the instance in `slot`: a pose written to the instance outside the step, or a
   * teleport, moves the body (`adopted`). Its pose reaches the slot through the tracker's
   * `setInstancePose` (see `InstanceBodies`), not through `capture`.
   */
  bindInstance(slot: number, body: RapierRigidBody): void {
    this.#hold(slot, body);
  }

  /** The instance in `slot` is no longer driven by a body. */
  unbindInstance(slot: number): void {
    this.#bodies[slot] = undefined;
  }

  /** The body bound in `slot`, if any. */
  bodyIn(slot: number): RapierRigidBody | undefined {
    return this.#bodies[slot];
  }

  /** Forgets every body and parent (the adapter is disposed). */
  clear(): void {
    this.#bodies.length = 0;
    this.#handles.length = 0;
    this.#slots.clear();
    this.frames.clear();
  }

  /** `object`'s slot is free again. */
  unbind(object: Object3D, slot: number): void {
    this.#bodies[slot] = undefined;
    this.#slots.delete(object);
  }

  /**
   * Writes `body`'s pose into `object`, in the space `object` stores (its parent's), so that a
   * newly bound mesh starts where its body is; its scale stays.
   */
  place(object: Object3D, body: RapierRigidBody, rows: Float64Array): void {
    this.#readBody(body, rows, 0);
    putVector(rows, 7, object.scale);
    const parent = object.parent;
    if (parent !== null && !isUntransformedRoot(parent)) {
      this.frames.invalidate();
      this.frames.toLocal(parent, rows, 0, rows, 0);
    }
    this.writePosition(object, -1, rows, 0);
    this.writeRotation(object, -1, rows, 0, false);
  }

  /** Rapier holds the simulation pose: the body's, unless it sleeps (then nothing is read). */
  capture(_object: Object3D, slot: number, rows: Float64Array, at: number): boolean {
    const body = this.#bodies[slot] as RapierRigidBody;
    if (body.isSleeping()) {
      this.#asleep[slot] = 1;
      this.sleeping++;
      return false;
    }
    this.#asleep[slot] = 0;
    this.#readBody(body, rows, at);
    // the mesh's own scale, copied here rather than through core's copyComponents (out of line
    // in this path, it boxed a number per capture: 16 B, measured)
    const current = (this.poses as PoseBuffer).current;
    const r = slot * POSE_STRIDE;
    rows[at + 7] = current[r + 7];
    rows[at + 8] = current[r + 8];
    rows[at + 9] = current[r + 9];
    return true;
  }

  /** Rapier's linear and angular velocity (zero, unread, for a body found asleep). */
  velocity(object: Object3D, _index: number, out: Float64Array, at: number): boolean {
    const slot = this.#slots.get(object);
    if (slot === undefined) return false;
    if (this.#asleep[slot] === 1) {
      out.fill(0, at, at + 6);
      return true;
    }
    const body = this.#bodies[slot] as RapierRigidBody;
    putVector(out, at, body.linvel(this.#vector));
    putVector(out, at + 3, body.angvel(this.#vector));
    return true;
  }

  /** A write to the mesh (or a teleport) moves and wakes the body: each component on its own. */
  adopted(
    _object: Object3D,
    slot: number,
    rows: Float64Array,
    at: number,
    mask: ComponentMask,
  ): void {
    const body = this.#bodies[slot];
    if (body === undefined) return;
    if (mask & POSITION) body.setTranslation(takeVector(this.#vector, rows, at), true);
    if (mask & ROTATION) body.setRotation(takeRotation(this.#rotation, rows, at + 3), true);
    if (mask & (POSITION | ROTATION)) this.#asleep[slot] = 0;
  }

  /**
   * Rapier turns the body, not the mesh's Euler angles: a rotation written to a mesh always gets
   * the angles three derives for it (three's platform keeps the angles a step left in the mesh).
   */
  override writeRotation(
    object: Object3D,
    slot: number,
    rows: Float64Array,
    at: number,
    _simulation: boolean,
  ): void {
    super.writeRotation(object, slot, rows, at, false);
  }

  /** Rapier simulates in world space: a mesh under a transformed parent is converted. */
  simulatedInWorld(object: Object3D): boolean {
    return object.parent !== null && !isUntransformedRoot(object.parent);
  }

  /** A stored (local) pose of `object` in world space (unchanged once it has no parent). */
  toSimulation(
    object: Object3D,
    from: Float64Array,
    at: number,
    to: Float64Array,
    toAt: number,
  ): void {
    const parent = object.parent;
    if (parent === null) copyComponents(to, toAt, from, at, ALL_COMPONENTS);
    else this.frames.toWorld(parent, from, at, to, toAt);
  }

  /** A world pose of `object` in its parent's space (unchanged once it has no parent). */
  toLocal(object: Object3D, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    const parent = object.parent;
    if (parent === null) copyComponents(to, toAt, from, at, ALL_COMPONENTS);
    else this.frames.toLocal(parent, from, at, to, toAt);
  }

  /** `body` in `slot`, the per-slot arrays grown to hold it. */
  #hold(slot: number, body: RapierRigidBody): void {
    if (slot >= this.#asleep.length) {
      const size = Math.max(this.#asleep.length * 2, slot + 1);
      const asleep = new Uint8Array(size);
      asleep.set(this.#asleep);
      this.#asleep = asleep;
    }
    this.#bodies[slot] = body;
    this.#handles[slot] = body.handle;
  }

  /** The body's world pose into `rows[at..at+6]` (the getters' results: they are the targets). */
  #readBody(body: RapierRigidBody, rows: Float64Array, at: number): void {
    // written out: this runs per body per step, and a helper V8 leaves out of line boxes numbers
    const v = body.translation(this.#vector);
    rows[at] = v.x;
    rows[at + 1] = v.y;
    rows[at + 2] = v.z;
    const q = body.rotation(this.#rotation);
    rows[at + 3] = q.x;
    rows[at + 4] = q.y;
    rows[at + 5] = q.z;
    rows[at + 6] = q.w;
  }
}
