/**
 * The parts of Rapier's JavaScript API that `RapierPhysics` uses, declared structurally.
 *
 * `@dimforge/rapier3d-compat`'s classes satisfy these as they are; so do those of the other
 * Rapier 3D builds with the same API (`@dimforge/rapier3d`, `@dimforge/rapier3d-simd-compat`,
 * `@dimforge/rapier3d-deterministic-compat`), whose classes TypeScript would otherwise treat as
 * unrelated to the compat build's (they have private members). Nothing here is loaded at run
 * time: Fixedtick never imports Rapier, it calls the objects you hand it.
 */

/** A Rapier vector (`{ x, y, z }`). */
export interface RapierVector {
  /** X component. */
  x: number;
  /** Y component. */
  y: number;
  /** Z component. */
  z: number;
}

/** A Rapier rotation quaternion (`{ x, y, z, w }`). */
export interface RapierRotation extends RapierVector {
  /** Scalar part. */
  w: number;
}

/** A Rapier `RigidBody`: what `RapierPhysics` reads from and writes to it. */
export interface RapierRigidBody {
  /** Rapier's handle of the body. */
  readonly handle: number;
  /** The world-space translation, written into `target` (no allocation). */
  translation(target?: RapierVector): RapierVector;
  /** The world-space rotation, written into `target`. */
  rotation(target?: RapierRotation): RapierRotation;
  /** The linear velocity (m/s), written into `target`. */
  linvel(target?: RapierVector): RapierVector;
  /** The angular velocity (rad/s), written into `target`. */
  angvel(target?: RapierVector): RapierVector;
  /** True while Rapier keeps the body asleep (it does not move). */
  isSleeping(): boolean;
  /** Moves the body (a teleport); `wakeUp` wakes it. */
  setTranslation(translation: RapierVector, wakeUp: boolean): void;
  /** Turns the body (a teleport); `wakeUp` wakes it. */
  setRotation(rotation: RapierRotation, wakeUp: boolean): void;
}

/** A Rapier `Collider`, as collision events hand it over. */
export interface RapierCollider {
  /** Rapier's handle of the collider. */
  readonly handle: number;
  /** The body the collider is attached to, or `null`. */
  parent(): RapierRigidBody | null;
  /** True for a sensor (it reports intersections, it does not collide). */
  isSensor(): boolean;
}

/** A Rapier `TempContactForceEvent` (valid only during the listener call). */
export interface RapierContactForceEvent {
  /** Handle of the first collider. */
  collider1(): number;
  /** Handle of the second collider. */
  collider2(): number;
  /** Magnitude of the total contact force between them in this step (N). */
  totalForceMagnitude(): number;
}

/** A Rapier `EventQueue` (`new RAPIER.EventQueue(true)`). */
export interface RapierEventQueue {
  /** Hands every collision event of the last step to `f` and empties that list. */
  drainCollisionEvents(f: (handle1: number, handle2: number, started: boolean) => void): void;
  /** Hands every contact force event of the last step to `f` and empties that list. */
  drainContactForceEvents(f: (event: RapierContactForceEvent) => void): void;
}

/** A Rapier `World`: what `RapierPhysics` steps and looks up. */
export interface RapierWorld {
  /** Seconds one `step()` advances. */
  timestep: number;
  /** Advances the simulation by `timestep`, collecting events into `eventQueue` if given. */
  step(eventQueue?: RapierEventQueue): void;
  /** The collider with this handle (a collision event's), or `null`. */
  getCollider(handle: number): RapierCollider | null;
  /** The rigid body with this handle, or `null` once removed. */
  getRigidBody(handle: number): RapierRigidBody | null;
}
