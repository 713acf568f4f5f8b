/**
 * The client's tick clock (docs/multiplayer.md, "The latency model"): server ticks mapped onto
 * the local clock from stamped arrivals, drift corrected at a bounded rate (never backwards,
 * never faster than 1 + maxSlew), large errors snapped and counted, the render delay sized from
 * the measured jitter. Time is fed explicitly: no test reads a clock.
 */
import { FixedLoop } from '@fixedtick/core';
import { TickClock } from '@fixedtick/core/net';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/support/random.ts';

const PERIOD = 1000 / 60;

/**
 * Runs a client for `seconds` of frames at 144 Hz, while snapshot n of a 60 Hz server arrives at
 * `arrival(n)` (ms, local clock). Returns the render tick after every frame.
 */
function simulate(
  clock: TickClock,
  seconds: number,
  arrival: (n: number) => number,
  startMs = 0,
): { times: number[]; render: number[] } {
  const times: number[] = [];
  const render: number[] = [];
  let n = 0;
  const frame = 1000 / 144;
  for (let t = startMs; t < startMs + seconds * 1000; t += frame) {
    while (arrival(n) <= t) clock.observe(n, arrival(n++));
    clock.update(t);
    if (clock.synced) {
      times.push(t);
      render.push(clock.renderTick);
    }
  }
  return { times, render };
}

/** The smallest and largest rate of the render tick against real time between frames. */
function rates(run: { times: number[]; render: number[] }, from = 1): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = from; i < run.times.length; i++) {
    const r = ((run.render[i] - run.render[i - 1]) * PERIOD) / (run.times[i] - run.times[i - 1]);
    lo = Math.min(lo, r);
    hi = Math.max(hi, r);
  }
  return [lo, hi];
}

