/**
 * `@fixedtick/core/interpolation`: the pieces adapters are built from — the packed
 * {@link PoseBuffer} of simulation and render poses, and the exact lerp / shortest-arc slerp /
 * extrapolation it uses. Games get all of this through `@fixedtick/three` or
 * `@fixedtick/babylon`; a separate entry so a game that only runs the loop never ships it.
 * @packageDocumentation
 */
export {
  estimateAngularVelocity,
  extrapolate,
  extrapolateRotation,
  lerp,
  SLERP_NLERP_THRESHOLD,
  slerp,
} from '../interpolation/math.ts';
export { PoseBuffer } from '../interpolation/pose-buffer.ts';
export {
  type InterpolationMode,
  POSE_STRIDE,
  POSITION_OFFSET,
  ROTATION_OFFSET,
  SCALE_OFFSET,
  VELOCITY_STRIDE,
} from '../interpolation/pose-layout.ts';
