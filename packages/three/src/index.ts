/**
 * `@fixedtick/three`: the fixed-timestep loop for three.js. Tracked objects move in fixed steps
 * and render interpolated, at any refresh rate. Re-exports the whole of `@fixedtick/core`, so
 * this is the only package a three.js project installs.
 * @packageDocumentation
 */
export * from '@fixedtick/core';
export * from '@fixedtick/core/input';
export * from '@fixedtick/core/interpolation';
export * from '@fixedtick/core/node';
export * from '@fixedtick/core/tracking';
export { animationLoopDriver, type ThreeRenderer } from './animation-loop-driver.ts';
export { ThreeFixedLoop, type ThreeFixedLoopOptions } from './three-fixed-loop.ts';
export { ThreePlatform } from './three-platform.ts';
