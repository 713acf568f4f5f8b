/**
 * What one frame did. The loop returns the same object every frame (so frames allocate
 * nothing): copy it (`{ ...info }`) if you keep it.
 */
export interface FrameInfo {
  /** Fixed steps run this frame. */
  steps: number;
  /** Overstep fraction after the frame, in [0, 1]: how far rendering is between two steps. */
  alpha: number;
  /** Game time this frame advanced, in seconds (scaled, after the clamps). */
  delta: number;
  /**
   * Real time this frame lasted, in seconds: the sanitised frame time, never clamped and not
   * changed by capture mode or the time scale (a hidden page's gap included).
   */
  unscaledDelta: number;
  /** Game time dropped this frame by the clamps, the cap or a hidden page, in seconds. */
  dropped: number;
}

/** Running totals of a loop. Read-only view; the loop updates it in place. */
export interface LoopStats {
  /** Frames run. */
  readonly frames: number;
  /** Fixed steps run. */
  readonly steps: number;
  /** Game time dropped by the clamps, in seconds (saturates at `Number.MAX_VALUE`). */
  readonly droppedTime: number;
  /** Bad frame times (NaN, negative, infinite, backwards timestamps) sanitised to 0 s. */
  readonly anomalies: number;
  /** Steps run by the last frame. */
  readonly lastSteps: number;
}

/** Kind of a sanitised frame time, passed to `onAnomaly`. */
export type AnomalyKind = 'nan' | 'negative' | 'infinite' | 'backwards';

/** A per-step listener: `(fixedDelta, tick)`; `tick` is the number of the step being run. */
export type StepListener = (fixedDelta: number, tick: number) => void;
/** A per-frame listener: `(delta, alpha)`. */
export type FrameListener = (delta: number, alpha: number) => void;
/** An `onStepsDropped` listener: whole steps dropped and the game time they stood for. */
export type DroppedListener = (steps: number, seconds: number) => void;
/** An `onAnomaly` listener: what was wrong and the raw value. */
export type AnomalyListener = (kind: AnomalyKind, value: number) => void;
/** An `onError` listener: the error and the name of the hook or adapter call it came from. */
export type ErrorListener = (error: unknown, source: string) => void;
