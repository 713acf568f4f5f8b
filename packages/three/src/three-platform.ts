/**
 * three.js as a core tracking platform: how the core `Tracker` reads and writes an `Object3D`'s
 * local pose and an `InstancedMesh`'s instance matrices. All the tracking logic is the core's;
 * this file only says where three keeps things.
 *
 * Rotation is the one three-specific subtlety: an `Object3D` keeps `rotation` (Euler angles) in
 * sync with `quaternion`. A tracked object's angles are worked out only when read
 * (lazy-euler.ts), and the simulation pose goes back with the very angles the step left.
 */
import {
  type ComponentMask,
  POSITION,
  ROTATION,
  SCALE,
  type TrackingPlatform,
} from '@fixedtick/core/tracking';
import { type InstancedMesh, Matrix4, type Object3D, Quaternion, Vector3 } from 'three';
import { LazyEuler } from './lazy-euler.ts';

/** The three.js {@link TrackingPlatform}; one per loop (it keeps per-slot data). */
export class ThreePlatform implements TrackingPlatform<Object3D> {
  readonly #euler = new LazyEuler();
  readonly #matrix = new Matrix4();
  readonly #position = new Vector3();
  readonly #quaternion = new Quaternion();
  readonly #scale = new Vector3();

  read(object: Object3D, _slot: number, rows: Float64Array, at: number): void {
    const p = object.position;
    const q = object.quaternion;
    const s = object.scale;
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

  compare(object: Object3D, _slot: number, rows: Float64Array, at: number): ComponentMask {
    const p = object.position;
    const q = object.quaternion;
    const s = object.scale;
    let mask = 0;
    if (p.x !== rows[at] || p.y !== rows[at + 1] || p.z !== rows[at + 2]) mask = POSITION;
    if (
      q.x !== rows[at + 3] ||
      q.y !== rows[at + 4] ||
      q.z !== rows[at + 5] ||
      q.w !== rows[at + 6]
    ) {
      mask |= ROTATION;
    }
    if (s.x !== rows[at + 7] || s.y !== rows[at + 8] || s.z !== rows[at + 9]) mask |= SCALE;
    return mask;
  }

  writePosition(object: Object3D, _slot: number, rows: Float64Array, at: number): void {
    const p = object.position;
    p.x = rows[at];
    p.y = rows[at + 1];
    p.z = rows[at + 2];
  }

  /**
   * The quaternion's fields, without three's change callback: the Euler angles follow when read,
   * and the simulation rotation goes back with the angles captured with it.
   */
  writeRotation(
    object: Object3D,
    slot: number,
    rows: Float64Array,
    at: number,
    simulation: boolean,
  ): void {
    if (simulation) this.#euler.restore(object, slot, rows, at);
    else this.#euler.setQuaternion(object, slot, rows, at);
  }

  writeScale(object: Object3D, _slot: number, rows: Float64Array, at: number): void {
    const s = object.scale;
    s.x = rows[at + 7];
    s.y = rows[at + 8];
    s.z = rows[at + 9];
  }

  parentOf(object: Object3D): Object3D | null {
    return object.parent;
  }

  hasChildren(object: Object3D): boolean {
    return object.children.length > 0;
  }

  /** Keeps the Euler angles the object holds with its simulation pose (lazy from now on). */
  captured(object: Object3D, slot: number): void {
    this.#euler.attach(object, slot);
    this.#euler.capture(object, slot);
  }

  /** Plain Euler fields again for an object the tracker lets go. */
  released(object: Object3D, slot: number, index: number): void {
    if (index < 0) this.#euler.detach(object, slot);
  }

  instanceMatrices(mesh: Object3D): Float32Array | null {
    const attribute = (mesh as InstancedMesh).instanceMatrix;
    return attribute?.array instanceof Float32Array ? attribute.array : null;
  }

  /** three's own `Matrix4.decompose`. */
  decompose(matrices: Float32Array, offset: number, rows: Float64Array, at: number): void {
    const p = this.#position;
    const q = this.#quaternion;
    const s = this.#scale;
    this.#matrix.fromArray(matrices, offset).decompose(p, q, s);
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

  instancesUpdated(mesh: Object3D): void {
    (mesh as InstancedMesh).instanceMatrix.needsUpdate = true;
  }
}
