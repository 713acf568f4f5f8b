/**
 * `@fixedtick/three/rapier/worker`: the worker side of physics in a worker. Your worker module
 * calls {@link runPhysicsWorker} with a set-up callback that makes the Rapier `World` and its
 * bodies and returns the fixed-step code; the main thread's `WorkerPhysics` (from
 * `@fixedtick/three/rapier`) drives it tick by tick and draws its bodies. Nothing here imports
 * three.js or Rapier: the module is small enough for a worker bundle. docs/rapier.md, "Physics
 * in a worker".
 *
 * @example
 * ```ts
 * // physics.worker.ts
 * import RAPIER from '@dimforge/rapier3d-compat';
 * import { runPhysicsWorker } from '@fixedtick/three/rapier/worker';
 *
 * runPhysicsWorker(async (scope) => {
 *   await RAPIER.init();
 *   const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 *   const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 5, 0));
 *   world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
 *   scope.add(1, body);
 *   return { world };
 * });
 * ```
 * @packageDocumentation
 */

export type { TickInput, TickInputEvent } from '@fixedtick/core/net';
export {
  type RunPhysicsWorkerOptions,
  runPhysicsWorker,
} from '../../rapier/worker/run-physics-worker.ts';
export type {
  PhysicsWorkerCode,
  PhysicsWorkerScope,
  PhysicsWorkerSetup,
  WorkerRotation,
  WorkerVector,
} from '../../rapier/worker/worker-scope.ts';
export type { PhysicsWorkerPort } from '../../rapier/worker/worker-side-port.ts';
