/**
 * `@fixedtick/react-three/rapier`: Rapier rigid bodies in React Three Fiber, stepped at the
 * fixed tick and drawn interpolated — `<FixedRapier world>` under `<FixedTick>` runs
 * `@fixedtick/three/rapier`'s `RapierPhysics`, `useRapierBody(ref, body)` binds a mesh to a
 * body; `<FixedRapierWorker worker>` puts the world in a worker (`WorkerPhysics`) and
 * `useWorkerBody(ref, id)` draws a worker's body into a mesh. `@dimforge/rapier3d-compat` is an optional peer: this entry never imports it, it steps
 * the `World` you give it. Re-exports `@fixedtick/three/rapier`.
 * @packageDocumentation
 */
export * from '@fixedtick/three/rapier';
export {
  FixedRapier,
  type FixedRapierProps,
  useRapierPhysics,
} from '../rapier/fixed-rapier.tsx';
export {
  FixedRapierWorker,
  type FixedRapierWorkerProps,
  useWorkerPhysics,
} from '../rapier/fixed-rapier-worker.tsx';
export { useRapierBody } from '../rapier/use-rapier-body.ts';
export { useRapierInstances } from '../rapier/use-rapier-instances.ts';
export { useWorkerBody } from '../rapier/use-worker-body.ts';
