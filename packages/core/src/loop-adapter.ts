/**
 * What an engine adapter fills in (floating-ui's `Platform` idea): the core calls these at fixed
 * points of the frame and knows nothing of the engine behind them. Every member is optional. A
 * throwing member is reported like a throwing listener.
 *
 * An adapter sees the frame through a {@link FrameContext} (alpha, `fixedDelta`, tick, steps,
 * last step), not through the loop: a value set on the loop mid-frame cannot leak into half a
 * frame, and adapters depend on the frame's numbers only (docs/timing-model.md).
 */
import type { FrameContext } from './frame-context.ts';

/** An engine adapter of a `FixedLoop`; see the module doc. */
export interface LoopAdapter {
  /** Once per frame after `frameStart`, before any step (even if none runs): detect teleports. */
  beginFrame?(frame: FrameContext): void;
  /** Once per frame, before the first step of a frame that runs steps: restore simulation poses. */
  beforeSteps?(frame: FrameContext): void;
  /** Once per step, between `fixedUpdate` and `postSimulation`: the physics engine's step. */
  physicsStep?(fixedDelta: number, frame: FrameContext): void;
  /** Once per step, after `postSimulation`: capture the new simulation pose. */
  afterStep?(fixedDelta: number, frame: FrameContext): void;
  /** Once per frame, after the steps: write interpolated (render) poses for `frame.alpha`. */
  interpolate?(frame: FrameContext): void;
  /** Once per frame, after `preRender`: draw. */
  render?(frame: FrameContext): void;
  /** `loop.resetInterpolation()`: forget every previous pose (everything teleports). */
  resetInterpolation?(): void;
  /** The loop is being disposed or the adapter removed. */
  detach?(): void;
}
