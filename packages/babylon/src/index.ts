/**
 * `@fixedtick/babylon`: the Babylon.js adapter of Fixedtick. It re-exports the whole core, so
 * this is the only package a Babylon project installs. Havok loading lives in the
 * `@fixedtick/babylon/havok` subpath, so scenes without Havok never load it.
 * @packageDocumentation
 */
export * from '@fixedtick/core';
export * from '@fixedtick/core/input';
export * from '@fixedtick/core/interpolation';
export * from '@fixedtick/core/node';
export * from '@fixedtick/core/tracking';
export {
  BabylonFixedLoop,
  type BabylonFixedLoopOptions,
  type TrackOptions,
} from './babylon-fixed-loop.ts';
export { type RenderLoopDriverOptions, renderLoopDriver } from './render-loop-driver.ts';
