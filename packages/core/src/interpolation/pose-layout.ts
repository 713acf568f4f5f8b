/**
 * The layout of a pose row, shared by the pose store, the kernels and every platform: ten
 * `Float64Array` numbers per slot — position `x y z`, rotation quaternion `x y z w`, scale
 * `x y z` — and six per slot in the velocity rows — linear `x y z`, angular `x y z` (rad/s,
 * axis-angle). 64-bit, so a pose written to an engine object and read back compares `===`, which
 * the tracker's write check relies on.
 */

/**
 * How a body is rendered between steps (Unity `RigidbodyInterpolation`, Godot
 * `physics_interpolation_mode`):
 * - `'none'`: the latest simulation pose. Up to one step of stutter at high refresh rates.
 * - `'interpolate'`: between the previous and the current pose. Smooth, one step of visual lag.
 * - `'extrapolate'`: past the current pose along the velocity. No lag, but overshoots when the
 *   velocity changes suddenly (a collision), then snaps back.
 */
export type InterpolationMode = 'none' | 'interpolate' | 'extrapolate';

/** Numbers per slot in the pose arrays: position 3, rotation quaternion 4, scale 3. */
export const POSE_STRIDE = 10;
/** Offset of position `x y z` within a pose row. */
export const POSITION_OFFSET = 0;
/** Offset of the rotation quaternion `x y z w` within a pose row. */
export const ROTATION_OFFSET = 3;
/** Offset of scale `x y z` within a pose row. */
export const SCALE_OFFSET = 7;
/** Numbers per slot in the velocity array: linear `x y z`, angular `x y z`. */
export const VELOCITY_STRIDE = 6;

/**
 * Numbers per slot in a slerp cache (see {@link interpolateRow}): the `dot`, `θ = acos(dot)` and
 * `sin θ` of the slot's last slerp.
 * @internal
 */
export const SLERP_CACHE_STRIDE = 3;

/**
 * Where the kernels read the frame's numbers: `alpha` at 0 and `fixedDelta` at 1 of a
 * `Float64Array` (V8 boxes a fractional number passed to a call it does not inline: a heap number
 * per call).
 * @internal
 */
export const CLOCK_ALPHA = 0;
/** See {@link CLOCK_ALPHA}. @internal */
export const CLOCK_FIXED_DELTA = 1;
