/**
 * How a {@link FixedLoop} takes a frame in: the frame time sanitised (bad values count as 0 s and
 * as an anomaly), rAF timestamps turned into frame times, the re-entrancy guard (a frame started
 * from inside a frame is refused before it changes anything), a step set during a frame held
 * until the frame ends, and the frame's error rethrown under `errorPolicy: 'throw'`. The
 * arithmetic is {@link FixedClock}'s and the calls are {@link FrameDispatch}'s; the loop is the
 * public face over the three.
 * @internal
 */
import { STEP_TOLERANCE } from './constants.ts';
import type { FixedClock } from './fixed-clock.ts';
import type { FrameDispatch, MutableLoopStats } from './frame-dispatch.ts';
import { anomalyKind, isFrameTime, TimestampClock } from './frame-times.ts';
import type { AnomalyKind, FrameInfo } from './loop-types.ts';

/** Takes a loop's frames in; see the module doc. */
export class FrameRunner {
  readonly clock: FixedClock;
  readonly dispatch: FrameDispatch;
  readonly stats: MutableLoopStats = {
    frames: 0,
    steps: 0,
    droppedTime: 0,
    anomalies: 0,
    lastSteps: 0,
  };
  readonly info: FrameInfo = { steps: 0, alpha: 0, delta: 0, unscaledDelta: 0, dropped: 0 };
  /** Between `pause()` and `resume()`. */
  paused = false;
  /** Set by `dispose()`: frames run nothing from then on. */
  disposed = false;
  /** See `FixedLoop.frameTimestampMs`. */
  frameTimestampMs = Number.NaN;
  readonly #timestamps = new TimestampClock();
  /** A step set during a frame, applied when the frame ends (0 = none). */
  #nextFixedDelta = 0;
  #nextTickRate = 0;
  #inFrame = false;
  // A frame's inputs besides the times (which go into the clock's input fields), in fields
  // rather than arguments: docs/performance.md, "The loop".
  #inForcedSteps = 0;
  #inAnomaly: AnomalyKind | undefined;
  #inAnomalyValue: unknown;

  /**
   * @param clock the loop's clock.
   * @param dispatch the loop's hooks and adapters.
   */
  constructor(clock: FixedClock, dispatch: FrameDispatch) {
    this.clock = clock;
    this.dispatch = dispatch;
  }

  /** The step in force, or the one set during the frame under way (it applies when it ends). */
  get fixedDelta(): number {
    return this.#nextFixedDelta || this.clock.fixedDelta;
  }
  /** The tick rate matching {@link FrameRunner.fixedDelta}. */
  get tickRate(): number {
    return this.#nextTickRate || this.clock.tickRate;
  }

  /** Applies a step now, or when the frame under way ends (its steps keep the one they began). */
  setStep(fixedDelta: number, tickRate: number): void {
    if (this.#inFrame) {
      this.#nextFixedDelta = fixedDelta;
      this.#nextTickRate = tickRate;
      return;
    }
    this.clock.setStep(fixedDelta, tickRate);
  }

  /** Forgets the timestamp origin: the next `frame()` starts a new one. */
  resetTimestamps(): void {
    this.#timestamps.reset();
  }

  /** `FixedLoop.advance`: a frame that lasted `seconds`. */
  advance(seconds: number): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    this.frameTimestampMs = Number.NaN;
    const clock = this.clock;
    if (isFrameTime(seconds)) {
      clock.frameTime = seconds;
      this.#inAnomaly = undefined;
    } else {
      clock.frameTime = 0;
      this.#inAnomaly = anomalyKind(seconds);
      this.#inAnomalyValue = seconds;
    }
    clock.gapTime = 0;
    clock.tolerance = STEP_TOLERANCE;
    this.#inForcedSteps = 0;
    return this.#runGuarded();
  }

  /** `FixedLoop.frame` (`gap` false) and `FixedLoop.frameAfterGap` (`gap` true). */
  frame(timestampMs: number, gap: boolean): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    const timestamps = this.#timestamps;
    timestamps.take(timestampMs, this.clock.fixedDelta);
    this.frameTimestampMs = Number.isFinite(timestampMs) ? timestampMs : Number.NaN;
    this.clock.tolerance = timestamps.tolerance;
    this.#inForcedSteps = 0;
    this.#inAnomaly = timestamps.anomaly;
    if (timestamps.anomaly !== undefined) this.#inAnomalyValue = timestampMs;
    this.clock.frameTime = gap ? 0 : timestamps.seconds;
    this.clock.gapTime = gap ? timestamps.seconds : 0;
    return this.#runGuarded();
  }

  /** `FixedLoop.stepOnce`: exactly one step, as a frame of its own. */
  stepOnce(): FrameInfo {
    if (!this.#mayStartFrame()) return this.#idleFrame();
    this.frameTimestampMs = Number.NaN;
    this.clock.frameTime = 0;
    this.clock.gapTime = 0;
    this.clock.tolerance = STEP_TOLERANCE;
    this.#inForcedSteps = 1;
    this.#inAnomaly = undefined;
    return this.#runGuarded();
  }

  /**
   * Whether a frame may start now: false once disposed (the call then does nothing); throws when
   * called from inside a frame, before the call has changed anything.
   */
  #mayStartFrame(): boolean {
    if (this.disposed) return false;
    if (this.#inFrame) {
      throw new Error('fixedtick: a frame was started from inside a frame (re-entrant advance)');
    }
    return true;
  }

  /** The frame a disposed loop returns: nothing ran. */
  #idleFrame(): FrameInfo {
    const info = this.info;
    info.steps = 0;
    info.delta = 0;
    info.unscaledDelta = 0;
    info.dropped = 0;
    return info;
  }

  /** Runs the frame whose inputs are set, inside the re-entrancy guard (`onAnomaly` included). */
  #runGuarded(): FrameInfo {
    this.#inFrame = true;
    const dispatch = this.dispatch;
    try {
      const anomaly = this.#inAnomaly;
      if (anomaly !== undefined) {
        this.stats.anomalies++;
        dispatch.anomaly.emit(anomaly, this.#inAnomalyValue);
      }
      dispatch.run(this.clock, this.info, this.stats, this.#inForcedSteps, this.paused);
    } finally {
      this.#inFrame = false;
      dispatch.inFixedStep = false;
      this.clock.endFrame();
      if (this.#nextFixedDelta !== 0) {
        this.clock.setStep(this.#nextFixedDelta, this.#nextTickRate);
        this.#nextFixedDelta = 0;
        this.#nextTickRate = 0;
      }
    }
    const pending = dispatch.takeError();
    if (pending !== undefined) throw pending.error;
    return this.info;
  }
}
