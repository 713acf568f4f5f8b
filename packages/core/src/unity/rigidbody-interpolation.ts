/**
 * Unity's `RigidbodyInterpolation`, spelled so a ported script keeps its line
 * `body.interpolation = RigidbodyInterpolation.Interpolate`.
 *
 * Each value *is* the core's interpolation mode string (`'none'`, `'interpolate'`,
 * `'extrapolate'`), so the two are interchangeable anywhere an interpolation mode is accepted:
 * `loop.track(mesh, { interpolation: RigidbodyInterpolation.Extrapolate })`.
 *
 * - `None`: render the latest simulation pose (moves in visible steps when the display is faster
 *   than the physics rate).
 * - `Interpolate`: blend the previous and current simulation poses by `alpha`: smooth, one step
 *   of visual lag.
 * - `Extrapolate`: advance the current pose by its velocity: no lag, but overshoots on impacts.
 * @see https://docs.unity3d.com/ScriptReference/RigidbodyInterpolation.html
 */
export const RigidbodyInterpolation = Object.freeze({
  /** No interpolation: the latest simulation pose. */
  None: 'none',
  /** Blend of the previous and current simulation poses: smooth, one step behind. */
  Interpolate: 'interpolate',
  /** Current pose advanced by its velocity: no lag, overshoots on impacts. */
  Extrapolate: 'extrapolate',
} as const);

/** One of the {@link RigidbodyInterpolation} values: `'none' | 'interpolate' | 'extrapolate'`. */
export type RigidbodyInterpolation =
  (typeof RigidbodyInterpolation)[keyof typeof RigidbodyInterpolation];
