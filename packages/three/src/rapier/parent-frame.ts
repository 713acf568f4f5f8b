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

/** A change of space: position through `matrix`, rotation premultiplied, scale multiplied. */
interface Transform {
  readonly matrix: Matrix4;
  readonly rotation: Quaternion;
  readonly scale: Vector3;
}

/** One parent's world transform, both ways, as of the current epoch. */
interface Frame {
  epoch: number;
  /** The parent's space to world space. */
  readonly toWorld: Transform;
  /** World space to the parent's space. */
  readonly toLocal: Transform;
}

const transform = (): Transform => ({
  matrix: new Matrix4(),
  rotation: new Quaternion(),
  scale: new Vector3(),
});

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
  readonly #scale = new Vector3();
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
    this.#apply(this.#frame(parent).toWorld, from, at, to, toAt);
  }

  /** The world pose `from[at..]` of a child of `parent`, in `parent`'s space, into `to[toAt..]`. */
  toLocal(parent: Object3D, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    this.#apply(this.#frame(parent).toLocal, from, at, to, toAt);
  }

  #apply(t: Transform, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    this.#position.fromArray(from, at).applyMatrix4(t.matrix).toArray(to, toAt);
    this.#rotation
      .fromArray(from, at + 3)
      .premultiply(t.rotation)
      .toArray(to, toAt + 3);
    this.#scale
      .fromArray(from, at + 7)
      .multiply(t.scale)
      .toArray(to, toAt + 7);
  }

  #frame(parent: Object3D): Frame {
    let frame = this.#frames.get(parent);
    if (frame === undefined) {
      frame = { epoch: -1, toWorld: transform(), toLocal: transform() };
      this.#frames.set(parent, frame);
    }
    if (frame.epoch !== this.#epoch) {
      frame.epoch = this.#epoch;
      parent.updateWorldMatrix(true, false);
      const { toWorld, toLocal } = frame;
      toWorld.matrix.copy(parent.matrixWorld);
      toWorld.matrix.decompose(this.#position, toWorld.rotation, toWorld.scale);
      toLocal.matrix.copy(toWorld.matrix).invert();
      toLocal.rotation.copy(toWorld.rotation).invert();
      toLocal.scale.set(1 / toWorld.scale.x, 1 / toWorld.scale.y, 1 / toWorld.scale.z);
    }
    return frame;
  }
}
