/**
 * What the user's worker module writes against: the set-up callback's scope (bodies by id,
 * teleports, messages to the main thread, the tick and its input) and the fixed-step code it
 * returns.
 */

import type { TickInput } from '@fixedtick/core/net';
import { kindError } from '@fixedtick/core/tracking';
import type { RapierEventQueue, RapierRigidBody, RapierWorld } from '../rapier-types.ts';

/** A position as `teleport` takes it. */
export interface WorkerVector {
  /** X. */
  x: number;
  /** Y. */
  y: number;
  /** Z. */
  z: number;
}

/** A rotation quaternion as `teleport` takes it. */
export interface WorkerRotation extends WorkerVector {
  /** Scalar part. */
  w: number;
}

/**
 * The worker side of `WorkerPhysics`, handed to the set-up callback of `runPhysicsWorker` and to
 * every step: publish bodies by id, move them, read the tick's input, talk to the main thread.
 */
export interface PhysicsWorkerScope {
  /**
   * The tick being stepped (inside `fixedUpdate` / `postSimulation`: what `loop.tick` reads in
   * the main loop's `fixedUpdate`, 0 in the first step), else the last one stepped. Its frame
   * is published as tick + 1, the state after it (what `loop.tick` reads after the step).
   */
  readonly tick: number;
  /** Seconds of the tick being stepped (the main loop's `fixedDelta`). */
  readonly fixedDelta: number;
  /**
   * The main thread's `InputLatch` as this tick sees it (the latch given to `WorkerPhysics`):
   * `pressed`, `released`, `held`, `pointerX`, `pointerY` — the same answers, at the same ticks.
   */
  readonly input: TickInput;
  /**
   * Publishes `body` as `id` (a whole number the main thread binds meshes to) from the next
   * frame on; publishing an id again gives it another body. Its first frame is drawn as a
   * teleport (no streak from where the mesh was).
   */
  add(id: number, body: RapierRigidBody): void;
  /**
   * Stops publishing `id` (its mesh keeps its last pose): call it before
   * `world.removeRigidBody(body)`. False if `id` was not published.
   */
  remove(id: number): boolean;
  /** The body published as `id`, or `undefined`. */
  body(id: number): RapierRigidBody | undefined;
  /**
   * Moves body `id` to `position` (and `rotation`, if given), wakes it, keeps its velocity, and
   * marks it teleported in the next frame: drawn there in the frame of that tick, no streak.
   */
  teleport(id: number, position: WorkerVector, rotation?: WorkerRotation): void;
  /** Sends `data` (structured-cloneable) to the main side's `onMessage` listeners. */
  post(data: unknown): void;
}

/** The fixed-step code the set-up callback returns. */
export interface PhysicsWorkerCode {
  /** The world stepped once per tick, with `timestep` set to the tick's `fixedDelta`. */
  world: RapierWorld;
  /** The `EventQueue` to step the world with; drain it in `postSimulation`. */
  events?: RapierEventQueue;
  /** Each tick before `world.step()`: forces, impulses, spawning (main mode's `fixedUpdate`). */
  fixedUpdate?(scope: PhysicsWorkerScope): void;
  /** Each tick after `world.step()`, before the poses are published (`postSimulation`). */
  postSimulation?(scope: PhysicsWorkerScope): void;
  /**
   * A message from the main side's `post(data)`, at the tick boundary it was sent at: after
   * the step of the tick the main loop had run, before the next one.
   */
  onMessage?(data: unknown, scope: PhysicsWorkerScope): void;
}

/** The callback `runPhysicsWorker` calls once: make the world and its bodies, return the step code. */
export type PhysicsWorkerSetup = (
  scope: PhysicsWorkerScope,
) => PhysicsWorkerCode | Promise<PhysicsWorkerCode>;

/** Checks a body argument of the worker's scope. @internal */
export function checkWorkerBody(body: RapierRigidBody): void {
  if (typeof body?.translation !== 'function' || typeof body.angvel !== 'function') {
    throw kindError('body', body, 'a Rapier RigidBody');
  }
}

/** Checks an id argument: a whole number that fits an Int32. @internal */
export function checkBodyId(id: number): void {
  if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31) {
    throw new RangeError(`fixedtick: option "id" must be a 32-bit whole number, got ${String(id)}`);
  }
}
