import { FixedLoop } from '@fixedtick/core';
import { type NodeScheduler, nodeDriver } from '@fixedtick/core/node';
import { describe, expect, it } from 'vitest';

/**
 * Virtual time for the driver: a clock and a timer queue that run only when the test says so.
 * `latencyMs` makes every timer fire that much after its due time (a busy event loop);
 * `earlyMs` makes timers of more than 1 ms fire that much before it (Node's millisecond timer
 * clock can do that).
 */
interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

class FakeTime implements NodeScheduler {
  now = 5_000;
  latencyMs = 0;
  earlyMs = 0;
  armed = 0;
  /**
   * How far the injected clock reads from the timers' own clock: a wall clock (`Date.now`) set
   * back or forward moves this, while timers keep running on Node's monotonic clock.
   */
  clockOffsetMs = 0;
  /** Readings the injected clock returns next, one per call, before it reads true again. */
  readonly badReadings: number[] = [];
  #timers: Timer[] = [];
  #nextId = 1;

  readonly clock = (): number => this.badReadings.shift() ?? this.now + this.clockOffsetMs;

  setTimeout(callback: () => void, delayMs: number): unknown {
    const early = delayMs > 1 ? this.earlyMs : 0;
    const id = this.#nextId++;
    this.#timers.push({ id, due: this.now + delayMs + this.latencyMs - early, fn: callback });
    this.armed++;
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.#timers.length;
  }

  /** Runs every timer due up to `t` in order, moving the clock to each one's due time. */
  runUntil(t: number): void {
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.#timers) if (!next || timer.due < next.due) next = timer;
      if (!next || next.due > t) break;
      this.#timers = this.#timers.filter((x) => x !== next);
      this.now = Math.max(this.now, next.due);
      next.fn();
    }
    this.now = Math.max(this.now, t);
  }

  /** The process stalls: the clock moves on and no timer runs. */
  stall(ms: number): void {
    this.now += ms;
  }
}

/** FakeTime with `setImmediate`: each poll runs 10 µs later (one event-loop turn). */
class FakeTimeWithImmediates extends FakeTime {
  polls = 0;
  setImmediate(callback: () => void): unknown {
    this.polls++;
    // Immediates have no timer latency: undo the one setTimeout adds.
    return this.setTimeout(callback, 0.01 - this.latencyMs);
  }
  clearImmediate(handle: unknown): void {
    this.clearTimeout(handle);
  }
}

/**
 * Makes `time`'s timers catch what their callbacks throw, as `process.on('uncaughtException')`
 * would, and returns the list the errors go to.
 */
function catchTimerErrors(time: FakeTime): unknown[] {
  const thrown: unknown[] = [];
  const realTimers = time.setTimeout.bind(time);
  time.setTimeout = (fn, delay) =>
    realTimers(() => {
      try {
        fn();
      } catch (error) {
        thrown.push(error);
      }
    }, delay);
  return thrown;
}

function rig(tickRate = 60, loopOptions = {}) {
  const time = new FakeTime();
  const loop = new FixedLoop({ tickRate, ...loopOptions });
  const driver = nodeDriver({ now: time.clock, scheduler: time });
  const stepsPerFrame: number[] = [];
  loop.onPostRender(() => stepsPerFrame.push(loop.lastFrame.steps));
  return { time, loop, driver, stepsPerFrame, t0: time.now };
}

