import {
  checkInterpolationMode,
  type FixedLoop,
  type InterpolationMode,
  type LoopAdapter,
  optionError,
  type Unsubscribe,
} from '@fixedtick/core';
import {
  type QuaternionLike,
  type SimulationPose,
  Tracker,
  type TrackOptions,
  type Vector3Like,
} from '@fixedtick/core/tracking';
import type { Object3D } from 'three';
import {
  CollisionEvents,
  type CollisionListener,
  type ContactForceListener,
} from './collision-events.ts';
import { RapierPlatform } from './rapier-platform.ts';
import type { RapierEventQueue, RapierRigidBody, RapierWorld } from './rapier-types.ts';

/** Options of {@link RapierPhysics}. */
export interface RapierPhysicsOptions {
  /**
   * Interpolation mode of bodies added without one; live as
   * {@link RapierPhysics.defaultInterpolation}.
   * @defaultValue `'interpolate'`
   */
  defaultInterpolation?: InterpolationMode;
  /**
   * The `EventQueue` the world is stepped with (`new RAPIER.EventQueue(true)`), needed by
   * `onCollision` and `onContactForce`. Without listeners it is passed to `world.step` and left
   * for you to drain in `postSimulation`. Yours to `free()`.
   */
  events?: RapierEventQueue;
}

