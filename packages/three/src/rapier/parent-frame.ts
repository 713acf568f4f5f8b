/**
 * World ⇄ parent space for meshes whose bodies Rapier simulates in world space while three.js
 * stores them under a parent (a body's mesh inside a moving group, a ship's crates).
 *
 * A parent's world transform is taken fresh from its position, quaternion and scale (and its
 * ancestors'), as the renderer will draw it, and kept until `invalidate()` — the adapter calls
 * that wherever parents may have moved since (each pass of a frame, each API call), so many
 * bodies under one parent decompose its matrix once per pass, not once each. Rows use the
 * pose-buffer layout (position at 0, quaternion at 3, scale at 7).
 */
import { Matrix4, type Object3D, Quaternion, Vector3 } from 'three';

/** One parent's world transform as of the current epoch. */
interface Frame {
  epoch: number;
  readonly matrix: Matrix4;
  readonly inverse: Matrix4;
  readonly rotation: Quaternion;
  readonly inverseRotation: Quaternion;
  readonly scale: Vector3;
}

/** True if `parent` is a scene root left at the identity: its children's local space is world. */
export function isUntransformedRoot(parent: Object3D): boolean {
  const { position: p, quaternion: q, scale: s } = parent;
  return (
    parent.parent === null &&
    p.x === 0 &&
    p.y === 0 &&
    p.z === 0 &&
    q.x === 0 &&
    q.y === 0 &&
    q.z === 0 &&
    q.w === 1 &&
    s.x === 1 &&
    s.y === 1 &&
    s.z === 1
  );
}

/** Converts poses between world space and the space of a node's parent; see the module doc. */
export class ParentFrames {
  #frames = new WeakMap<Object3D, Frame>();
  readonly #position = new Vector3();
  readonly #rotation = new Quaternion();
  readonly #translation = new Vector3();
  #epoch = 0;

  /** Parents may have moved: recompute their transforms when next needed. */
  invalidate(): void {
    this.#epoch++;
  }

  /** Forgets every parent (the adapter is disposed). */
  clear(): void {
    this.#frames = new WeakMap();
  }

  /** The local pose `from[at..]` of a child of `parent`, in world space, into `to[toAt..]`. */
  toWorld(parent: Object3D, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    const frame = this.#frame(parent);
    const p = this.#position.set(from[at], from[at + 1], from[at + 2]).applyMatrix4(frame.matrix);
    const q = this.#rotation
      .set(from[at + 3], from[at + 4], from[at + 5], from[at + 6])
      .premultiply(frame.rotation);
    this.#write(to, toAt, p, q);
    to[toAt + 7] = from[at + 7] * frame.scale.x;
    to[toAt + 8] = from[at + 8] * frame.scale.y;
    to[toAt + 9] = from[at + 9] * frame.scale.z;
  }

  /** The world pose `from[at..]` of a child of `parent`, in `parent`'s space, into `to[toAt..]`. */
  toLocal(parent: Object3D, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    const frame = this.#frame(parent);
    const p = this.#position.set(from[at], from[at + 1], from[at + 2]).applyMatrix4(frame.inverse);
    const q = this.#rotation
      .set(from[at + 3], from[at + 4], from[at + 5], from[at + 6])
      .premultiply(frame.inverseRotation);
    this.#write(to, toAt, p, q);
    to[toAt + 7] = from[at + 7] / frame.scale.x;
    to[toAt + 8] = from[at + 8] / frame.scale.y;
    to[toAt + 9] = from[at + 9] / frame.scale.z;
  }

  #write(to: Float64Array, at: number, p: Vector3, q: Quaternion): void {
    to[at] = p.x;
    to[at + 1] = p.y;
    to[at + 2] = p.z;
    to[at + 3] = q.x;
    to[at + 4] = q.y;
    to[at + 5] = q.z;
    to[at + 6] = q.w;
  }

  #frame(parent: Object3D): Frame {
    let frame = this.#frames.get(parent);
    if (frame === undefined) {
      frame = {
        epoch: -1,
        matrix: new Matrix4(),
        inverse: new Matrix4(),
        rotation: new Quaternion(),
        inverseRotation: new Quaternion(),
        scale: new Vector3(),
      };
      this.#frames.set(parent, frame);
    }
    if (frame.epoch !== this.#epoch) {
      frame.epoch = this.#epoch;
      parent.updateWorldMatrix(true, false);
      frame.matrix.copy(parent.matrixWorld);
      frame.inverse.copy(frame.matrix).invert();
      frame.matrix.decompose(this.#translation, frame.rotation, frame.scale);
      frame.inverseRotation.copy(frame.rotation).invert();
    }
    return frame;
  }
}
