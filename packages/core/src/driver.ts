/**
 * What a driver feeds: the loop's two frame entry points. {@link FixedLoop} implements it.
 */
export interface FrameSink {
  /** One display frame at `timestampMs` (rAF-style, milliseconds). */
  frame(timestampMs: number): unknown;
  /**
   * One frame at `timestampMs` after a gap that must not be simulated (the page was hidden):
   * all time since the last frame is dropped instead of run as a burst of steps.
   */
  frameAfterGap(timestampMs: number): unknown;
}

/**
 * Something that calls the loop once per display frame: `requestAnimationFrame`, three's
 * `setAnimationLoop`, Babylon's `runRenderLoop`, a Node timer. The core never touches a DOM or an
 * engine itself; drivers do, and only once started.
 */
export interface Driver {
  /** Begins calling `sink` once per frame. */
  start(sink: FrameSink): void;
  /** Stops calling the sink; the driver may be started again. */
  stop(): void;
}
