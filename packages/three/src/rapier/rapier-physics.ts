import {
  checkInterpolationMode,
  type FixedLoop,
  type InterpolationMode,
  type LoopAdapter,
  optionError,
  type Unsubscribe,
} from '@fixedtick/core';
import {
  type InstanceTrackOptions,
  type QuaternionLike,
  type SimulationPose,
  Tracker,
  type TrackOptions,
  type Vector3Like,
} from '@fixedtick/core/tracking';
import type { InstancedMesh, Object3D } from 'three';
import {
  CollisionEvents,
  type CollisionListener,
  type ContactForceListener,
} from './collision-events.ts';
import { InstanceBodies, type InstanceRef } from './instance-bodies.ts';
import { MeshBodies } from './mesh-bodies.ts';
import {
  checkBody,
  checkInstance,
  checkMesh,
  checkPhysicsArguments,
  checkTrackOptions,
  type RapierPhysicsOptions,
} from './physics-options.ts';
import { RapierPlatform } from './rapier-platform.ts';
import type { RapierEventQueue, RapierRigidBody, RapierWorld } from './rapier-types.ts';
import { letGoOfRemoved, RemovedBodyError } from './removed-bodies.ts';

/**
 * Rapier rigid bodies stepped at the loop's fixed tick and drawn interpolated in three.js.
 *
 * Steps the `World` exactly once per fixed step, with `world.timestep = loop.fixedDelta`,
 * between `fixedUpdate` and `postSimulation`; reads each awake body's pose once per step (a
 * sleeping body is not read, and its mesh is not touched); draws every mesh bound with
 * {@link RapierPhysics.add} between its body's last two steps.
 *
 * **The rule.** The body is the simulation, the mesh its picture: move and read bodies in
 * `fixedUpdate` / `postSimulation` with Rapier's API. Every frame a bound mesh shows its body's
 * interpolated pose; a pose written to it outside the step (position, rotation, each on its own)
 * moves the body there — a teleport, drawn in the same frame with no streak.
 *
 * @example
 * ```ts
 * await RAPIER.init();
 * const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 * const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
 * const physics = new RapierPhysics(loop, world);
 * const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 5, 0));
 * world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
 * physics.add(cube, body); // cube drawn where body is, interpolated
 * loop.start();
 * ```
 */
export class RapierPhysics {
  /** The loop whose fixed steps step the world. */
  readonly loop: FixedLoop;
  /** The Rapier world stepped once per fixed step. */
  readonly world: RapierWorld;
  readonly #events: RapierEventQueue | undefined;
  readonly #platform = new RapierPlatform();
  readonly #tracker: Tracker<Object3D>;
  readonly #instances: InstanceBodies;
  readonly #listeners: CollisionEvents;
  readonly #meshes: MeshBodies;
  /** Scratch: slots whose bodies were found removed from the world. */
  readonly #removed: number[] = [];
  readonly #unsubscribe: Unsubscribe[];
  #steps = 0;
  #disposed = false;

