/**
 * `@fixedtick/react-three`: the fixed-timestep loop for React Three Fiber. `<FixedTick>` inside
 * `<Canvas>` owns one `ThreeFixedLoop` driven by R3F's frame loop; hooks subscribe components to
 * its fixed steps and frames (`useFixedUpdate`, `useUpdate`, …), track meshes so they are drawn
 * interpolated (`useTracked`) and latch input for the steps (`useInputLatch`). Re-exports the
 * whole of `@fixedtick/three` (and so of `@fixedtick/core`), so this is the only Fixedtick
 * package an R3F project installs. Rapier bodies: `@fixedtick/react-three/rapier`.
 * @packageDocumentation
 */
export * from '@fixedtick/three';
export { DEFAULT_FRAME_PRIORITY, FixedTick, type FixedTickProps } from './fixed-tick.tsx';
export {
  useFixedLoop,
  useFixedUpdate,
  useLateUpdate,
  usePostSimulation,
  usePreRender,
  useUpdate,
} from './loop-hooks.ts';
export type { FixedTickLoopOptions } from './loop-options.ts';
export { type UseInputLatchOptions, useInputLatch } from './use-input-latch.ts';
export { type UseTrackedOptions, useTracked } from './use-tracked.ts';
