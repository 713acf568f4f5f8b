/**
 * A client's map from the server's ticks to its own clock, with smooth drift correction.
 *
 * Why: a client sees the server only through messages that arrive late by a varying amount. To
 * draw remote entities it must know which server tick to show *now* (a little in the past, so the
 * next snapshot is already there: the render delay); to predict its own player it must know
 * which tick its input will arrive in time for (a little in the future: the lead). Both lines
 * move when the network's delay changes or the two machines' clocks run at slightly different
 * rates, and following them by jumping would make the picture stutter. This clock estimates the
 * lines from every stamped message and moves its output towards them at a bounded rate.
 *
 * The model (docs/multiplayer.md, "The latency model"):
 * - A message stamped with server tick `n` that arrives at local time `t` gives the sample
 *   `t - n * period`: the tick's fixed time plus this message's delay. The smallest sample of
 *   the last `window` is the **arrival line** (the least delayed path); the spread of the others
 *   above it is the **jitter** (their 95th percentile).
 * - **Render line** = arrival line + render delay, where the render delay is the snapshot
 *   interval plus the jitter plus `marginMs`: the snapshot after the drawn one has then almost
 *   always arrived. It adapts as the jitter does.
 * - **Prediction line** = arrival line − (round trip + jitter + `marginMs`): input stamped for
 *   that tick, sent now, reaches the server before it runs the tick.
 *
 * Guarantees:
 * - Between snaps the output tick moves at a rate within `1 ± maxSlew` of real time: never
 *   backwards, never faster than `1 + maxSlew`.
 * - An error larger than `snapMs` (a new connection, a long stall) is corrected at once; the
 *   render line's snaps are counted in `snaps`.
 * - `update()` changes the output; the getters only read (three.js `Timer` style).
 *
 * @example
 * ```ts
 * const clock = new TickClock({ tickRate: 60 });
 * room.onStateChange((state) => clock.observe(state.tick, performance.now()));
 * loop.onFrameStart(() => clock.update(performance.now()));
 * loop.onUpdate(() => remotes.sample(clock.renderTick));
 * ```
 */
import { checkTickRate, optionError } from '../options.ts';

/** Options of a {@link TickClock}. */
export interface TickClockOptions {
  /**
   * The server's ticks per second.
   * @defaultValue 60
   */
  tickRate?: number;
  /**
   * Arrival samples kept for the line and the jitter: about a second of snapshots at 60 Hz, so
   * the estimate follows a changed route within a second and one slow message cannot move it.
   * @defaultValue 64
   */
  window?: number;
  /**
   * The largest relative rate at which the output moves towards its target: 0.05 lets a
   * 20 ms error heal in 0.4 s while an animation at most 5 % fast or slow goes unnoticed.
   * @defaultValue 0.05
   */
  maxSlew?: number;
  /**
   * Errors larger than this (ms) are corrected at once instead of slewed.
   * @defaultValue 250
   */
  snapMs?: number;
  /**
   * Safety added to the render delay and to the prediction lead (ms).
   * @defaultValue 2
   */
  marginMs?: number;
}

const DEFAULT_WINDOW = 64;
const DEFAULT_MAX_SLEW = 0.05;
const DEFAULT_SNAP_MS = 250;
const DEFAULT_MARGIN_MS = 2;
/** The jitter is this percentile of the window's delays above the line. */
const JITTER_PERCENTILE = 0.95;
/** {@link TickClock.paceFor} removes an error over about this many seconds. */
const PACE_SECONDS = 0.5;
/** RFC 6298's smoothing gain for the round-trip estimate (SRTT). */
const RTT_GAIN = 0.125;

// Indices into `TickClock`'s numbers: the arrival line (ms), the jitter (ms), the snapshot
// interval (ticks), the smoothed round trip (ms), the render and prediction lines' offsets (ms),
// and the time of the last `update` (ms).
const LINE = 0;
const JITTER = 1;
const INTERVAL = 2;
const RTT = 3;
const RENDER = 4;
const PREDICT = 5;
const NOW = 6;

