/**
 * What an engine adapter sees of a frame (Bevy's `Res<Time>`): the step the frame runs with, its
 * steps, the tick, and — from the interpolation pass on — its alpha. One object per loop, updated
 * in place as the frame goes (frames allocate nothing), so read it inside the call it is passed
 * to; keep numbers, not the object.
 *
 * A `fixedDelta` or `tickRate` set during a frame applies when the frame ends
 * (docs/timing-model.md): the context keeps the step the frame began with, so `fixedUpdate`, the
 * physics engines and the interpolation all see one step per frame.
 */
export interface FrameContext {
  /** Seconds per step in this frame: the step every step of this frame runs with. */
  readonly fixedDelta: number;
  /**
   * Overstep fraction in [0, 1]: how far rendering is between the last two steps. The frame's
   * own from the interpolation pass on; before it, the previous frame's.
   */
  readonly alpha: number;
  /** The number of the step being run (in a step's calls), else the steps run since creation. */
  readonly tick: number;
  /** Steps this frame runs. */
  readonly steps: number;
  /** True in the calls of the frame's last step (`physicsStep`, `afterStep`). */
  readonly lastStep: boolean;
}

/** The {@link FrameContext} as the frame dispatch writes it. @internal */
export type MutableFrameContext = { -readonly [K in keyof FrameContext]: FrameContext[K] };

/** A context before any frame: no step run, alpha 0. @internal */
export function newFrameContext(fixedDelta: number): MutableFrameContext {
  return { fixedDelta, alpha: 0, tick: 0, steps: 0, lastStep: false };
}