describe('TickClock', () => {
  it('with a steady 50 ms delay, draws one snapshot interval plus the margin behind arrival', () => {
    const clock = new TickClock({ tickRate: 60, marginMs: 2 });
    const run = simulate(clock, 3, (n) => n * PERIOD + 50);
    expect(clock.jitterMs).toBeCloseTo(0, 9);
    expect(clock.snapshotInterval).toBe(1);
    expect(clock.renderDelayMs).toBeCloseTo(PERIOD + 2, 9);
    const t = run.times.at(-1) as number;
    expect(clock.renderTick).toBeCloseTo((t - 50 - PERIOD - 2) / PERIOD, 9);
    expect(clock.arrivalTick).toBeCloseTo((t - 50) / PERIOD, 9);
    expect(clock.snaps).toBe(0);
  });

  it('follows a server clock 0.1 % fast for a minute: rate within 1 ± maxSlew, error under 1.5 ms', () => {
    const clock = new TickClock({ tickRate: 60, maxSlew: 0.05 });
    const fast = PERIOD / 1.001;
    const run = simulate(clock, 60, (n) => n * fast + 40);
    const [lo, hi] = rates(run);
    expect(lo).toBeGreaterThanOrEqual(0.95 - 1e-9);
    expect(hi).toBeLessThanOrEqual(1.05 + 1e-9);
    // The ideal render tick: the tick arriving now, minus the render delay.
    for (let i = run.times.length - 600; i < run.times.length; i++) {
      const t = run.times[i];
      const ideal = (t - 40 - clock.renderDelayMs) / fast;
      expect(Math.abs(run.render[i] - ideal) * PERIOD).toBeLessThan(1.5);
    }
    expect(clock.snaps).toBe(0);
  });

  it('slews to a 40 ms longer route at most 5 % faster or slower than real time, never snapping', () => {
    const clock = new TickClock({ tickRate: 60, maxSlew: 0.05, snapMs: 250 });
    const run = simulate(clock, 6, (n) => n * PERIOD + (n < 120 ? 30 : 70));
    const [lo, hi] = rates(run);
    expect(lo).toBeGreaterThanOrEqual(0.95 - 1e-9);
    expect(hi).toBeLessThanOrEqual(1.05 + 1e-9);
    expect(lo).toBeLessThan(0.96); // it did slow down to take the longer route in
    const t = run.times.at(-1) as number;
    expect(clock.renderTick).toBeCloseTo((t - 70 - clock.renderDelayMs) / PERIOD, 6);
    expect(clock.snaps).toBe(0);
  });

  it('snaps an error larger than snapMs at once, and counts it', () => {
    const clock = new TickClock({ tickRate: 60, snapMs: 250 });
    simulate(clock, 4, (n) => n * PERIOD + (n < 60 ? 20 : 620));
    expect(clock.snaps).toBe(1);
    const t = 4000 - 1000 / 144;
    // Window forgot the short route; the render line sits on the long one.
    expect(Math.abs(clock.renderTick * PERIOD - (t - 620 - clock.renderDelayMs))).toBeLessThan(8);
  });

  it('sizes the render delay from jitter so the next snapshot has nearly always arrived', () => {
    const clock = new TickClock({ tickRate: 60 });
    const rnd = mulberry32(7);
    const delays = Array.from({ length: 4000 }, () => 60 + 30 * rnd());
    const arrivals = delays.map((d, n) => n * PERIOD + d);
    // Messages arrive in order over one connection (TCP/WebSocket): a late one holds back the rest.
    for (let n = 1; n < arrivals.length; n++) arrivals[n] = Math.max(arrivals[n], arrivals[n - 1]);
    let frames = 0;
    let ready = 0;
    let n = 0;
    for (let t = 0; t < 60_000; t += 1000 / 144) {
      while (n < arrivals.length && arrivals[n] <= t) clock.observe(n, arrivals[n++]);
      clock.update(t);
      if (t < 3000 || n >= arrivals.length) continue;
      frames++;
      // Interpolating at renderTick needs snapshot floor(renderTick) + 1.
      if (Math.floor(clock.renderTick) + 1 < n) ready++;
    }
    expect(clock.jitterMs).toBeGreaterThan(20);
    expect(clock.jitterMs).toBeLessThan(32);
    expect(clock.renderDelayMs).toBeCloseTo(PERIOD + clock.jitterMs + 2, 9);
    expect(ready / frames).toBeGreaterThan(0.97);
  });

  it('leads the arrival line by the round trip, jitter and margin, and paces the loop towards it', () => {
    const clock = new TickClock({ tickRate: 60, marginMs: 2, maxSlew: 0.05 });
    simulate(clock, 1, (n) => n * PERIOD + 50);
    for (let i = 0; i < 20; i++) clock.observeRoundTrip(100);
    expect(clock.roundTripMs).toBe(100);
    clock.update(1000);
    clock.update(1000 + 6000); // the prediction line slews onto its target
    expect(clock.leadMs).toBeCloseTo(102, 9);
    expect(clock.predictTick).toBeCloseTo(clock.arrivalTick + 102 / PERIOD, 9);
    expect(clock.paceFor(clock.predictTick)).toBe(1);
    expect(clock.paceFor(clock.predictTick - 10)).toBe(1.05);
    expect(clock.paceFor(clock.predictTick + 10)).toBe(0.95);
    const slightly = clock.paceFor(clock.predictTick - 0.5);
    expect(slightly).toBeGreaterThan(1);
    expect(slightly).toBeLessThan(1.05);
  });

  it('paces a client loop onto the prediction line: time scale within 1 ± maxSlew, error under half a tick', () => {
    const clock = new TickClock({ tickRate: 60, maxSlew: 0.05 });
    for (let i = 0; i < 8; i++) clock.observeRoundTrip(100);
    const loop = new FixedLoop({ tickRate: 60 });
    // The client starts 20 ticks behind where it should predict (a fresh connection).
    let predicted = -1;
    loop.onFixedUpdate(() => {
      predicted++;
    });
    let n = 0;
    const scales: number[] = [];
    const errors: number[] = [];
    for (let t = 0; t < 20_000; t += 1000 / 144) {
      while (n * PERIOD + 50 <= t) clock.observe(n, n++ * PERIOD + 50);
      clock.update(t);
      if (!clock.synced) continue;
      if (predicted < 0) predicted = Math.floor(clock.predictTick) - 20;
      loop.timeScale = clock.paceFor(predicted + loop.alpha);
      scales.push(loop.timeScale);
      loop.advance(1 / 144);
      errors.push(clock.predictTick - (predicted + loop.alpha));
    }
    expect(Math.min(...scales)).toBeGreaterThanOrEqual(0.95);
    expect(Math.max(...scales)).toBeLessThanOrEqual(1.05);
    expect(errors[0]).toBeGreaterThan(19);
    // 20 ticks (333 ms) at 5 % faster take under 7 s; after that it stays on the line.
    expect(Math.max(...errors.slice(144 * 10).map(Math.abs))).toBeLessThan(0.5);
  });

  it('smooths round trips as RFC 6298 does (gain 1/8), and ignores nonsense', () => {
    const clock = new TickClock();
    clock.observeRoundTrip(80);
    clock.observeRoundTrip(160);
    expect(clock.roundTripMs).toBe(90);
    clock.observeRoundTrip(Number.NaN);
    clock.observeRoundTrip(-5);
    clock.observe(Number.POSITIVE_INFINITY, 0);
    expect(clock.roundTripMs).toBe(90);
    expect(clock.synced).toBe(false);
  });

  it.each([
    ['tickRate', { tickRate: 0 }],
    ['window', { window: 1 }],
    ['maxSlew', { maxSlew: 1 }],
    ['snapMs', { snapMs: -1 }],
    ['marginMs', { marginMs: Number.NaN }],
  ])('names %s in a RangeError', (name, options) => {
    expect(() => new TickClock(options)).toThrow(new RegExp(`option "${name}"`));
  });
});