/** See the module doc. */
export class TickClock {
  readonly #periodMs: number;
  readonly #maxSlew: number;
  readonly #snapMs: number;
  readonly #marginMs: number;
  readonly #samples: Float64Array;
  readonly #gaps: Float64Array;
  readonly #scratch: Float64Array;
  #count = 0;
  #at = 0;
  #lastTick = Number.NaN;
  /**
   * The clock's numbers, by the indices above the class: in a typed array because each frame's
   * `update` writes them, and a double stored in an object field V8 keeps tagged is a new heap
   * number each time. The render and prediction lines are output offsets (local ms at tick 0),
   * slewed.
   */
  readonly #state = Float64Array.of(0, 0, 1, Number.NaN, Number.NaN, Number.NaN, Number.NaN);
  #snaps = 0;

  /** @throws RangeError naming the option for a bad option. */
  constructor(options: TickClockOptions = {}) {
    this.#periodMs = 1000 * checkTickRate(options.tickRate ?? 60);
    const window = options.window ?? DEFAULT_WINDOW;
    if (!Number.isSafeInteger(window) || window < 2 || window > 4096) {
      throw optionError('window', window, 'a whole number of samples from 2 to 4096');
    }
    this.#maxSlew = fraction('maxSlew', options.maxSlew ?? DEFAULT_MAX_SLEW);
    this.#snapMs = positive('snapMs', options.snapMs ?? DEFAULT_SNAP_MS);
    this.#marginMs = positive('marginMs', options.marginMs ?? DEFAULT_MARGIN_MS, true);
    this.#samples = new Float64Array(window);
    this.#gaps = new Float64Array(window).fill(1);
    this.#scratch = new Float64Array(window);
  }

