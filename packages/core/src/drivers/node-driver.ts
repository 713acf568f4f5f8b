/**
 * The headless driver: an authoritative fixed tick for Node servers.
 *
 * Why: a server has no display to pace it, so something must wake it once per tick. Waking with
 * `setInterval(fn, 1000 / 60)`, or re-arming `setTimeout` with the period after each wake,
 * drifts: every wake is a little late and the lateness adds up (an interval timer that is 1 ms
 * late per tick is 3.6 s behind after an hour at 60 Hz). This driver computes each deadline
 * from the start time — `start + n * period`, never by adding intervals — so lateness never
 * accumulates, and it hands the loop the real clock reading, so the loop's accumulator decides
 * the steps.
 *
 * Guarantees:
 * - No drift: the n-th deadline is `start + n * period` for every n.
 * - No burst after a stall: if the process stalls (a GC pause, a debugger, a suspended VM), the
 *   missed deadlines are skipped and the one late frame goes through the loop's clamps
 *   (`maxDeltaTime`, `maxStepsPerFrame`) — the excess is dropped and counted, as in a browser.
 * - A timer that fires early (Node timers run on a millisecond clock) is re-armed, never
 *   treated as a tick.
 * - A clock that goes back, jumps forward by more than `clockJumpMs`, or reads NaN or ±Infinity
 *   never stops the tick: the schedule starts again from the first good reading (time goes on
 *   from the new origin, as in the loop), and each such reading is counted in
 *   `stats.clockAnomalies` and reported to `onClockAnomaly`.
 * - Clock and scheduler are injectable: tests drive an hour in milliseconds, without waiting.
 *
 * @example
 * ```ts
 * const loop = new FixedLoop({ tickRate: 30 });
 * const driver = nodeDriver();
 * loop.onFixedUpdate((dt) => world.step(dt));
 * loop.start(driver);
 * setInterval(() => console.log(driver.stats), 5000);
 * ```
 */
import type { Driver, FrameSink } from '../driver.ts';
import { checkTickRate, optionError } from '../options.ts';

/**
 * What was wrong with a clock reading, passed to `onClockAnomaly`:
 * - `'backwards'`: earlier than the last reading (a wall clock set back);
 * - `'forward'`: later than its deadline by more than `clockJumpMs` (a wall clock set forward,
 *   or a stall too long to be one);
 * - `'nan'` / `'infinite'`: not a finite number.
 */
export type ClockAnomalyKind = 'backwards' | 'forward' | 'nan' | 'infinite';

/** Timers a {@link nodeDriver} arms; `globalThis` (Node's `setTimeout`) by default. */
export interface NodeScheduler {
  /** Calls `callback` once after about `delayMs` milliseconds; returns a handle. */
  setTimeout(callback: () => void, delayMs: number): unknown;
  /** Cancels a pending callback by its handle. */
  clearTimeout(handle: unknown): void;
  /**
   * Calls `callback` after pending I/O, with no timer (Node's `setImmediate`): used to poll the
   * clock for the last `spinMs` before a deadline. Without it the driver uses timers only.
   */
  setImmediate?(callback: () => void): unknown;
  /** Cancels a pending `setImmediate` callback. */
  clearImmediate?(handle: unknown): void;
}

