/**
 * three.js as a core tracking platform: how the core `Tracker` reads and writes an `Object3D`'s
 * local pose and an `InstancedMesh`'s instance matrices. All the tracking logic is the core's;
 * this file only says where three keeps things.
 *
 * Rotation is the one three-specific subtlety: an `Object3D` keeps `rotation` (Euler angles) in
 * sync with `quaternion`. A written render rotation gets the Euler angles three would derive
 * (rotation-sync.ts, without three's change callback and its matrix rebuild); the simulation
 * pose is written back with the very Euler angles the step left, captured with it, so code that
 * integrates `rotation.y += w * dt` stays exact past ±90°.
 */
import {
  type ComponentMask,
  rowFromVectors,
  type TrackingPlatform,
  vectorsDiffer,
} from '@fixedtick/core/tracking';
import { type InstancedMesh, Matrix4, type Object3D, Quaternion, Vector3 } from 'three';
import { restoreRotation, setRotation } from './rotation-sync.ts';

/** The three.js {@link TrackingPlatform}; one per loop (it keeps per-slot data). */
export class ThreePlatform implements TrackingPlatform<Object3D> {
  /** By slot × 3: the Euler angles `x y z` captured with the simulation pose. */
  #euler = new Float64Array(64 * 3);
  /** By slot: the Euler order `#euler` was taken in. */
  readonly #orders: string[] = [];
  readonly #matrix = new Matrix4();
  readonly #position = new Vector3();
  readonly #quaternion = new Quaternion();
  readonly #scale = new Vector3();

  read(object: Object3D, _slot: number, rows: Float64Array, at: number): void {
    rowFromVectors(rows, at, object.position, object.quaternion, object.scale);
  }

  compare(object: Object3D, _slot: number, rows: Float64Array, at: number): ComponentMask {
    return vectorsDiffer(rows, at, object.position, object.quaternion, object.scale);
  }

  writePosition(object: Object3D, _slot: number, rows: Float64Array, at: number): void {
    const p = object.position;
    p.x = rows[at];
    p.y = rows[at + 1];
    p.z = rows[at + 2];
  }

  /**
   * The simulation rotation goes back with the Euler angles captured with it; any other with the
   * angles three would derive for it.
   */
  writeRotation(
    object: Object3D,
    slot: number,
    rows: Float64Array,
    at: number,
    simulation: boolean,
  ): void {
    if (simulation && object.rotation.order === this.#orders[slot]) {
      restoreRotation(object.quaternion, object.rotation, rows, at + 3, this.#euler, slot * 3);
    } else {
      setRotation(object.quaternion, object.rotation, rows, at + 3);
    }
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

  /** Keeps the Euler angles (and order) the node holds with its simulation pose. */
  captured(object: Object3D, slot: number): void {
    const k = slot * 3;
    if (k + 3 > this.#euler.length) {
      const next = new Float64Array(Math.max(this.#euler.length * 2, k + 3));
      next.set(this.#euler);
      this.#euler = next;
    }
    const e = object.rotation;
    this.#euler[k] = e.x;
    this.#euler[k + 1] = e.y;
    this.#euler[k + 2] = e.z;
    // stored only when it changed: a string stored into an array costs a write barrier
    if (this.#orders[slot] !== e.order) this.#orders[slot] = e.order;
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
    rowFromVectors(rows, at, p, q, s);
  }

  instancesUpdated(mesh: Object3D): void {
    (mesh as InstancedMesh).instanceMatrix.needsUpdate = true;
  }

  /** `instanceMatrix.version`: `needsUpdate = true` raises it (docs/three.md, "Instanced meshes"). */
  instancesVersion(mesh: Object3D): number {
    return (mesh as InstancedMesh).instanceMatrix.version;
  }
}