  /**
   * A message stamped with server tick `serverTick` arrived at `localMs` (the clock `update`
   * reads). Messages that are not finite numbers are ignored.
   */
  observe(serverTick: number, localMs: number): void {
    if (!Number.isFinite(serverTick) || !Number.isFinite(localMs)) return;
    const n = this.#samples.length;
    if (serverTick > this.#lastTick) {
      this.#gaps[this.#at] = serverTick - this.#lastTick;
    }
    if (!(serverTick <= this.#lastTick)) this.#lastTick = serverTick;
    this.#samples[this.#at] = localMs - serverTick * this.#periodMs;
    this.#at = (this.#at + 1) % n;
    if (this.#count < n) this.#count++;
    this.#estimate();
  }

  /** A measured round trip (ms), from a ping; smoothed as TCP smooths it (RFC 6298). */
  observeRoundTrip(rttMs: number): void {
    if (!(rttMs >= 0) || !Number.isFinite(rttMs)) return;
    this.#state[RTT] = Number.isNaN(this.#state[RTT])
      ? rttMs
      : this.#state[RTT] + RTT_GAIN * (rttMs - this.#state[RTT]);
  }

  /**
   * Moves the output lines towards their targets for the time since the last call (at most
   * `maxSlew` of it), or onto them when they are more than `snapMs` away or on the first call
   * after the first sample. Call it once per frame, before reading the ticks.
   */
  update(localMs: number): void {
    if (!Number.isFinite(localMs)) return;
    // Written out, without helper calls or a choice between `localMs` and a stored number: V8
    // makes a heap number of a fractional value passed to or returned from a call it does not
    // inline, or merged with an argument it keeps tagged, and this runs every frame.
    const last = this.#state[NOW];
    let elapsed = localMs - last; // NaN on the first call
    if (!(elapsed > 0)) elapsed = 0;
    if (Number.isNaN(last) || localMs > last) this.#state[NOW] = localMs;
    if (this.#count === 0) return;
    const step = this.#maxSlew * elapsed;
    const rtt = Number.isNaN(this.#state[RTT]) ? 0 : this.#state[RTT];
    const renderTarget =
      this.#state[LINE] +
      this.#state[INTERVAL] * this.#periodMs +
      this.#state[JITTER] +
      this.#marginMs;
    const predictTarget = this.#state[LINE] - (rtt + this.#state[JITTER] + this.#marginMs);
    const renderError = renderTarget - this.#state[RENDER];
    if (Number.isNaN(this.#state[RENDER])) {
      this.#state[RENDER] = renderTarget;
    } else if (Math.abs(renderError) > this.#snapMs) {
      this.#state[RENDER] = renderTarget;
      this.#snaps++;
    } else {
      this.#state[RENDER] += Math.min(step, Math.max(-step, renderError));
    }
    const predictError = predictTarget - this.#state[PREDICT];
    if (Number.isNaN(this.#state[PREDICT]) || Math.abs(predictError) > this.#snapMs) {
      this.#state[PREDICT] = predictTarget;
    } else {
      this.#state[PREDICT] += Math.min(step, Math.max(-step, predictError));
    }
  }

  /** The server tick to draw now (fractional): the arrival line minus the render delay. */
  get renderTick(): number {
    return (this.#state[NOW] - this.#state[RENDER]) / this.#periodMs;
  }

  /** The server tick a client should be predicting now (fractional): ahead by {@link leadMs}. */
  get predictTick(): number {
    return (this.#state[NOW] - this.#state[PREDICT]) / this.#periodMs;
  }

  /**
   * The server tick whose message arrives now on the least delayed path (fractional), unslewed:
   * the newest tick the client can know about.
   */
  get arrivalTick(): number {
    return (this.#state[NOW] - this.#state[LINE]) / this.#periodMs;
  }

  /** The render delay's target (ms): snapshot interval + jitter + margin. */
  get renderDelayMs(): number {
    return this.#state[INTERVAL] * this.#periodMs + this.#state[JITTER] + this.#marginMs;
  }

  /** The prediction lead's target (ms): round trip + jitter + margin (0 round trip until measured). */
  get leadMs(): number {
    return (
      (Number.isNaN(this.#state[RTT]) ? 0 : this.#state[RTT]) + this.#state[JITTER] + this.#marginMs
    );
  }

  /** Measured jitter (ms): the 95th percentile of delays above the arrival line. */
  get jitterMs(): number {
    return this.#state[JITTER];
  }

  /** Smoothed round trip (ms); NaN until the first {@link observeRoundTrip}. */
  get roundTripMs(): number {
    return this.#state[RTT];
  }

  /** Ticks between consecutive snapshots (the median of the window). */
  get snapshotInterval(): number {
    return this.#state[INTERVAL];
  }

  /**
   * The time scale that brings a client's loop, now at predicted tick `tick` (fractional:
   * `prediction.tick + loop.alpha`), onto {@link predictTick}: 1 when on it, up to `1 ± maxSlew`
   * when behind or ahead, so the loop catches up over about `PACE_SECONDS` without a jump.
   * Set it as the loop's `timeScale` once per frame.
   */
  paceFor(tick: number): number {
    if (this.#count === 0 || !Number.isFinite(tick)) return 1;
    const errorMs = (this.predictTick - tick) * this.#periodMs;
    const rate = errorMs / (1000 * PACE_SECONDS);
    return 1 + Math.min(this.#maxSlew, Math.max(-this.#maxSlew, rate));
  }

  /**
   * Times the render line was corrected at once because its error was larger than `snapMs`
   * (the drawn picture jumped). The prediction line snaps too, unseen: it paces the loop.
   */
  get snaps(): number {
    return this.#snaps;
  }

  /** True once a message has been observed. */
  get synced(): boolean {
    return this.#count > 0;
  }

  #estimate(): void {
    const count = this.#count;
    // Once the window is full (a second after connecting) the whole arrays are sorted, with no
    // subarray views: a message then allocates nothing here.
    const full = count === this.#samples.length;
    const sorted = full ? this.#scratch : this.#scratch.subarray(0, count);
    sorted.set(full ? this.#samples : this.#samples.subarray(0, count));
    sorted.sort();
    this.#state[LINE] = sorted[0];
    this.#state[JITTER] =
      sorted[Math.min(count - 1, Math.ceil(JITTER_PERCENTILE * (count - 1)))] - sorted[0];
    sorted.set(full ? this.#gaps : this.#gaps.subarray(0, count));
    sorted.sort();
    this.#state[INTERVAL] = sorted[count >> 1];
  }
}

function fraction(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value > 0 && value < 1)) {
    throw optionError(name, value, 'a number between 0 and 1 (exclusive)');
  }
  return value;
}

function positive(name: string, value: unknown, zeroAllowed = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    !(zeroAllowed ? value >= 0 : value > 0)
  ) {
    throw optionError(name, value, `a finite number of milliseconds ${zeroAllowed ? '≥' : '>'} 0`);
  }
  return value;
}
