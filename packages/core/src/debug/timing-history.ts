import type { FrameInfo } from '../fixed-loop.ts';
import { optionValueError } from '../input/describe-value.ts';

/**
 * How often the rates of a {@link TimingHistory} are recomputed, in seconds of real time: 4 Hz
 * reads steadily without turning every frame into a new string.
 */
export const TIMING_RATE_PERIOD = 0.25;

/**
 * Frames a {@link TimingHistory} keeps at most: 2²⁰ = 1 048 576, over 4.8 hours at 60 fps in
 * 14.7 MB. A graph shows a few hundred; the cap keeps a bad `frames` (`1e308`) from becoming a
 * raw "Invalid typed array length" error or an allocation of gigabytes.
 */
export const TIMING_MAX_FRAMES = 1 << 20;

/** Rates over the last completed period of a {@link TimingHistory}. */
export interface TimingRates {
  /** Frames per second of real time. */
  fps: number;
  /** Fixed steps run per second of real time (equals the tick rate when the loop keeps up). */
  stepsPerSecond: number;
  /** Game time dropped by the clamps, in milliseconds per second of real time. */
  droppedMsPerSecond: number;
  /** Sanitised bad frame times in the period. */
  anomalies: number;
  /** Mean main-thread time of the period's frames, ms (0 when not measured). */
  mainThreadMs: number;
}

/**
 * The last `frames` frames of a loop, in ring buffers of typed arrays: what the timing graph
 * draws. Recording a frame allocates nothing, so the history can stay on in a shipped game.
 *
 * Frame time here is the real time the loop counted: the frame's real time (`unscaledDelta`)
 * less the real time of what the clamps cut off, which is kept apart as `dropped`, so a long
 * frame reads as "simulated part + dropped part".
 */
export class TimingHistory {
  /** Capacity: how many frames are kept. */
  readonly capacity: number;
  /** Counted real time per frame, ms. */
  readonly frameMs: Float32Array;
  /** Game time dropped per frame, ms. */
  readonly droppedMs: Float32Array;
  /** Overstep fraction after each frame, 0..1. */
  readonly alpha: Float32Array;
  /** Fixed steps run per frame (saturates at 255). */
  readonly steps: Uint8Array;
  /** Sanitised bad frame times per frame (saturates at 255). */
  readonly anomalies: Uint8Array;
  /** Main-thread time each frame took, ms: the loop's own work, not the wait between frames (0 when not measured). */
  readonly mainThreadMs: Float32Array;

  /** Rates of the last completed period; updated in place every {@link TIMING_RATE_PERIOD} s. */
  readonly rates: TimingRates = {
    fps: 0,
    stepsPerSecond: 0,
    droppedMsPerSecond: 0,
    anomalies: 0,
    mainThreadMs: 0,
  };

  #head = 0;
  #length = 0;
  #periodTime = 0;
  #periodFrames = 0;
  #periodSteps = 0;
  #periodDropped = 0;
  #periodAnomalies = 0;
  #periodMainThread = 0;
  #ratesVersion = 0;

  /**
   * @param capacity frames kept: a whole number from 1 to {@link TIMING_MAX_FRAMES}.
   * @throws RangeError naming `frames` for any other value.
   */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > TIMING_MAX_FRAMES) {
      throw optionValueError('frames', capacity, `a whole number from 1 to ${TIMING_MAX_FRAMES}`);
    }
    this.capacity = capacity;
    this.frameMs = new Float32Array(capacity);
    this.droppedMs = new Float32Array(capacity);
    this.alpha = new Float32Array(capacity);
    this.steps = new Uint8Array(capacity);
    this.anomalies = new Uint8Array(capacity);
    this.mainThreadMs = new Float32Array(capacity);
  }

  /** Frames recorded so far, up to `capacity`. */
  get length(): number {
    return this.#length;
  }

  /**
   * Bumped each time {@link rates} is recomputed: a drawer redraws its text only when it
   * changes.
   */
  get ratesVersion(): number {
    return this.#ratesVersion;
  }

  /**
   * Records one frame. `timeScale` converts dropped game time back to real time (`0` when
   * paused: dropped time then counts as nothing); `mainThreadMs` is what the frame's work took
   * on the main thread, when measured.
   */
  record(info: Readonly<FrameInfo>, anomalies: number, timeScale: number, mainThreadMs = 0): void {
    const at = this.#head;
    const dropped = Math.max(info.dropped, 0);
    const droppedReal = timeScale > 0 ? dropped / timeScale : 0;
    this.frameMs[at] = Math.max(info.unscaledDelta - droppedReal, 0) * 1000;
    this.droppedMs[at] = dropped * 1000;
    this.alpha[at] = info.alpha;
    this.steps[at] = Math.min(info.steps, 255);
    this.anomalies[at] = Math.min(anomalies, 255);
    this.mainThreadMs[at] = mainThreadMs;
    this.#head = at + 1 === this.capacity ? 0 : at + 1;
    if (this.#length < this.capacity) this.#length++;

    this.#periodTime += info.unscaledDelta;
    this.#periodFrames++;
    this.#periodSteps += info.steps;
    this.#periodDropped += dropped;
    this.#periodAnomalies += anomalies;
    this.#periodMainThread += mainThreadMs;
    if (this.#periodTime >= TIMING_RATE_PERIOD) {
      const t = this.#periodTime;
      const rates = this.rates;
      rates.fps = this.#periodFrames / t;
      rates.stepsPerSecond = this.#periodSteps / t;
      rates.droppedMsPerSecond = (this.#periodDropped * 1000) / t;
      rates.anomalies = this.#periodAnomalies;
      rates.mainThreadMs = this.#periodMainThread / this.#periodFrames;
      this.#periodTime = 0;
      this.#periodFrames = 0;
      this.#periodSteps = 0;
      this.#periodDropped = 0;
      this.#periodAnomalies = 0;
      this.#periodMainThread = 0;
      this.#ratesVersion++;
    }
  }

  /**
   * Buffer index of the `age`-th most recent frame (0 = the last one recorded), or -1 if that
   * frame is not kept.
   */
  indexOf(age: number): number {
    if (age < 0 || age >= this.#length) return -1;
    const i = this.#head - 1 - age;
    return i < 0 ? i + this.capacity : i;
  }

  /** Forgets every frame and the running period. */
  clear(): void {
    this.#head = 0;
    this.#length = 0;
    this.#periodTime = 0;
    this.#periodFrames = 0;
    this.#periodSteps = 0;
    this.#periodDropped = 0;
    this.#periodAnomalies = 0;
    this.#periodMainThread = 0;
  }
}
