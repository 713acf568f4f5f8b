/**
 * `@fixedtick/core`: the engine-agnostic fixed-timestep loop — clock, hooks, clamps, presets,
 * the browser driver and integration helpers. Imports no engine and touches no DOM at module
 * load. The rest is in subpaths, so a game pays only for what it imports:
 * `@fixedtick/core/input` (input latch, recordings), `@fixedtick/core/node` (the headless
 * driver), `@fixedtick/core/interpolation` (pose buffers, for adapter authors),
 * `@fixedtick/core/debug` (timing graph) and the `unity` / `godot` / `roblox` facades.
 * @packageDocumentation
 */
export {
  AUTO_MAX_STEPS_SECONDS,
  DEFAULT_FIXED_DELTA,
  DEFAULT_MAX_DELTA_TIME,
  DEFAULT_MAX_STEPS_PER_FRAME,
  MAX_DURATION,
  MAX_FIXED_DELTA,
  MAX_TOLERANCE_STEPS,
  STEP_TOLERANCE,
} from './constants.ts';
export type { Driver, FrameSink } from './driver.ts';
export {
  type FrameCallbackDriverOptions,
  type FrameCallbackSource,
  frameCallbackDriver,
  type VisibilityDocument,
} from './drivers/frame-callback-driver.ts';
export { type RafDriverOptions, type RafHost, rafDriver } from './drivers/raf-driver.ts';
export { FixedLoop } from './fixed-loop.ts';
export type { FrameContext } from './frame-context.ts';
export type { ListenerOptions, Unsubscribe } from './hook.ts';
export {
  damp,
  decay,
  explicitEuler,
  integrate,
  type NumericArray,
  rk4,
  type ScalarAcceleration,
  type ScalarState,
  semiImplicitEuler,
  type VectorState,
  verlet,
} from './integrate.ts';
export type { InterpolationMode } from './interpolation/pose-layout.ts';
export type { LoopAdapter } from './loop-adapter.ts';
export type {
  AnomalyKind,
  AnomalyListener,
  DroppedListener,
  ErrorListener,
  FrameInfo,
  FrameListener,
  LoopStats,
  StepListener,
} from './loop-types.ts';
export {
  checkInterpolationMode,
  type ErrorPolicy,
  type FixedLoopOptions,
  LOOP_OPTION_NAMES,
  optionError,
  type ResolvedLoopOptions,
  resolveOptions,
} from './options.ts';
export { type Preset, presets } from './presets.ts';
export { JITTER_FIX_HISTORY } from './step-history.ts';