/** Options of {@link nodeDriver}. */
export interface NodeDriverOptions {
  /**
   * Wakes per second (Hz). Leave it unset to wake once per step of the loop it drives
   * (`1 / loop.fixedDelta`), which is what an authoritative server wants: one tick per wake.
   * @defaultValue the loop's `tickRate` (60 if the sink has none)
   */
  tickRate?: number;
  /**
   * The clock, in milliseconds; only differences matter.
   * @defaultValue `performance.now`
   */
  now?: () => number;
  /**
   * Where timers come from.
   * @defaultValue `globalThis` (`setTimeout` / `clearTimeout`)
   */
  scheduler?: NodeScheduler;
  /**
   * How many milliseconds before each deadline the driver stops sleeping on a timer and polls
   * the clock with `setImmediate` instead. Node's timers tick in whole milliseconds and fire up
   * to 1 ms early or late; polling between I/O callbacks wakes within tens of microseconds,
   * for the price of a busy event loop (still serving I/O) for up to about `spinMs` + 1 ms per
   * tick. `0` uses timers only (lower CPU, about 1 ms of jitter).
   * @defaultValue 1
   */
  spinMs?: number;
  /**
   * A wake later than its deadline by more than this (ms) counts in `stats.lateTicks`. One
   * millisecond is Node's timer resolution: lateness below it is the timer's granularity, above
   * it the event loop was busy.
   * @defaultValue 1
   */
  lateThresholdMs?: number;
  /**
   * A wake later than its deadline by more than this (ms) is taken as a jump of the clock, not a
   * stall: the schedule starts again from that reading instead of skipping the deadlines in
   * between, and the reading is reported as a `'forward'` clock anomaly. The frame itself goes
   * through the loop's clamps either way. Two seconds is where a Minecraft server stops
   * catching up ("Can't keep up! Did the system time change, or is the server overloaded?").
   * `Infinity` never re-bases forward.
   * @defaultValue 2000
   */
  clockJumpMs?: number;
  /**
   * Called after each clock reading the schedule could not follow (see
   * {@link ClockAnomalyKind}), once the tick has been re-armed: a listener that throws does not
   * stop the tick. The loop also reports a backwards or non-finite timestamp through its own
   * `onAnomaly`, since the driver hands it that reading.
   */
  onClockAnomaly?: (kind: ClockAnomalyKind, readingMs: number) => void;
}

/** Running totals of a {@link nodeDriver}. Read-only view, updated in place (no allocation). */
export interface NodeDriverStats {
  /**
   * Frames fed to the loop on schedule (one per wake that was neither early nor a clock anomaly);
   * the lateness figures are over these wakes.
   */
  readonly wakes: number;
  /** Wakes later than `lateThresholdMs` after their deadline. */
  readonly lateTicks: number;
  /** Largest lateness seen (ms). */
  readonly worstLatenessMs: number;
  /** Lateness of the last wake (ms). */
  readonly lastLatenessMs: number;
  /** Sum of all lateness (ms), for a mean: `totalLatenessMs / wakes`. */
  readonly totalLatenessMs: number;
  /** Deadlines skipped because the process stalled past them (their time went to the clamps). */
  readonly skippedDeadlines: number;
  /** Timers that fired before the time they were armed for (Node's millisecond clock), re-armed. */
  readonly earlyWakes: number;
  /** Clock readings that went back, jumped past `clockJumpMs` or were not finite. */
  readonly clockAnomalies: number;
}

/** A {@link Driver} for Node, with its timing statistics. */
export interface NodeDriver extends Driver {
  /** Running totals; reset by each `start`. */
  readonly stats: NodeDriverStats;
  /** The wake period in milliseconds, once started. */
  readonly periodMs: number;
}

const DEFAULT_LATE_THRESHOLD_MS = 1;
const DEFAULT_SPIN_MS = 1;
const DEFAULT_CLOCK_JUMP_MS = 2000;

/**
 * Creates the Node driver: `loop.start(nodeDriver())`. See the module doc for its guarantees
 * and `docs/input-and-determinism.md` for a server example.
 */
