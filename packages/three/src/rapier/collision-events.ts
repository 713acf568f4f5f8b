/**
 * Rapier's events, drained once per step from the `EventQueue` the world was stepped with and
 * handed to listeners inside that step (after Rapier's step, before `postSimulation`), with the
 * meshes bound to the colliders' bodies.
 *
 * One event object per kind is reused for every event, so dispatch allocates nothing; copy what
 * you keep. A listener that throws does not lose the other listeners or the other events: every
 * event is delivered, then the first error is rethrown and the loop reports it (`onError`).
 */
import type { Unsubscribe } from '@fixedtick/core';
import { optionError } from '@fixedtick/core';
import type { Object3D } from 'three';
import type {
  RapierCollider,
  RapierContactForceEvent,
  RapierEventQueue,
  RapierRigidBody,
  RapierWorld,
} from './rapier-types.ts';

/** Two colliders started or stopped touching (Rapier's `drainCollisionEvents`). */
export interface CollisionEvent {
  /** True when they started touching (or a sensor started to overlap), false when they stopped. */
  started: boolean;
  /** The first collider (Rapier's `Collider` object). */
  collider1: RapierCollider;
  /** The second collider. */
  collider2: RapierCollider;
  /** The mesh bound (`physics.add`) to the first collider's body, or `null`. */
  object1: Object3D | null;
  /** The mesh bound to the second collider's body, or `null`. */
  object2: Object3D | null;
}

/** A contact force above a collider's threshold (Rapier's `drainContactForceEvents`). */
export interface ContactForceEvent {
  /** The first collider. */
  collider1: RapierCollider;
  /** The second collider. */
  collider2: RapierCollider;
  /** The mesh bound to the first collider's body, or `null`. */
  object1: Object3D | null;
  /** The mesh bound to the second collider's body, or `null`. */
  object2: Object3D | null;
  /** Rapier's event (total force, strongest direction…), valid only during the call. */
  raw: RapierContactForceEvent;
}

/** Called for each collision event, inside the fixed step. */
export type CollisionListener = (event: CollisionEvent) => void;
/** Called for each contact force event, inside the fixed step. */
export type ContactForceListener = (event: ContactForceEvent) => void;

/** The listeners of one `RapierPhysics` and the dispatch of each step's events to them. */
export class CollisionEvents {
  readonly #world: RapierWorld;
  readonly #objectOf: (body: RapierRigidBody | null) => Object3D | null;
  #collision: CollisionListener[] = [];
  #force: ContactForceListener[] = [];
  #error: { error: unknown } | undefined;
  readonly #event = {} as CollisionEvent;
  readonly #forceEvent = {} as ContactForceEvent;
  /** Rapier's collision callback, made once: `(handle1, handle2, started)`. */
  readonly #onCollision = (handle1: number, handle2: number, started: boolean): void => {
    const event = this.#fill(this.#event, handle1, handle2);
    if (event === undefined) return;
    event.started = started;
    const listeners = this.#collision;
    for (let i = 0; i < listeners.length; i++) this.#call(listeners[i], event);
  };
  readonly #onForce = (raw: RapierContactForceEvent): void => {
    const event = this.#fill(this.#forceEvent, raw.collider1(), raw.collider2());
    if (event === undefined) return;
    event.raw = raw;
    const listeners = this.#force;
    for (let i = 0; i < listeners.length; i++) this.#call(listeners[i], event);
  };

  /** @param objectOf the mesh bound to a body, or `null`. */
  constructor(world: RapierWorld, objectOf: (body: RapierRigidBody | null) => Object3D | null) {
    this.#world = world;
    this.#objectOf = objectOf;
  }

  /** True if any listener is subscribed. */
  get listening(): boolean {
    return this.#collision.length + this.#force.length > 0;
  }

  /** Subscribes to collision events; returns the unsubscribe function. */
  onCollision(listener: CollisionListener): Unsubscribe {
    checkListener(listener, 'onCollision');
    this.#collision = [...this.#collision, listener];
    return () => {
      this.#collision = this.#collision.filter((l) => l !== listener);
    };
  }

  /** Subscribes to contact force events; returns the unsubscribe function. */
  onContactForce(listener: ContactForceListener): Unsubscribe {
    checkListener(listener, 'onContactForce');
    this.#force = [...this.#force, listener];
    return () => {
      this.#force = this.#force.filter((l) => l !== listener);
    };
  }

  /** Hands the step's events in `queue` to the listeners; rethrows the first listener error. */
  drain(queue: RapierEventQueue): void {
    if (this.#collision.length > 0) queue.drainCollisionEvents(this.#onCollision);
    if (this.#force.length > 0) queue.drainContactForceEvents(this.#onForce);
    const failed = this.#error;
    this.#error = undefined;
    if (failed !== undefined) throw failed.error;
  }

  /** Drops every listener. */
  clear(): void {
    this.#collision = [];
    this.#force = [];
  }

  /** Fills the colliders and meshes of `event`; `undefined` if a collider is already gone. */
  #fill<E extends CollisionEvent | ContactForceEvent>(
    event: E,
    handle1: number,
    handle2: number,
  ): E | undefined {
    const collider1 = this.#world.getCollider(handle1);
    const collider2 = this.#world.getCollider(handle2);
    if (!collider1 || !collider2) return undefined;
    event.collider1 = collider1;
    event.collider2 = collider2;
    event.object1 = this.#objectOf(collider1.parent());
    event.object2 = this.#objectOf(collider2.parent());
    return event;
  }

  #call<E>(listener: (event: E) => void, event: E): void {
    try {
      listener(event);
    } catch (error) {
      this.#error ??= { error };
    }
  }
}

function checkListener(listener: unknown, name: string): void {
  if (typeof listener !== 'function') {
    throw new TypeError(optionError(name, listener, 'a function').message);
  }
}
