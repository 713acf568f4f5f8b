/**
 * `@fixedtick/core`: the engine-agnostic fixed-timestep loop — clock, hooks, clamps, presets,
 * interpolation buffers, drivers and integration helpers. Imports no engine and touches no DOM
 * at module load.
 * @packageDocumentation
 */
export {
  DEFAULT_FIXED_DELTA,
  DEFAULT_MAX_DELTA_TIME,
  DEFAULT_MAX_STEPS_PER_FRAME,
  STEP_TOLERANCE,
} from './constants.ts';
export type { Driver, FrameSink } from './driver.ts';
export {
  type NodeDriver,
  type NodeDriverOptions,
  type NodeDriverStats,
  type NodeScheduler,
  nodeDriver,
} from './drivers/node-driver.ts';
export { type RafDriverOptions, type RafHost, rafDriver } from './drivers/raf-driver.ts';
export {
  type AnomalyKind,
  type AnomalyListener,
  type DroppedListener,
  type ErrorListener,
  FixedLoop,
  type FrameInfo,
  type FrameListener,
  type LoopAdapter,
  type LoopStats,
  type StepListener,
} from './fixed-loop.ts';
export type { ListenerOptions, Unsubscribe } from './hook.ts';
export {
  type BindKeyboardOptions,
  type BindPointerOptions,
  type KeyboardTarget,
  POINTER_BUTTONS,
  type PointerTarget,
} from './input/dom-bindings.ts';
export {
  type InputEventKind,
  InputLatch,
  type InputListener,
} from './input/input-latch.ts';
export { InputRecording, type ReplayOptions } from './input/input-recording.ts';
export {
  InputRecordingError,
  type InputRecordingJSON,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedEventJSON,
} from './input/recording-format.ts';
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
export {
  estimateAngularVelocity,
  extrapolate,
  extrapolateRotation,
  lerp,
  SLERP_NLERP_THRESHOLD,
  slerp,
} from './interpolation/math.ts';
export {
  type InterpolationMode,
  POSE_STRIDE,
  POSITION_OFFSET,
  PoseBuffer,
  ROTATION_OFFSET,
  SCALE_OFFSET,
  VELOCITY_STRIDE,
} from './interpolation/pose-buffer.ts';
export { JITTER_FIX_HISTORY } from './jitter-fix.ts';
export type { ErrorPolicy, FixedLoopOptions, ResolvedLoopOptions } from './options.ts';
export { type Preset, presets } from './presets.ts';
