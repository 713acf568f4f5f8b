/**
 * Frame-rate independence as properties: the same total time, cut into frames any way at all,
 * gives the same fixed-step sequence of states (with neither clamp hit), from a
 * `performance.now()` or a `Date.now()` clock, and whole seconds of frames at any display rate
 * run exactly `seconds × tickRate` steps (no drift), from either clock. 1 000 cases each.
 */
import { FixedLoop } from '@fixedtick/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockOriginMs, PROPERTY_RUNS, SEED } from './arbitraries.ts';

const INF = Number.POSITIVE_INFINITY;

/** A jump integrated semi-implicitly in fixedUpdate; returns the state after every step. */
function jumpStates(loop: FixedLoop): number[] {
  const states: number[] = [];
  let y = 0;
  let v = 600;
  loop.onFixedUpdate((dt) => {
    v -= 1800 * dt;
    y += v * dt;
    states.push(y, v, dt);
  });
  return states;
}

/** Sorted distinct cut points strictly inside (0, totalMs). */
function cuts(totalMs: number, fractions: number[]): number[] {
  return [...new Set(fractions.map((f) => f * totalMs))]
    .filter((t) => t > 0 && t < totalMs)
    .sort((a, b) => a - b);
}

describe(`frame-partition properties (1 000 random runs each, seed ${SEED})`, () => {
  it('the fixed-step sequence of states does not depend on how the same time is cut into frames', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1 / 240, max: 0.1, noNaN: true }),
        fc.constantFrom(1, 0.5, 2, 1 / 3, 0.1),
        fc.double({ min: 10, max: 3000, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 120 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 120 }),
        clockOriginMs,
        (fixedDelta, timeScale, totalMs, cutsA, cutsB, origin) => {
          const run = (points: number[]) => {
            const loop = new FixedLoop({
              fixedDelta,
              timeScale,
              maxDeltaTime: INF,
              maxStepsPerFrame: INF,
            });
            const states = jumpStates(loop);
            loop.frame(origin);
            for (const t of points) loop.frame(origin + t);
            loop.frame(origin + totalMs);
            expect(loop.stats.droppedTime).toBe(0);
            return { states, tick: loop.tick, alpha: loop.alpha, loop };
          };
          const a = run(cuts(totalMs, cutsA));
          const b = run(cuts(totalMs, cutsB));
          // one frame for the whole time, through advance()
          // (at a Date.now() origin the end timestamp is rounded to the clock's ~0.2 µs: the
          // single frame gets that same time)
          const totalSeconds = (origin + totalMs - origin) / 1000;
          const single = new FixedLoop({
            fixedDelta,
            timeScale,
            maxDeltaTime: INF,
            maxStepsPerFrame: INF,
          });
          const singleStates = jumpStates(single);
          single.advance(totalSeconds);
          expect(a.tick).toBe(b.tick);
          expect(a.tick).toBe(single.tick);
          expect(a.states).toEqual(b.states);
          expect(a.states).toEqual(singleStates);
          expect(Math.abs(a.alpha - b.alpha)).toBeLessThanOrEqual(1e-9 / fixedDelta);
          expect(Math.abs(a.alpha - single.alpha)).toBeLessThanOrEqual(1e-9 / fixedDelta);
        },
      ),
      PROPERTY_RUNS,
    );
  });

  it('no drift: whole seconds of frames at any display rate run exactly seconds × tickRate steps', () => {
    const displayHz = fc.constantFrom(
      24,
      30,
      48,
      50,
      59.94,
      60,
      75,
      90,
      100,
      120,
      144,
      165,
      240,
      360,
    );
    const tickHz = fc.constantFrom(10, 30, 50, 60, 64, 100, 120, 128, 144, 240);
    fc.assert(
      fc.property(
        displayHz,
        tickHz,
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        clockOriginMs,
        (display, tickRate, seconds, viaTimestamps, origin) => {
          const loop = new FixedLoop({ tickRate, maxStepsPerFrame: INF });
          const frames = Math.round(seconds * display);
          // 59.94 Hz does not fill whole seconds: compare with the exact rational count instead
          const total = frames / display;
          if (viaTimestamps) {
            loop.frame(origin);
            for (let i = 1; i <= frames; i++) loop.frame(origin + (i * 1000) / display);
          } else {
            for (let i = 0; i < frames; i++) loop.advance(1 / display);
          }
          // exact expected count from integers: floor(frames × tickRate / display)
          const scaled = display === 59.94 ? 5994 : display * 100;
          const expected = Math.floor((frames * tickRate * 100) / scaled + 1e-12);
          expect(loop.tick).toBe(expected);
          expect(loop.fixedTime).toBeCloseTo(expected / tickRate, 9);
          // the time the frames stood for: with a Date.now() clock, as its timestamps round it
          const fed = viaTimestamps ? (origin + (frames * 1000) / display - origin) / 1000 : total;
          expect(Math.abs(fed - loop.fixedTime - loop.accumulator)).toBeLessThan(1e-9);
        },
      ),
      PROPERTY_RUNS,
    );
  });
});
