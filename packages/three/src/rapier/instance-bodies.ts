/**
 * Rapier bodies bound to instances of `InstancedMesh`es (`RapierPhysics.addInstance`): after
 * each world step every awake body's pose is given to its instance through the tracker's
 * `setInstancePose` (a sleeping body is not read, and its instance rests); a pose written to an
 * instance outside the step, or a teleport, moves its body (the platform's `adopted`).
 *
 * Rapier simulates in world space and an instance's matrix is in its mesh's space, so the mesh
 * must sit untransformed in the world (at the origin, unturned, unscaled, under untransformed
 * parents), as in three.js's `physics_rapier_instancing` example; `bind` refuses another.
 */
import type { InstanceTrackOptions, Tracker } from '@fixedtick/core/tracking';
import type { InstancedMesh, Object3D } from 'three';
import { type RapierPlatform, RotationTarget, VectorTarget } from './rapier-platform.ts';
import type { RapierRigidBody, RapierWorld } from './rapier-types.ts';

/** An instance of an `InstancedMesh`. */
export interface InstanceRef {
  /** The instanced mesh. */
  readonly mesh: InstancedMesh;
  /** The instance's index in it. */
  readonly index: number;
}

/** See the module doc. One per `RapierPhysics`. */
export class InstanceBodies {
  readonly #tracker: Tracker<Object3D>;
  readonly #platform: RapierPlatform;
  // Dense, for the per-step loop: entry i binds instances[i] of meshes[i] to bodies[i].
  readonly #meshes: InstancedMesh[] = [];
  readonly #indices: number[] = [];
  readonly #bodies: RapierRigidBody[] = [];
  /** mesh → index → entry. */
  readonly #entries = new Map<InstancedMesh, Map<number, number>>();
  /** body → entry. */
  readonly #ofBody = new Map<RapierRigidBody, number>();
  readonly #vector = new VectorTarget();
  readonly #rotation = new RotationTarget();
  /** Bodies found asleep by the last feed. */
  sleeping = 0;

  constructor(tracker: Tracker<Object3D>, platform: RapierPlatform) {
    this.#tracker = tracker;
    this.#platform = platform;
  }

  /** Bound instances. */
  get size(): number {
    return this.#bodies.length;
  }

  /** The body bound to instance `index` of `mesh`, or `undefined`. */
  bodyOf(mesh: InstancedMesh, index: number): RapierRigidBody | undefined {
    const entry = this.#entries.get(mesh)?.get(index);
    return entry === undefined ? undefined : this.#bodies[entry];
  }

  /** The instance `body` is bound to, or `undefined`. */
  instanceOf(body: RapierRigidBody): InstanceRef | undefined {
    const entry = this.#ofBody.get(body);
    return entry === undefined
      ? undefined
      : { mesh: this.#meshes[entry], index: this.#indices[entry] };
  }

  /**
   * Binds `body` to instance `index` of `mesh` (checked by the caller) and places the instance on
   * the body at once, keeping its scale; binding a bound instance again changes its mode or body.
   */
  bind(
    mesh: InstancedMesh,
    index: number,
    body: RapierRigidBody,
    options: InstanceTrackOptions,
  ): void {
    const bound = this.bodyOf(mesh, index);
    if (bound !== undefined && bound !== body) this.unbind(mesh, index);
    this.#tracker.trackInstance(mesh, index, options);
    if (bound === body) return;
    const slot = this.#tracker.slotOf(mesh, index) as number;
    this.#tracker.teleportInstance(
      mesh,
      index,
      body.translation(this.#vector),
      body.rotation(this.#rotation),
    );
    this.#platform.bindInstance(slot, body);
    let byIndex = this.#entries.get(mesh);
    if (byIndex === undefined) {
      byIndex = new Map();
      this.#entries.set(mesh, byIndex);
    }
    const entry = this.#bodies.length;
    byIndex.set(index, entry);
    this.#ofBody.set(body, entry);
    this.#meshes.push(mesh);
    this.#indices.push(index);
    this.#bodies.push(body);
  }

  /**
   * Unbinds instance `index` of `mesh`, leaving it where its body was at the last step (a pose
   * written to it since the last frame still moves the body first). False if it was not bound.
   */
  unbind(mesh: InstancedMesh, index: number): boolean {
    const entry = this.#entries.get(mesh)?.get(index);
    if (entry === undefined) return false;
    const slot = this.#tracker.slotOf(mesh, index) as number;
    this.#tracker.untrackInstance(mesh, index);
    this.#platform.unbindInstance(slot);
    this.#forget(entry);
    return true;
  }

  /**
   * If the body of instance `index` of `mesh` is no longer in `world`, lets go of the instance
   * (as {@link InstanceBodies.letGo}) and returns true; as `MeshBodies.letGoIfRemoved`.
   */
  letGoIfRemoved(world: RapierWorld, mesh: InstancedMesh, index: number): boolean {
    const body = this.bodyOf(mesh, index);
    if (body === undefined || world.getRigidBody(body.handle) === body) return false;
    this.letGo(body);
    return true;
  }

  /** Unbinds the instance of a body removed from the world, without a call on the body. */
  letGo(body: RapierRigidBody): InstanceRef | undefined {
    const entry = this.#ofBody.get(body);
    if (entry === undefined) return undefined;
    const mesh = this.#meshes[entry];
    const index = this.#indices[entry];
    this.#platform.unbindInstance(this.#tracker.slotOf(mesh, index) as number);
    this.#tracker.untrackInstance(mesh, index);
    this.#forget(entry);
    return { mesh, index };
  }

  /** Unbinds every instance (the physics is disposed), leaving each where it was drawn. */
  clear(): void {
    this.#meshes.length = 0;
    this.#indices.length = 0;
    this.#bodies.length = 0;
    this.#entries.clear();
    this.#ofBody.clear();
  }

  /**
   * Inside the step, after the world's: every awake body's pose to its instance. Written out
   * (one loop, Rapier's getters into kept targets): it runs per bound body per step.
   */
  feed(): void {
    const tracker = this.#tracker;
    const meshes = this.#meshes;
    const indices = this.#indices;
    const bodies = this.#bodies;
    const vector = this.#vector;
    const rotation = this.#rotation;
    let sleeping = 0;
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      if (body.isSleeping()) {
        sleeping++;
        continue;
      }
      tracker.setInstancePose(
        meshes[i],
        indices[i],
        body.translation(vector),
        body.rotation(rotation),
      );
    }
    this.sleeping = sleeping;
  }

  /** Drops entry `entry`, moving the last entry into its place. */
  #forget(entry: number): void {
    const last = this.#bodies.length - 1;
    const mesh = this.#meshes[entry];
    this.#entries.get(mesh)?.delete(this.#indices[entry]);
    if (this.#entries.get(mesh)?.size === 0) this.#entries.delete(mesh);
    this.#ofBody.delete(this.#bodies[entry]);
    if (entry !== last) {
      this.#meshes[entry] = this.#meshes[last];
      this.#indices[entry] = this.#indices[last];
      this.#bodies[entry] = this.#bodies[last];
      this.#entries.get(this.#meshes[entry])?.set(this.#indices[entry], entry);
      this.#ofBody.set(this.#bodies[entry], entry);
    }
    this.#meshes.length = last;
    this.#indices.length = last;
    this.#bodies.length = last;
  }
}