const OPTION_KEYS = new Set(['defaultInterpolation', 'events']);

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
  readonly #listeners: CollisionEvents;
  readonly #bodyOf = new Map<Object3D, RapierRigidBody>();
  readonly #objectOf = new Map<RapierRigidBody, Object3D>();
  /** Bound meshes under a transformed parent (converted to and from world space). */
  readonly #parented = new Set<Object3D>();
  /** Scratch row for placing a mesh on its body. */
  readonly #row = new Float64Array(10);
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
    if (typeof loop?.addAdapter !== 'function' || typeof loop.onPreRender !== 'function') {
      throw new TypeError(optionError('loop', loop, 'a FixedLoop (ThreeFixedLoop)').message);
    }
    if (typeof world?.step !== 'function' || typeof world.getRigidBody !== 'function') {
      throw new TypeError(optionError('world', world, 'a Rapier World').message);
    }
    if (options === null || typeof options !== 'object') {
      throw optionError('options', options, 'an object');
    }
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.has(key)) {
        throw new RangeError(
          `fixedtick: unknown option "${key}" (known: ${[...OPTION_KEYS].join(', ')})`,
        );
      }
    }
    const { events } = options;
    if (events !== undefined && typeof events?.drainCollisionEvents !== 'function') {
      throw new TypeError(optionError('events', events, 'a Rapier EventQueue').message);
    }
    this.loop = loop;
    this.world = world;
    this.#events = events;
    this.#tracker = new Tracker<Object3D>(this.#platform, {
      defaultInterpolation: options.defaultInterpolation ?? 'interpolate',
      nodeName: 'object3d',
    });
    this.#platform.poses = this.#tracker.poses;
    this.#listeners = new CollisionEvents(world, (body) =>
      body === null ? null : (this.#objectOf.get(body) ?? null),
    );
    const frames = this.#platform.frames;
    // Registered before the tracker, so that in each phase parents are looked at afresh first.
    const stepper: LoopAdapter = {
      beginFrame: () => frames.invalidate(),
      physicsStep: (fixedDelta) => this.#step(fixedDelta),
      interpolate: () => frames.invalidate(),
      detach: () => this.#forget(),
    };
    this.#unsubscribe = [
      loop.addAdapter(stepper),
      loop.addAdapter(this.#tracker),
      // Last of preRender: parents moved in update/lateUpdate/preRender carry their bodies' meshes.
      loop.onPreRender(() => this.#rewriteParented(), { priority: Number.POSITIVE_INFINITY }),
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

  /** Bound meshes. */
  get size(): number {
    return this.#bodyOf.size;
  }

  /** Bound meshes the per-frame passes skip: their bodies have not moved since the last frame. */
  get restingCount(): number {
    return this.#tracker.restingCount;
  }

  /** Bodies Rapier reported asleep at the last step: not read, their meshes not written. */
  get sleepingCount(): number {
    return this.#platform.sleeping;
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
    if (object3d?.isObject3D !== true) {
      throw new TypeError(optionError('object3d', object3d, 'a three.js Object3D').message);
    }
    if (
      typeof rigidBody?.translation !== 'function' ||
      typeof rigidBody.isSleeping !== 'function'
    ) {
      throw new TypeError(optionError('rigidBody', rigidBody, 'a Rapier RigidBody').message);
    }
    if (this.world.getRigidBody(rigidBody.handle) !== rigidBody) {
      throw optionError('rigidBody', rigidBody, 'a rigid body of this physics world');
    }
    const owner = this.#objectOf.get(rigidBody);
    if (owner !== undefined && owner !== object3d) {
      throw optionError('rigidBody', rigidBody, 'a body no other Object3D is bound to');
    }
    if ((this.loop as { isTracked?: (o: Object3D) => boolean }).isTracked?.(object3d) === true) {
      throw optionError('object3d', object3d, 'an Object3D the loop does not track (untrack it)');
    }
    checkTrackOptions(options);
    const bound = this.#bodyOf.get(object3d);
    if (bound === rigidBody) {
      this.#tracker.track(object3d, options);
      return;
    }
    if (bound !== undefined) this.remove(object3d);
    this.#platform.place(object3d, rigidBody, this.#row);
    this.#platform.frames.invalidate();
    const slot = this.#tracker.track(object3d, options);
    this.#platform.bind(object3d, slot, rigidBody);
    this.#bodyOf.set(object3d, rigidBody);
    this.#objectOf.set(rigidBody, object3d);
    if (this.#platform.simulatedInWorld(object3d)) this.#parented.add(object3d);
  }

  /**
   * Unbinds `object3d`, leaving it where its body was at the last step (a pose written to it
   * since the last frame still moves the body first). The body stays in the world: unbind a
   * mesh before `world.removeRigidBody(body)`. Returns false if it was not bound.
   */
  remove(object3d: Object3D): boolean {
    if (!this.#bodyOf.has(object3d)) return false;
    const slot = this.#tracker.slotOf(object3d) as number;
    this.#platform.frames.invalidate();
    this.#tracker.untrack(object3d);
    this.#unbind(object3d, slot);
    return true;
  }

  /** True if `object3d` is bound to a body. */
  isBound(object3d: Object3D): boolean {
    return this.#bodyOf.has(object3d);
  }

  /** The body bound to `object3d`, or `undefined`. */
  bodyOf(object3d: Object3D): RapierRigidBody | undefined {
    return this.#bodyOf.get(object3d);
  }

  /** The mesh bound to `rigidBody`, or `undefined`. */
  objectOf(rigidBody: RapierRigidBody): Object3D | undefined {
    return this.#objectOf.get(rigidBody);
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
    const queue = this.#events;
    world.step(queue);
    this.#steps++;
    this.#platform.frames.invalidate();
    if (queue !== undefined && this.#listeners.listening) this.#listeners.drain(queue);
  }

  #rewriteParented(): void {
    if (this.#parented.size === 0) return;
    this.#platform.frames.invalidate();
    this.#tracker.rewriteWorldNodes();
  }

  /** The loop let go of the adapters (`dispose` of either): forget everything. */
  #forget(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#tracker.detach();
    for (const [object3d] of this.#bodyOf) this.#unbind(object3d, -1);
    this.#listeners.clear();
    this.#platform.clear();
  }

  #unbind(object3d: Object3D, slot: number): void {
    const body = this.#bodyOf.get(object3d) as RapierRigidBody;
    if (slot >= 0) this.#platform.unbind(object3d, slot);
    this.#bodyOf.delete(object3d);
    this.#objectOf.delete(body);
    this.#parented.delete(object3d);
  }

  #checkBound(object3d: Object3D): void {
    if (!this.#bodyOf.has(object3d)) {
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

function checkTrackOptions(options: TrackOptions): void {
  if (options === null || typeof options !== 'object') {
    throw optionError('options', options, 'an object');
  }
  if (options.interpolation !== undefined) {
    checkInterpolationMode(options.interpolation, 'interpolation');
  }
}