describe('nodeDriver', () => {
  it('runs exactly 3 600 ticks in one simulated minute at 60 Hz, one per wake', () => {
    const { time, loop, driver, stepsPerFrame, t0 } = rig();
    loop.start(driver);
    time.runUntil(t0 + 60_000);
    expect(loop.tick).toBe(3600);
    expect(driver.stats.wakes).toBe(3600);
    expect(stepsPerFrame.length).toBe(3601); // the origin frame + one frame per wake
    expect(stepsPerFrame.slice(1).every((s) => s === 1)).toBe(true);
    expect(driver.stats.worstLatenessMs).toBe(0);
    expect(driver.stats.lateTicks).toBe(0);
    loop.stop();
    expect(time.pending).toBe(0);
  });

  it('does not drift over an hour when every timer fires late', () => {
    const { time, loop, driver, t0 } = rig();
    time.latencyMs = 0.9; // below one step: each wake still runs its own tick
    loop.start(driver);
    time.runUntil(t0 + 3_600_000 + 1);
    // A driver that re-armed `setTimeout(period)` after each wake would be 0.9 ms × 216 000 =
    // 194 s behind, and have run ~11 700 ticks fewer.
    expect(loop.tick).toBe(216_000);
    expect(driver.stats.wakes).toBe(216_000);
    expect(driver.stats.worstLatenessMs).toBeCloseTo(0.9, 6);
    expect(driver.stats.totalLatenessMs / driver.stats.wakes).toBeCloseTo(0.9, 6);
    expect(driver.stats.lateTicks).toBe(0); // under the 1 ms threshold
    expect(driver.stats.skippedDeadlines).toBe(0);
    loop.stop();
  });

  it('under a clock that stalls for 2 s applies the loop clamps instead of bursting', () => {
    const { time, loop, driver, stepsPerFrame, t0 } = rig();
    loop.start(driver);
    time.runUntil(t0 + 10_000);
    expect(loop.tick).toBe(600);
    const framesBefore = stepsPerFrame.length;

    time.stall(2_000);
    time.runUntil(t0 + 20_000);

    const after = stepsPerFrame.slice(framesBefore);
    // The one frame after the stall: maxDeltaTime (0.25 s = 15 steps) then maxStepsPerFrame (8).
    expect(after[0]).toBe(loop.maxStepsPerFrame);
    expect(after.slice(1).every((s) => s === 1)).toBe(true);
    expect(Math.max(...stepsPerFrame)).toBe(8);
    // 2 s of stall: 1.75 s cut by maxDeltaTime, then 7 of the 15 steps cut by the step cap.
    expect(loop.stats.droppedTime).toBeCloseTo(1.75 + 7 / 60, 9);
    // The missed deadlines are skipped, not fired in a burst of wakes.
    expect(driver.stats.skippedDeadlines).toBe(119);
    expect(driver.stats.wakes).toBe(1200 - 119);
    expect(driver.stats.worstLatenessMs).toBeCloseTo(2000 - 1000 / 60, 6);
    expect(driver.stats.lateTicks).toBe(1);
    // Ticks: 10 s + 8 + the ticks after the stall; the game lost the dropped time only.
    expect(loop.tick).toBe(600 + 8 + (1200 - 720));
    loop.stop();
  });

  it('re-arms a timer that fires early instead of running a tick (or none) too soon', () => {
    const { time, loop, driver, stepsPerFrame, t0 } = rig();
    time.earlyMs = 0.6;
    loop.start(driver);
    time.runUntil(t0 + 1000);
    expect(loop.tick).toBe(60);
    expect(driver.stats.earlyWakes).toBe(60);
    expect(stepsPerFrame.slice(1).every((s) => s === 1)).toBe(true);
    loop.stop();
  });

  it('polls the clock with setImmediate for the last spinMs: wakes within one poll of the deadline', () => {
    const time = new FakeTimeWithImmediates();
    time.latencyMs = 0.8; // timers late by 0.8 ms…
    const loop = new FixedLoop({ tickRate: 60 });
    const driver = nodeDriver({ now: time.clock, scheduler: time, spinMs: 1 });
    loop.start(driver);
    time.runUntil(time.now + 10_000.5);
    expect(loop.tick).toBe(600);
    // …but the timer sleeps until 1 ms before the deadline, and polling covers the rest.
    expect(driver.stats.worstLatenessMs).toBeLessThanOrEqual(0.01 + 1e-9);
    expect(time.polls).toBeGreaterThan(600);
    loop.stop();
    expect(time.pending).toBe(0);
  });

  it('spinMs: 0 uses timers only', () => {
    const time = new FakeTimeWithImmediates();
    const loop = new FixedLoop({ tickRate: 60 });
    const driver = nodeDriver({ now: time.clock, scheduler: time, spinMs: 0 });
    loop.start(driver);
    time.runUntil(time.now + 1000);
    expect(loop.tick).toBe(60);
    expect(time.polls).toBe(0);
    loop.stop();
  });

  it('wakes at its own tickRate when given one, and the loop makes the steps', () => {
    const time = new FakeTime();
    const loop = new FixedLoop({ tickRate: 60 });
    const driver = nodeDriver({ tickRate: 20, now: time.clock, scheduler: time });
    loop.start(driver);
    time.runUntil(time.now + 1000);
    expect(driver.periodMs).toBe(50);
    expect(driver.stats.wakes).toBe(20);
    expect(loop.tick).toBe(60); // three steps per wake
    loop.stop();
  });

  it('defaults to the loop step: 30 Hz wakes every 33.3 ms', () => {
    const { time, loop, driver, t0 } = rig(30);
    loop.start(driver);
    time.runUntil(t0 + 60_000);
    expect(driver.periodMs).toBeCloseTo(1000 / 30, 12);
    expect(loop.tick).toBe(1800);
    loop.stop();
  });

  it('stop cancels the timer; a restart sets a new origin and does not simulate the gap', () => {
    const { time, loop, driver, t0 } = rig();
    loop.start(driver);
    time.runUntil(t0 + 1000);
    loop.stop();
    expect(time.pending).toBe(0);
    time.runUntil(t0 + 60_000);
    expect(loop.tick).toBe(60);
    loop.start(driver);
    time.runUntil(t0 + 61_000);
    expect(loop.tick).toBe(120);
    expect(loop.stats.droppedTime).toBe(0);
    loop.stop();
  });

  it('keeps ticking after a frame throws (errorPolicy "throw"), and a hook may restart it', () => {
    const { time, loop, driver, t0 } = rig(60, { errorPolicy: 'throw' });
    const thrown = catchTimerErrors(time);
    let restarted = false;
    const reported: unknown[] = [];
    loop.onError((error) => reported.push(error));
    loop.onFixedUpdate((_dt, tick) => {
      if (tick === 10) throw new Error('gameplay bug');
      if (tick === 20 && !restarted) {
        restarted = true;
        loop.start(driver); // stop + start from inside a hook: one timer chain, not two
      }
    });
    loop.start(driver);
    time.runUntil(t0 + 1000);
    expect(thrown).toHaveLength(1);
    expect(reported).toEqual(thrown);
    expect(time.pending).toBe(1);
    expect(loop.tick).toBeGreaterThanOrEqual(58);
    expect(loop.tick).toBeLessThanOrEqual(60);
    loop.stop();
  });

  it('counts wakes later than lateThresholdMs', () => {
    const time = new FakeTime();
    time.latencyMs = 3;
    const loop = new FixedLoop({ tickRate: 60 });
    const driver = nodeDriver({ now: time.clock, scheduler: time, lateThresholdMs: 2 });
    loop.start(driver);
    time.runUntil(time.now + 1000);
    expect(driver.stats.lateTicks).toBe(driver.stats.wakes);
    expect(driver.stats.lastLatenessMs).toBeCloseTo(3, 9);
    loop.stop();
  });

  it('validates its options with a RangeError naming the option and the value', () => {
    expect(() => nodeDriver({ tickRate: 0 })).toThrow(/option "tickRate" must be .*got 0/);
    expect(() => nodeDriver({ lateThresholdMs: -1 })).toThrow(/"lateThresholdMs".*got -1/);
    expect(() => nodeDriver({ spinMs: Number.NaN })).toThrow(/"spinMs".*got NaN/);
    expect(() => nodeDriver({ now: 5 as unknown as () => number })).toThrow(RangeError);
    expect(() => nodeDriver({ scheduler: {} as NodeScheduler })).toThrow(/"scheduler"/);
    expect(() => nodeDriver({ clockJumpMs: 0 })).toThrow(/"clockJumpMs".*got 0/);
    expect(() => nodeDriver({ clockJumpMs: Number.NaN })).toThrow(/"clockJumpMs".*got NaN/);
    expect(() => nodeDriver({ onClockAnomaly: 1 as never })).toThrow(/"onClockAnomaly".*got 1/);
  });

  describe('a clock that goes back, jumps or reads a non-finite value', () => {
    function watched(options: { clockJumpMs?: number } = {}) {
      const time = new FakeTime();
      const loop = new FixedLoop({ tickRate: 60 });
      const reported: [string, number][] = [];
      const driver = nodeDriver({
        now: time.clock,
        scheduler: time,
        onClockAnomaly: (kind, readingMs) => reported.push([kind, readingMs]),
        ...options,
      });
      const loopAnomalies: [string, number][] = [];
      loop.onAnomaly((kind, value) => loopAnomalies.push([kind, value]));
      return { time, loop, driver, reported, loopAnomalies, t0: time.now };
    }

    it('re-bases on a clock set back one hour: ticks go on within a period, reported once', () => {
      const { time, loop, driver, reported, loopAnomalies, t0 } = watched();
      loop.start(driver);
      time.runUntil(t0 + 1000);
      expect(loop.tick).toBe(60);
      time.clockOffsetMs = -3_600_000;
      time.runUntil(t0 + 2005);
      // The schedule starts again from the first reading after the change: one frame of 0 s at
      // that reading, then a tick every period — not an hour without a tick.
      expect(loop.tick).toBe(119);
      time.runUntil(t0 + 61_005);
      expect(loop.tick).toBe(60 + 59 + 3540);
      expect(reported).toEqual([['backwards', t0 + 1000 + 1000 / 60 - 3_600_000]]);
      expect(driver.stats.clockAnomalies).toBe(1);
      // The loop saw the earlier timestamp and reported it as it reports any backwards frame.
      expect(loopAnomalies).toEqual([['backwards', t0 + 1000 + 1000 / 60 - 3_600_000]]);
      expect(loop.stats.anomalies).toBe(1);
      expect(driver.stats.skippedDeadlines).toBe(0);
      loop.stop();
    });

    it('re-bases on a jump forward past clockJumpMs: one clamped frame, then one tick a wake', () => {
      const { time, loop, driver, reported, loopAnomalies, t0 } = watched();
      const steps: number[] = [];
      loop.onPostRender(() => steps.push(loop.lastFrame.steps));
      loop.start(driver);
      time.runUntil(t0 + 1000);
      time.clockOffsetMs = 3_600_000;
      time.runUntil(t0 + 2005);
      const jumpAt = t0 + 1000 + 1000 / 60 + 3_600_000;
      expect(reported).toEqual([['forward', jumpAt]]);
      expect(driver.stats.clockAnomalies).toBe(1);
      expect(loopAnomalies).toEqual([]); // a long frame is no anomaly to the loop: the clamp takes it
      // The jump's frame is clamped like any long frame (maxDeltaTime, then the step cap)…
      expect(steps[61]).toBe(loop.maxStepsPerFrame);
      // …and the schedule restarts from it: one step per wake, no deadline counted as skipped.
      expect(steps.slice(62).every((s) => s === 1)).toBe(true);
      expect(steps.length).toBe(1 + 60 + 60);
      expect(driver.stats.skippedDeadlines).toBe(0);
      expect(driver.stats.worstLatenessMs).toBe(0);
      loop.stop();
    });

    it('a jump under clockJumpMs is a stall: the schedule keeps its phase', () => {
      const { time, loop, driver, reported, t0 } = watched({ clockJumpMs: 10_000 });
      loop.start(driver);
      time.runUntil(t0 + 1000);
      time.clockOffsetMs = 5005;
      time.runUntil(t0 + 2000);
      expect(reported).toEqual([]);
      expect(driver.stats.skippedDeadlines).toBe(300);
      loop.stop();
    });

    it.each([
      ['infinite', Number.POSITIVE_INFINITY],
      ['infinite', Number.NEGATIVE_INFINITY],
      ['nan', Number.NaN],
    ])('never stops on a %s reading (%s): time goes on, counts stay finite', (kind, reading) => {
      const { time, loop, driver, reported, loopAnomalies, t0 } = watched();
      loop.start(driver);
      time.runUntil(t0 + 1000);
      time.badReadings.push(reading);
      time.runUntil(t0 + 2000);
      expect(reported).toEqual([[kind, reading]]);
      expect(driver.stats.clockAnomalies).toBe(1);
      expect(loopAnomalies).toEqual([[kind, reading]]);
      // One wake lost its reading; the schedule goes on from the old origin.
      expect(loop.tick).toBe(120);
      expect(driver.stats.skippedDeadlines).toBe(0);
      expect(Number.isFinite(driver.stats.totalLatenessMs)).toBe(true);
      expect(Number.isFinite(driver.stats.worstLatenessMs)).toBe(true);
      loop.stop();
      expect(time.pending).toBe(0);
    });

    it('a clock that reads NaN at start takes its origin from the first finite reading', () => {
      const { time, loop, driver, reported, t0 } = watched();
      // start's reading, the one that arms the first wake, and the first wake's
      time.badReadings.push(Number.NaN, Number.NaN, Number.NaN);
      loop.start(driver);
      time.runUntil(t0 + 1005);
      expect(reported.map(([kind]) => kind)).toEqual(['nan']);
      // The first wake, one period in, read NaN; the origin is the good reading right after it.
      expect(loop.tick).toBe(59);
      expect(loop.stats.anomalies).toBe(1);
      loop.stop();
    });

    it('a listener that throws does not stop the tick', () => {
      const time = new FakeTime();
      const loop = new FixedLoop({ tickRate: 60 });
      const thrown = catchTimerErrors(time);
      const driver = nodeDriver({
        now: time.clock,
        scheduler: time,
        onClockAnomaly: () => {
          throw new Error('listener bug');
        },
      });
      loop.start(driver);
      time.runUntil(time.now + 1000);
      time.clockOffsetMs = -50_000;
      time.runUntil(time.now + 1005);
      expect(thrown).toHaveLength(1);
      expect(loop.tick).toBe(119);
      loop.stop();
    });
  });

  it('runs on the real Node timers too (a short real run)', async () => {
    const loop = new FixedLoop({ tickRate: 200 });
    const driver = nodeDriver();
    loop.start(driver);
    await new Promise<void>((resolve) => {
      loop.onPostRender(() => {
        if (loop.tick >= 20) {
          loop.stop();
          resolve();
        }
      });
    });
    // A loaded machine may wake late and run two steps in one frame: at least 20, not a burst.
    expect(loop.tick).toBeGreaterThanOrEqual(20);
    expect(loop.tick).toBeLessThan(20 + loop.maxStepsPerFrame);
    expect(driver.stats.wakes).toBeGreaterThan(0);
  });
});
