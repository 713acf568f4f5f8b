/**
 * Property tests of the loop's accounting over random frame-time sequences (0, tiny, huge, NaN,
 * negative, infinite, backwards timestamps, doubles at the edge of overflow, `Date.now()`-sized
 * clocks), random live option changes between frames and from inside hooks, and frames started
 * from inside every hook (each must be refused, with no effect at all). 1 000 cases per
 * property, from a fixed seed (in the suite's title).
 *
 * The accounting identity (derived from fixed-loop.ts and docs/timing-model.md): every second of
 * game time offered to the loop — each frame's sanitised (or captured) frame time × the frame's
 * scale, plus the hidden-page gap, plus one fixedDelta per `stepOnce()` — ends up in exactly one
 * place: a step that ran (`steps × fixedDelta`), `stats.droppedTime`, or `accumulator`.
 */
import { FixedLoop } from '@fixedtick/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockOriginMs, PROPERTY_RUNS, SEED } from './arbitraries.ts';
import { extremeOps, LoopModel, ops } from './loop-model.ts';

/** A cheap assertion for the per-frame checks (`expect` per frame dominates the run time). */
function check(ok: boolean, what: string, value?: unknown): void {
  if (!ok) throw new Error(`${what}: got ${String(value)}`);
}

function finiteState(loop: FixedLoop): void {
  for (const [name, value] of [
    ['tick', loop.tick],
    ['fixedTime', loop.fixedTime],
    ['time', loop.time],
    ['unscaledTime', loop.unscaledTime],
    ['accumulator', loop.accumulator],
    ['alpha', loop.alpha],
    ['stats.steps', loop.stats.steps],
    ['stats.droppedTime', loop.stats.droppedTime],
  ] as const) {
    if (!Number.isFinite(value)) throw new Error(`${name} is ${value}`);
  }
}

function newLoop(): FixedLoop {
  // errors must not pass silently: a listener error is rethrown after its frame
  return new FixedLoop({ errorPolicy: 'throw' });
}

/** Nested frame calls attempted over all runs (so a property can show it tried them). */
let nestedTried = 0;

/** Every frame started from inside a hook was refused. */
function allNestedRefused(model: LoopModel): void {
  nestedTried += model.nestedCalls;
  check(model.nestedRefused === model.nestedCalls, 'nested frames refused', model.nestedRefused);
}

