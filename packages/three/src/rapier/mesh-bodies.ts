/**
 * Rapier bodies bound to whole meshes (`RapierPhysics.add`): which body drives which mesh, the
 * meshes under transformed parents (interpolated in world space, where Rapier simulates, and
 * written in their parents' space), and letting go of a mesh — with a call on its body (a pose
 * written to the mesh moves the body first) or, for a body removed from the world, without one.
 */
import type { Tracker, TrackOptions } from '@fixedtick/core/tracking';
import type { Object3D } from 'three';
import type { RapierPlatform } from './rapier-platform.ts';
import type { RapierRigidBody, RapierWorld } from './rapier-types.ts';

/** See the module doc. One per `RapierPhysics`. */
export class MeshBodies {
  readonly #tracker: Tracker<Object3D>;
  readonly #platform: RapierPlatform;
  readonly #bodyOf = new Map<Object3D, RapierRigidBody>();
  readonly #objectOf = new Map<RapierRigidBody, Object3D>();
  /** Bound meshes under a transformed parent (converted to and from world space). */
  readonly #parented = new Set<Object3D>();
  /** Scratch row for placing a mesh on its body. */
  readonly #row = new Float64Array(10);

  constructor(tracker: Tracker<Object3D>, platform: RapierPlatform) {
    this.#tracker = tracker;
    this.#platform = platform;
  }

  /** Bound meshes. */
  get size(): number {
    return this.#bodyOf.size;
  }

  /** The body bound to `object3d`, or `undefined`. */
  bodyOf(object3d: Object3D): RapierRigidBody | undefined {
    return this.#bodyOf.get(object3d);
  }

  /** The mesh bound to `body`, or `undefined`. */
  objectOf(body: RapierRigidBody): Object3D | undefined {
    return this.#objectOf.get(body);
  }

  /**
   * Binds `body` to `object3d` (both checked by the caller) and places the mesh on the body at
   * once; binding a bound mesh again changes its mode, or its body.
   */
  bind(object3d: Object3D, body: RapierRigidBody, options: TrackOptions): void {
    const bound = this.#bodyOf.get(object3d);
    if (bound === body) {
      this.#tracker.track(object3d, options);
      return;
    }
    if (bound !== undefined) this.unbind(object3d);
    this.#platform.place(object3d, body, this.#row);
    this.#platform.frames.invalidate();
    const slot = this.#tracker.track(object3d, options);
    this.#platform.bind(object3d, slot, body);
    this.#bodyOf.set(object3d, body);
    this.#objectOf.set(body, object3d);
    if (this.#platform.simulatedInWorld(object3d)) this.#parented.add(object3d);
  }

  /**
   * Unbinds `object3d`, leaving it where its body was at the last step (a pose written to it
   * since the last frame still moves the body first). False if it was not bound.
   */
  unbind(object3d: Object3D): boolean {
    if (!this.#bodyOf.has(object3d)) return false;
    const slot = this.#tracker.slotOf(object3d) as number;
    this.#platform.frames.invalidate();
    this.#tracker.untrack(object3d);
    this.#platform.unbind(object3d, slot);
    this.#forget(object3d);
    return true;
  }

  /** If `object3d`'s body is no longer in `world`, lets go of it and returns true. */
  letGoIfRemoved(world: RapierWorld, object3d: Object3D): boolean {
    const body = this.#bodyOf.get(object3d) as RapierRigidBody;
    if (world.getRigidBody(body.handle) === body) return false;
    this.letGo(object3d);
    return true;
  }

  /**
   * Unbinds `object3d` without a call on its removed body: the platform forgets the body first,
   * so that untracking (which moves a body to a pose written to its mesh) does not reach it.
   */
  letGo(object3d: Object3D): void {
    this.#platform.unbind(object3d, this.#tracker.slotOf(object3d) as number);
    this.#platform.frames.invalidate();
    this.#tracker.untrack(object3d);
    this.#forget(object3d);
  }

  /** Writes again the meshes under transformed parents, which may have moved (before a render). */
  rewriteParented(): void {
    if (this.#parented.size === 0) return;
    this.#platform.frames.invalidate();
    this.#tracker.rewriteWorldNodes();
  }

  /** Forgets every binding (the physics is disposed; the tracker has let go of the meshes). */
  clear(): void {
    this.#bodyOf.clear();
    this.#objectOf.clear();
    this.#parented.clear();
  }

  #forget(object3d: Object3D): void {
    this.#objectOf.delete(this.#bodyOf.get(object3d) as RapierRigidBody);
    this.#bodyOf.delete(object3d);
    this.#parented.delete(object3d);
  }
}