  /**
   * @param loop the loop (a `ThreeFixedLoop`, or any `FixedLoop`) whose steps step `world`.
   * @param world the Rapier `World`; Fixedtick sets its `timestep` and steps it — do not call
   *   `world.step()` yourself.
   * @param options see {@link RapierPhysicsOptions}; a bad value throws a `RangeError` naming it.
   */
  constructor(loop: FixedLoop, world: RapierWorld, options: RapierPhysicsOptions = {}) {
    checkPhysicsArguments(loop, world, options);
    const { events } = options;
    this.loop = loop;
    this.world = world;
    this.#events = events;
    this.#tracker = new Tracker<Object3D>(this.#platform, {
      defaultInterpolation:
        options.defaultInterpolation === undefined
          ? 'interpolate'
          : checkInterpolationMode(options.defaultInterpolation, 'defaultInterpolation'),
      nodeName: 'object3d',
    });
    this.#platform.poses = this.#tracker.poses;
    this.#meshes = new MeshBodies(this.#tracker, this.#platform);
    this.#instances = new InstanceBodies(this.#tracker, this.#platform);
    this.#listeners = new CollisionEvents(world, (body) =>
      body === null ? null : (this.#meshes.objectOf(body) ?? null),
    );
    const frames = this.#platform.frames;
    // Registered before the tracker, so that in each phase parents are looked at afresh first.
    // Bodies removed while bound are let go of before the tracker reaches them in a frame (its
    // write check) or after a step (its capture): a call on a removed body traps Rapier.
    const stepper: LoopAdapter = {
      beginFrame: () => {
        frames.invalidate();
        this.#unbindRemoved();
      },
      physicsStep: (fixedDelta) => this.#step(fixedDelta),
      afterStep: () => this.#unbindRemoved(),
      interpolate: () => frames.invalidate(),
      detach: () => this.#forget(),
    };
    this.#unsubscribe = [
      loop.addAdapter(stepper),
      loop.addAdapter(this.#tracker),
      // Last of preRender: parents moved in update/lateUpdate/preRender carry their bodies' meshes.
      loop.onPreRender(() => this.#meshes.rewriteParented(), {
        priority: Number.POSITIVE_INFINITY,
      }),
    ];
  }

  /** The `EventQueue` the world is stepped with, if one was given. */
  get events(): RapierEventQueue | undefined {
    return this.#events;
  }

  /**
   * Mode of bodies added without one. Live: setting it switches every such body at once. A bad
   * value throws a `RangeError`.
   */
  get defaultInterpolation(): InterpolationMode {
    return this.#tracker.defaultInterpolation;
  }
  set defaultInterpolation(value: InterpolationMode) {
    this.#tracker.defaultInterpolation = value;
  }

  /** Bound meshes and instances. */
  get size(): number {
    return this.#meshes.size + this.#instances.size;
  }

  /** Bound meshes the per-frame passes skip: their bodies have not moved since the last frame. */
  get restingCount(): number {
    return this.#tracker.restingCount;
  }

  /** Bodies Rapier reported asleep at the last step: not read, their meshes not written. */
  get sleepingCount(): number {
    return this.#platform.sleeping + this.#instances.sleeping;
  }

  /** World steps run by this adapter (one per fixed step). */
  get steps(): number {
    return this.#steps;
  }

  /** The core tracker behind the bound meshes (for tools and tests: slots, poses). */
  get tracker(): Tracker<Object3D> {
    return this.#tracker;
  }

  /**
   * Binds `object3d` to `rigidBody`: from now on the body drives the mesh, drawn interpolated
   * (or as `options.interpolation` says). The mesh is placed on its body at once, in the space
   * of its parent (add it to its parent first; to move it under another parent later, `remove`
   * it, re-parent it, `add` it again). Adding a bound mesh again changes its mode, or its body.
   */
  add(object3d: Object3D, rigidBody: RapierRigidBody, options: TrackOptions = {}): void {
    this.#alive();
    checkMesh(this.loop, object3d);
    this.#checkFreeBody(rigidBody, object3d);
    checkTrackOptions(options);
    this.#meshes.bind(object3d, rigidBody, options);
  }

  /**
   * Unbinds `object3d`, leaving it where its body was at the last step (a pose written to it
   * since the last frame still moves the body first). The body stays in the world: unbind a
   * mesh before `world.removeRigidBody(body)`. Returns false if it was not bound.
   */
  remove(object3d: Object3D): boolean {
    if (this.#meshes.bodyOf(object3d) === undefined) return false;
    if (!this.#meshes.letGoIfRemoved(this.world, object3d)) this.#meshes.unbind(object3d);
    return true;
  }

  /** True if `object3d` is bound to a body. */
  isBound(object3d: Object3D): boolean {
    return this.#meshes.bodyOf(object3d) !== undefined;
  }

  /** The body bound to `object3d`, or `undefined`. */
  bodyOf(object3d: Object3D): RapierRigidBody | undefined {
    return this.#meshes.bodyOf(object3d);
  }

  /** The mesh bound to `rigidBody`, or `undefined`. */
  objectOf(rigidBody: RapierRigidBody): Object3D | undefined {
    return this.#meshes.objectOf(rigidBody);
  }

  /**
   * Binds `rigidBody` to instance `index` of `mesh`: from now on the body drives that instance,
   * drawn interpolated (or as `options.interpolation` says), placed on its body at once (its scale
   * stays). As for meshes: a sleeping body is not read and its instance rests; a pose written to
   * the instance outside the step (`setMatrixAt` and `instanceMatrix.needsUpdate`) moves the body;
   * {@link RapierPhysics.teleportInstance} moves both with no streak. The mesh must sit
   * untransformed in the world (Rapier simulates in world space, instance matrices are in the
   * mesh's): a mesh moved, turned or scaled, or under such a parent, is refused with a
   * `RangeError`. Binding a bound instance again changes its mode, or its body.
   */
  addInstance(
    mesh: InstancedMesh,
    index: number,
    rigidBody: RapierRigidBody,
    options: InstanceTrackOptions = {},
  ): void {
    this.#alive();
    checkInstance(mesh, index);
    const owner = this.#instances.instanceOf(rigidBody);
    if (owner === undefined || owner.mesh !== mesh || owner.index !== index) {
      this.#checkFreeBody(rigidBody, undefined);
    }
    checkTrackOptions(options);
    this.#instances.bind(mesh, index, rigidBody, options);
  }

  /**
   * Unbinds instance `index` of `mesh`, leaving it where its body was at the last step. The body
   * stays in the world. Returns false if it was not bound.
   */
  removeInstance(mesh: InstancedMesh, index: number): boolean {
    if (this.#instances.bodyOf(mesh, index) === undefined) return false;
    if (!this.#instances.letGoIfRemoved(this.world, mesh, index)) {
      this.#instances.unbind(mesh, index);
    }
    return true;
  }

  /** The body bound to instance `index` of `mesh`, or `undefined`. */
  instanceBodyOf(mesh: InstancedMesh, index: number): RapierRigidBody | undefined {
    return this.#instances.bodyOf(mesh, index);
  }

  /** The instance `rigidBody` is bound to (`{ mesh, index }`), or `undefined`. */
  instanceOf(rigidBody: RapierRigidBody): InstanceRef | undefined {
    return this.#instances.instanceOf(rigidBody);
  }

  /**
   * {@link RapierPhysics.teleport} for instance `index` of `mesh`: moves the instance and its body
   * (woken, velocity kept) and draws it there this very frame, with no streak.
   */
  teleportInstance(
    mesh: InstancedMesh,
    index: number,
    position: Vector3Like,
    rotation?: QuaternionLike,
  ): void {
    if (this.#instances.bodyOf(mesh, index) === undefined) {
      throw optionError('index', index, 'an instance bound with physics.addInstance');
    }
    if (this.#instances.letGoIfRemoved(this.world, mesh, index)) {
      throw new RemovedBodyError([mesh], [{ mesh, index }]);
    }
    this.#tracker.teleportInstance(mesh, index, position, rotation);
  }

  /**
   * Moves bound `object3d` and its body to `position` and, if given, `rotation` — in the mesh's
   * own space, like writing `object3d.position` (world space for a mesh in the scene) — wakes
   * the body and resets the mesh's interpolation, so this very frame draws it there with no
   * streak. The body keeps its velocity. Inside `fixedUpdate` the body moves at once and is
   * stepped from there.
   */
  teleport(object3d: Object3D, position: Vector3Like, rotation?: QuaternionLike): void {
    this.#checkBound(object3d);
    if (this.#meshes.letGoIfRemoved(this.world, object3d)) {
      throw new RemovedBodyError([object3d]);
    }
    this.#platform.frames.invalidate();
    this.#tracker.teleport(object3d, position, rotation);
  }

  /**
   * The body pose of bound `object3d` as of the last step, in world space (where Rapier
   * simulates), into `target` if given — what the mesh is interpolated towards. Inside the step,
   * read the body itself.
   */
  getSimulationPose(object3d: Object3D, target?: SimulationPose): SimulationPose {
    this.#checkBound(object3d);
    this.#platform.frames.invalidate();
    return this.#tracker.getSimulationPose(object3d, -1, target);
  }

  /**
   * Calls `listener` for every collision event of every step, inside the step (after the world's
   * step, before `postSimulation`): colliders with `ActiveEvents.COLLISION_EVENTS` that start
   * or stop touching. Needs the `events` option. Returns the unsubscribe function.
   */
  onCollision(listener: CollisionListener): Unsubscribe {
    this.#needEvents('onCollision');
    return this.#listeners.onCollision(listener);
  }

  /**
   * Calls `listener` for every contact force event of every step, inside the step (colliders
   * with `ActiveEvents.CONTACT_FORCE_EVENTS` pushed harder than their threshold). Needs the
   * `events` option. Returns the unsubscribe function.
   */
  onContactForce(listener: ContactForceListener): Unsubscribe {
    this.#needEvents('onContactForce');
    return this.#listeners.onContactForce(listener);
  }

  /**
   * Stops stepping the world and unbinds every mesh (each left where its body was at the last
   * step). The world and the event queue are yours: free them with Rapier's `free()`.
   */
  dispose(): void {
    if (this.#disposed) return;
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#forget();
  }

  #step(fixedDelta: number): void {
    const world = this.world;
    world.timestep = fixedDelta;
    this.#platform.sleeping = 0;
    // bodies removed in fixedUpdate: before the instances are fed from their bodies
    const removed = this.#letGoOfRemoved();
    const queue = this.#events;
    world.step(queue);
    this.#steps++;
    this.#platform.frames.invalidate();
    if (this.#instances.size !== 0) this.#instances.feed();
    if (queue !== undefined && this.#listeners.listening) this.#listeners.drain(queue);
    if (removed !== undefined) throw removed;
  }

  /** Lets go of meshes and instances whose bodies left the world; the error reporting them. */
  #letGoOfRemoved(): RemovedBodyError | undefined {
    return letGoOfRemoved(this.world, this.#platform, this.#meshes, this.#instances, this.#removed);
  }

  /** {@link RapierPhysics.#letGoOfRemoved}, thrown to the loop (which reports it once). */
  #unbindRemoved(): void {
    const removed = this.#letGoOfRemoved();
    if (removed !== undefined) throw removed;
  }

  /** The loop let go of the adapters (`dispose` of either): forget everything. */
  #forget(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#tracker.detach();
    this.#meshes.clear();
    this.#instances.clear();
    this.#listeners.clear();
    this.#platform.clear();
  }

  /** Throws unless `rigidBody` is a body of this world that nothing but `object3d` is bound to. */
  #checkFreeBody(rigidBody: RapierRigidBody, object3d: Object3D | undefined): void {
    checkBody(this.world, rigidBody);
    const owner = this.#meshes.objectOf(rigidBody);
    if ((owner !== undefined && owner !== object3d) || this.#instances.instanceOf(rigidBody)) {
      throw optionError('rigidBody', rigidBody, 'a body no other Object3D or instance is bound to');
    }
  }

  #checkBound(object3d: Object3D): void {
    if (this.#meshes.bodyOf(object3d) === undefined) {
      throw optionError('object3d', object3d, 'an Object3D bound with physics.add');
    }
  }

  #needEvents(name: string): void {
    if (this.#events === undefined) {
      throw new Error(
        `fixedtick: RapierPhysics.${name} needs the events option (new RapierPhysics(loop, world, { events: new RAPIER.EventQueue(true) }))`,
      );
    }
  }

  #alive(): void {
    if (this.#disposed) throw new Error('fixedtick: this RapierPhysics is disposed');
  }
}
