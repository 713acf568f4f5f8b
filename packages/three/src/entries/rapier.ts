/**
 * `@fixedtick/three/rapier`: Rapier rigid bodies stepped at the loop's fixed tick and drawn
 * interpolated in three.js. `@dimforge/rapier3d-compat` (or another Rapier 3D build with the
 * same API) is an optional peer dependency: this entry never imports it, it steps the `World`
 * you give it.
 *
 * @example
 * ```ts
 * import RAPIER from '@dimforge/rapier3d-compat';
 * import { ThreeFixedLoop } from '@fixedtick/three';
 * import { RapierPhysics } from '@fixedtick/three/rapier';
 *
 * await RAPIER.init();
 * const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 * const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
 * const physics = new RapierPhysics(loop, world);
 * physics.add(mesh, world.createRigidBody(RAPIER.RigidBodyDesc.dynamic()));
 * ```
 * @packageDocumentation
 */

export {
  type ColliderFromMeshOptions,
  type ColliderShape,
  colliderFromMesh,
  type RapierColliderDescLike,
  type RapierColliderFactories,
} from '../rapier/colliders.ts';
export type {
  CollisionEvent,
  CollisionListener,
  ContactForceEvent,
  ContactForceListener,
} from '../rapier/collision-events.ts';
export {
  type RapierDebugCollider,
  RapierDebugLines,
  type RapierDebugLinesOptions,
  type RapierDebugWorld,
} from '../rapier/debug-lines.ts';
export type { RapierPhysicsOptions } from '../rapier/physics-options.ts';
export { RapierPhysics } from '../rapier/rapier-physics.ts';
export type {
  RapierCollider,
  RapierContactForceEvent,
  RapierEventQueue,
  RapierRigidBody,
  RapierRotation,
  RapierVector,
  RapierWorld,
} from '../rapier/rapier-types.ts';
export { RemovedBodyError } from '../rapier/removed-bodies.ts';
export type {
  NodeWorkerLike,
  WebWorkerLike,
} from '../rapier/worker/main-side-port.ts';
export {
  type WorkerFault,
  WorkerPhysicsError,
} from '../rapier/worker/worker-faults.ts';
export type {
  WorkerPhysicsOptions,
  WorkerTransport,
} from '../rapier/worker/worker-options.ts';
export {
  WorkerPhysics,
  type WorkerStatus,
} from '../rapier/worker/worker-physics.ts';
