/**
 * `@fixedtick/core/tracking`: the one tracker every engine adapter runs, and the platform
 * interface an engine fills in for it (floating-ui's `Platform` idea). Games get it through
 * `@fixedtick/three` or `@fixedtick/babylon`; write a {@link TrackingPlatform} to bring another
 * engine (the adapters' platforms are worked examples), and feed poses computed elsewhere through
 * a {@link PoseStream} (docs/tracking.md).
 * @packageDocumentation
 */

export {
  DEFAULT_RING_FRAMES,
  type PoseFrame,
  PoseRing,
  type PoseRingOptions,
  RING_POSE_FLOATS,
  RING_TELEPORTED,
} from '../streams/pose-ring.ts';
export {
  ALL_COMPONENTS,
  type ComponentMask,
  copyComponents,
  differingComponents,
  POSITION,
  REPARENTED,
  ROTATION,
  rowFromVectors,
  SCALE,
  vectorsDiffer,
  type XYZ,
  type XYZW,
} from '../tracking/components.ts';
export { composeMatrix, MATRIX_STRIDE } from '../tracking/instance-matrix.ts';
export type {
  InstancePlatform,
  NodeFastPaths,
  NodePlatform,
  PhysicsPlatform,
  TrackingPlatform,
} from '../tracking/platform.ts';
export {
  PoseStream,
  type PoseStreamOptions,
  type RenderTickSource,
  type StreamDrawCounts,
  type StreamDrawKind,
} from '../tracking/pose-stream.ts';
export { identityPose, poseFromRow, type SimulationPose } from '../tracking/simulation-pose.ts';
export {
  describeKind,
  type InstanceTrackOptions,
  kindError,
  type QuaternionLike,
  type TrackerOptions,
  type TrackOptions,
  type Vector3Like,
} from '../tracking/track-options.ts';
export { Tracker } from '../tracking/tracker.ts';
