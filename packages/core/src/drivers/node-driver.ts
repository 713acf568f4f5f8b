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
}

/** Running totals of a {@link nodeDriver}. Read-only view, updated in place (no allocation). */
export interface NodeDriverStats {
  /** Frames fed to the loop (one per wake that was not early). */
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
  const lateThresholdMs = options.lateThresholdMs ?? DEFAULT_LATE_THRESHOLD_MS;
  if (typeof lateThresholdMs !== 'number' || !(lateThresholdMs >= 0)) {
    throw optionError('lateThresholdMs', lateThresholdMs, 'a number of milliseconds ≥ 0');
  }
  const spinMs = options.spinMs ?? DEFAULT_SPIN_MS;
  if (typeof spinMs !== 'number' || !(spinMs >= 0) || !Number.isFinite(spinMs)) {
    throw optionError('spinMs', spinMs, 'a finite number of milliseconds ≥ 0');
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
  };
  let now: () => number = () => performance.now();
  let timers: NodeScheduler = globalThis as unknown as NodeScheduler;
  let sink: FrameSink | undefined;
  let handle: unknown;
  let immediate: unknown;
  let spin = false;
  let running = false;
  let originMs = 0;
  let periodMs = 0;
  let rateHz = 0;
  let index = 0;
  let deadlineMs = 0;
  let armedForMs = 0;
  let runs = 0;
  // The same two callbacks for every wake: arming allocates nothing of ours (Node's own Timeout
  // object aside). `stop` cancels what is pending, so a callback never outlives its run.
  const arm = (): void => {
    const t = now();
    const delay = deadlineMs - t;
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

  function wake(fromTimer: boolean): void {
    if (!running || sink === undefined) return;
    const t = now();
    if (t < deadlineMs) {
      if (fromTimer && t < armedForMs) stats.earlyWakes++;
      arm();
      return;
    }
    const run = runs;
    try {
      if (index === 0) {
        // The origin frame: the loop's first frame sets its time origin and runs no step. It
        // gets the start time itself, so the first tick's deadline is exactly one period later.
        sink.frame(originMs);
      } else {
        const lateness = t - deadlineMs;
        stats.wakes++;
        stats.lastLatenessMs = lateness;
        stats.totalLatenessMs += lateness;
        if (lateness > stats.worstLatenessMs) stats.worstLatenessMs = lateness;
        if (lateness > lateThresholdMs) stats.lateTicks++;
        sink.frame(t);
      }
    } finally {
      // Re-armed even if the frame threw (`errorPolicy: 'throw'`): the tick goes on for whoever
      // catches it. Not if a hook stopped or restarted the driver: that run arms its own timer.
      if (running && run === runs) scheduleNext();
    }
  }

  function scheduleNext(): void {
    // Absolute schedule: the next deadline after now, computed from the origin.
    const after = now();
    let next = index + 1;
    const due = Math.floor(((after - originMs) * rateHz) / 1000) + 1;
    if (due > next) {
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
      originMs = now();
      index = 0;
      deadlineMs = originMs;
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