describe(`FixedLoop properties (1 000 random runs each, seed ${SEED})`, () => {
  it('alpha stays within [0, 1] and nothing becomes NaN or infinite', () => {
    fc.assert(
      fc.property(ops(true), (list) => {
        const loop = newLoop();
        const model = new LoopModel(loop);
        for (const op of list) {
          const maxSteps = loop.maxStepsPerFrame;
          const info = model.apply(op);
          check(loop.alpha >= 0 && loop.alpha <= 1, 'alpha in [0, 1]', loop.alpha);
          finiteState(loop);
          if (info === undefined) continue;
          check(info.alpha === loop.alpha, 'FrameInfo.alpha is loop.alpha', info.alpha);
          const cap = maxSteps + (op.kind === 'stepOnce' ? 1 : 0);
          check(Number.isInteger(info.steps), 'steps is a whole number', info.steps);
          check(info.steps >= 0 && info.steps <= cap, 'steps within [0, cap]', info.steps);
          for (const v of [info.delta, info.unscaledDelta, info.dropped]) {
            check(Number.isFinite(v) && v >= 0, 'delta, unscaledDelta, dropped finite ≥ 0', v);
          }
        }
        expect(loop.stats.anomalies).toBe(model.anomalies);
        allNestedRefused(model);
      }),
      PROPERTY_RUNS,
    );
  });

  it('steps run + time dropped + accumulator account for all offered time (within 1 ns)', () => {
    fc.assert(
      fc.property(ops(false), (list) => {
        const loop = newLoop();
        const model = new LoopModel(loop);
        for (const op of list) {
          model.apply(op);
          const accounted = model.stepsTime + loop.stats.droppedTime + loop.accumulator;
          const tol = model.tolerance();
          const gap = model.offered - accounted;
          check(Math.abs(gap) <= tol, `offered − accounted within ${tol} s`, gap);
          const dropped = model.dropped - loop.stats.droppedTime;
          check(Math.abs(dropped) <= tol, 'Σ FrameInfo.dropped = stats.droppedTime', dropped);
          check(loop.stats.steps === model.steps, 'stats.steps = Σ steps', loop.stats.steps);
          check(loop.tick === model.steps, 'tick = Σ steps', loop.tick);
          check(loop.stats.frames === model.frames, 'stats.frames', loop.stats.frames);
        }
        expect(loop.stats.frames).toBe(model.frames);
        allNestedRefused(model);
      }),
      PROPERTY_RUNS,
    );
  });

  it('fixedTime === tick × fixedDelta per run of constant fixedDelta, and time = fixedTime + accumulator (≥ after a smaller fixedDelta)', () => {
    fc.assert(
      fc.property(ops(true), (list) => {
        const loop = newLoop();
        const model = new LoopModel(loop);
        for (const op of list) {
          model.apply(op);
          const segment = model.segmentTime + (loop.tick - model.segmentTick) * model.segmentDelta;
          check(loop.fixedTime === segment, 'fixedTime === tick × fixedDelta per segment', [
            loop.fixedTime,
            segment,
          ]);
          const tol = model.tolerance();
          const simulated = loop.fixedTime - model.stepsTime;
          check(Math.abs(simulated) <= tol, 'fixedTime = time the steps simulated', simulated);
          // time = fixedTime + accumulator; after a smaller fixedDelta the step cap may drop time
          // that earlier frames already counted in `time`, which never runs backwards: then ≥
          const lag = loop.time - (loop.fixedTime + loop.accumulator);
          check(lag >= -tol, 'time ≥ fixedTime + accumulator', lag);
          if (!model.shrunk) check(lag <= tol, 'time = fixedTime + accumulator', lag);
          check(loop.time >= loop.fixedTime, 'time ≥ fixedTime, exactly', loop.time);
        }
        expect(loop.tick).toBe(model.steps);
      }),
      PROPERTY_RUNS,
    );
  });

  it('with jitterFix switched on and off, time borrowed by the jitter fix stays bounded', () => {
    fc.assert(
      fc.property(ops(true), (list) => {
        const loop = newLoop();
        const model = new LoopModel(loop);
        let largestStep = loop.fixedDelta;
        for (const op of list) {
          model.apply(op);
          largestStep = Math.max(largestStep, loop.fixedDelta);
          // the jitter fix may run a frame up to jitterFix (≤ 2) steps early or late and pays the
          // difference back later: offered and accounted time differ by at most that loan
          const accounted = model.stepsTime + loop.stats.droppedTime + loop.accumulator;
          const loan = 3 * largestStep;
          const gap = model.offered - accounted;
          check(Math.abs(gap) <= loan + model.tolerance(), 'loan within 3 steps', gap);
        }
        expect(loop.stats.frames).toBe(model.frames);
      }),
      PROPERTY_RUNS,
    );
  });

  it('with a Date.now()-sized clock, steps + dropped + accumulator still account for all offered time', () => {
    fc.assert(
      fc.property(clockOriginMs, ops(false), (origin, list) => {
        const loop = newLoop();
        const model = new LoopModel(loop, origin);
        for (const op of list) {
          model.apply(op);
          const accounted = model.stepsTime + loop.stats.droppedTime + loop.accumulator;
          // the timestamps' own rounding (|t| × 2^-52 ms) comes on top of the float sums
          const tol = model.tolerance() + (model.clock * Number.EPSILON) / 1000;
          check(Math.abs(model.offered - accounted) <= tol, 'offered − accounted', origin);
          check(loop.time >= loop.fixedTime, 'time ≥ fixedTime', loop.time);
        }
        expect(loop.stats.anomalies).toBe(model.anomalies);
        allNestedRefused(model);
      }),
      PROPERTY_RUNS,
    );
  });

  it('at the edges of the doubles every readable number stays finite, alpha in [0, 1], time ≥ fixedTime, nested frames refused', () => {
    fc.assert(
      fc.property(clockOriginMs, extremeOps(true), (origin, list) => {
        const loop = newLoop();
        const model = new LoopModel(loop, origin);
        for (const op of list) {
          const info = model.apply(op);
          finiteState(loop);
          check(loop.alpha >= 0 && loop.alpha <= 1, 'alpha in [0, 1]', loop.alpha);
          check(loop.time >= loop.fixedTime, 'time ≥ fixedTime', loop.time);
          check(loop.overstep >= 0, 'overstep ≥ 0', loop.overstep);
          if (info === undefined) continue;
          for (const v of [info.delta, info.unscaledDelta, info.dropped, info.alpha]) {
            check(Number.isFinite(v) && v >= 0, 'FrameInfo numbers finite ≥ 0', v);
          }
        }
        expect(loop.stats.anomalies).toBe(model.anomalies);
        allNestedRefused(model);
      }),
      PROPERTY_RUNS,
    );
  });

  it('the properties above tried over a thousand nested frames from inside hooks', () => {
    expect(nestedTried).toBeGreaterThan(1000);
  });
});