export function nodeDriver(options: NodeDriverOptions = {}): NodeDriver {
  if (options === null || typeof options !== 'object') {
    throw new RangeError(`fixedtick: nodeDriver options must be an object, got ${String(options)}`);
  }
  if (options.tickRate !== undefined) checkTickRate(options.tickRate);
  const fixedRate = options.tickRate;
  const lateThresholdMs =
    options.lateThresholdMs === undefined ? DEFAULT_LATE_THRESHOLD_MS : options.lateThresholdMs;
  if (typeof lateThresholdMs !== 'number' || !(lateThresholdMs >= 0)) {
    throw optionError('lateThresholdMs', lateThresholdMs, 'a number of milliseconds ≥ 0');
  }
  const spinMs = options.spinMs === undefined ? DEFAULT_SPIN_MS : options.spinMs;
  if (typeof spinMs !== 'number' || !(spinMs >= 0) || !Number.isFinite(spinMs)) {
    throw optionError('spinMs', spinMs, 'a finite number of milliseconds ≥ 0');
  }
  const clockJumpMs =
    options.clockJumpMs === undefined ? DEFAULT_CLOCK_JUMP_MS : options.clockJumpMs;
  if (typeof clockJumpMs !== 'number' || !(clockJumpMs > 0)) {
    throw optionError('clockJumpMs', clockJumpMs, 'a number of milliseconds > 0 (or Infinity)');
  }
  const onClockAnomaly = options.onClockAnomaly;
  if (onClockAnomaly !== undefined && typeof onClockAnomaly !== 'function') {
    throw optionError('onClockAnomaly', onClockAnomaly, 'a function');
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw optionError('now', options.now, 'a function returning milliseconds');
  }
  const scheduler = options.scheduler;
  if (
    scheduler !== undefined &&
    (typeof scheduler?.setTimeout !== 'function' || typeof scheduler?.clearTimeout !== 'function')
  ) {
    throw optionError('scheduler', scheduler, 'an object with setTimeout and clearTimeout');
  }

  const stats = {
    wakes: 0,
    lateTicks: 0,
    worstLatenessMs: 0,
    lastLatenessMs: 0,
    totalLatenessMs: 0,
    skippedDeadlines: 0,
    earlyWakes: 0,
    clockAnomalies: 0,
  };
  let now: () => number = () => performance.now();
  let timers: NodeScheduler = globalThis as unknown as NodeScheduler;
  let sink: FrameSink | undefined;
  let handle: unknown;
  let immediate: unknown;
  let spin = false;
  let running = false;
  let periodMs = 0;
  let rateHz = 0;
  // The schedule: deadline n is `originMs + n * 1000 / rateHz`. `index` 0 means no origin yet:
  // the next wake's reading becomes it (at start, and after the clock went back or jumped).
  let originMs = Number.NaN;
  let index = 0;
  let deadlineMs = Number.NEGATIVE_INFINITY;
  let lastReadingMs = Number.NaN;
  let armedForMs = 0;
  let runs = 0;
  // The same two callbacks for every wake: arming allocates nothing of ours (Node's own Timeout
  // object aside). `stop` cancels what is pending, so a callback never outlives its run.
  const arm = (): void => {
    const t = now();
    let delay = deadlineMs - t;
    // Never sleep past one period: on a clock that went back (or reads NaN) the deadline looks
    // far away, and the next wake must see that reading and re-base, not sleep for the hour the
    // clock went back.
    if (!(delay <= periodMs)) delay = periodMs;
    if (spin && delay <= spinMs) {
      immediate = timers.setImmediate?.(onImmediate);
      return;
    }
    const sleep = spin ? delay - spinMs : delay;
    armedForMs = t + sleep;
    handle = timers.setTimeout(onTimer, Math.max(sleep, 0));
  };
  const onTimer = (): void => {
    handle = undefined;
    wake(true);
  };
  const onImmediate = (): void => {
    immediate = undefined;
    wake(false);
  };

  /** What is wrong with a wake's reading `t`, or `undefined` if the schedule can follow it. */
  function anomalyOf(t: number): ClockAnomalyKind | undefined {
    if (typeof t !== 'number' || Number.isNaN(t)) return 'nan';
    if (!Number.isFinite(t)) return 'infinite';
    if (t < lastReadingMs) return 'backwards';
    if (index > 0 && t - deadlineMs > clockJumpMs) return 'forward';
    return undefined;
  }

  function wake(fromTimer: boolean): void {
    if (!running || sink === undefined) return;
    const t = now();
    const anomaly = anomalyOf(t);
    if (anomaly === undefined && t < deadlineMs) {
      if (fromTimer && t < armedForMs) stats.earlyWakes++;
      lastReadingMs = t;
      arm();
      return;
    }
    const run = runs;
    let frameMs = t;
    try {
      if (anomaly === 'nan' || anomaly === 'infinite') {
        // No time to schedule by: the schedule stays as it was, for the next good reading.
      } else if (anomaly !== undefined || index === 0) {
        // A new origin: the first wake (at the start's own reading when there was one, so the
        // first tick's deadline is exactly one period after `start`), or a reading after the
        // clock went back or jumped. The loop takes the same timestamp as its own new origin (a
        // backwards one) or clamps it (a long frame), so time goes on from here in both.
        if (anomaly !== undefined || Number.isNaN(originMs)) originMs = t;
        frameMs = originMs;
        deadlineMs = originMs;
        index = 0;
      } else {
        const lateness = t - deadlineMs;
        stats.wakes++;
        stats.lastLatenessMs = lateness;
        stats.totalLatenessMs += lateness;
        if (lateness > stats.worstLatenessMs) stats.worstLatenessMs = lateness;
        if (lateness > lateThresholdMs) stats.lateTicks++;
      }
      if (anomaly !== undefined) stats.clockAnomalies++;
      if (Number.isFinite(t)) lastReadingMs = t;
      // Non-finite readings go to the loop too: it counts them and reports them through its
      // `onAnomaly`, as it does for any driver's, and runs a frame of 0 s.
      sink.frame(frameMs);
    } finally {
      // Re-armed even if the frame threw (`errorPolicy: 'throw'`): the tick goes on for whoever
      // catches it. Not if a hook stopped or restarted the driver: that run arms its own timer.
      // A non-finite reading leaves the schedule as it was; the next good reading follows it.
      if (running && run === runs) {
        if (Number.isFinite(t)) scheduleNext();
        else arm();
      }
      if (anomaly !== undefined) onClockAnomaly?.(anomaly, t);
    }
  }

  function scheduleNext(): void {
    // Absolute schedule: the next deadline after now, computed from the origin. Deadlines passed
    // while the frame ran are skipped, unless the reading is one the next wake must judge (not
    // finite, or past `clockJumpMs`): then the next wake comes at once and re-bases.
    const after = now();
    let next = index + 1;
    const due = Math.floor(((after - originMs) * rateHz) / 1000) + 1;
    if (due > next && after - deadlineMs <= clockJumpMs) {
      stats.skippedDeadlines += due - next;
      next = due;
    }
    index = next;
    // `n * 1000 / rate`, not `n * period`: whole-millisecond deadlines (the 3 600th tick at
    // 60 Hz is 60 000 ms) come out exact instead of a rounding error late.
    deadlineMs = originMs + (next * 1000) / rateHz;
    arm();
  }

  return {
    get stats(): NodeDriverStats {
      return stats;
    },
    get periodMs(): number {
      return periodMs;
    },
    start(target: FrameSink): void {
      if (running) return;
      now = options.now ?? (() => performance.now());
      timers = options.scheduler ?? (globalThis as unknown as NodeScheduler);
      spin =
        spinMs > 0 &&
        typeof timers.setImmediate === 'function' &&
        typeof timers.clearImmediate === 'function';
      const loopDelta = (target as { fixedDelta?: unknown }).fixedDelta;
      rateHz = fixedRate ?? (typeof loopDelta === 'number' && loopDelta > 0 ? 1 / loopDelta : 60);
      periodMs = 1000 / rateHz;
      sink = target;
      running = true;
      runs++;
      stats.wakes = 0;
      stats.lateTicks = 0;
      stats.worstLatenessMs = 0;
      stats.lastLatenessMs = 0;
      stats.totalLatenessMs = 0;
      stats.skippedDeadlines = 0;
      stats.earlyWakes = 0;
      stats.clockAnomalies = 0;
      // The first wake, at once, feeds the origin frame: the loop sets its own time origin there
      // and runs no step. A clock that reads NaN now leaves the origin to the first good reading.
      const t = now();
      originMs = Number.isFinite(t) ? t : Number.NaN;
      lastReadingMs = originMs;
      deadlineMs = Number.NEGATIVE_INFINITY;
      index = 0;
      arm();
    },
    stop(): void {
      if (!running) return;
      running = false;
      if (handle !== undefined) timers.clearTimeout(handle);
      if (immediate !== undefined) timers.clearImmediate?.(immediate);
      handle = undefined;
      immediate = undefined;
      sink = undefined;
    },
  };
}
