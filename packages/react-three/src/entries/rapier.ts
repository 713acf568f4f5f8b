/**
 * `@fixedtick/react-three/rapier`: Rapier rigid bodies in React Three Fiber, stepped at the
 * fixed tick and drawn interpolated — `<FixedRapier world>` under `<FixedTick>` runs
 * `@fixedtick/three/rapier`'s `RapierPhysics`, `useRapierBody(ref, body)` binds a mesh to a
 * body. `@dimforge/rapier3d-compat` is an optional peer: this entry never imports it, it steps
 * the `World` you give it. Re-exports `@fixedtick/three/rapier`.
 * @packageDocumentation
 */
export * from '@fixedtick/three/rapier';
export {
  FixedRapier,
  type FixedRapierProps,
  useRapierPhysics,
} from '../rapier/fixed-rapier.tsx';
export { useRapierBody } from '../rapier/use-rapier-body.ts';
export { useRapierInstances } from '../rapier/use-rapier-instances.ts';
