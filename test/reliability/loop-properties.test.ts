/**
 * Property tests of the loop's accounting over random frame-time sequences (0, tiny, huge, NaN,
 * negative, infinite, backwards timestamps) and random live option changes, between frames and
 * from inside hooks. 1 000 cases per property.
 *
 * The accounting identity (derived from fixed-loop.ts and docs/timing-model.md): every second of
 * game time offered to the loop — each frame's sanitised (or captured) frame time × the frame's
 * scale, plus the hidden-page gap, plus one fixedDelta per `stepOnce()` — ends up in exactly one
 * place: a step that ran (`steps × fixedDelta`), `stats.droppedTime`, or `accumulator`.
 */
import { FixedLoop } from '@fixedtick/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUNS } from './arbitraries.ts';
import { LoopModel, ops } from './loop-model.ts';

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

describe('FixedLoop properties (1 000 random runs each)', () => {
  it('alpha stays within [0, 1] and nothing becomes NaN or infinite', () => {
    fc.assert(
      fc.property(ops(true), (list) => {
        const loop = newLoop();
        const model = new LoopModel(loop);
        for (const op of list) {
          const maxSteps = loop.maxStepsPerFrame;
          const info = model.apply(op);
          expect(loop.alpha).toBeGreaterThanOrEqual(0);
          expect(loop.alpha).toBeLessThanOrEqual(1);
          finiteState(loop);
          if (info === undefined) continue;
          expect(info.alpha).toBe(loop.alpha);
          expect(Number.isInteger(info.steps)).toBe(true);
          expect(info.steps).toBeGreaterThanOrEqual(0);
          expect(info.steps).toBeLessThanOrEqual(maxSteps + (op.kind === 'stepOnce' ? 1 : 0));
          for (const v of [info.delta, info.unscaledDelta, info.dropped]) {
            expect(Number.isFinite(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(0);
          }
        }
        expect(loop.stats.anomalies).toBe(model.anomalies);
      }),
      { numRuns: RUNS },
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
          expect(Math.abs(model.offered - accounted)).toBeLessThanOrEqual(model.tolerance());
          expect(Math.abs(model.dropped - loop.stats.droppedTime)).toBeLessThanOrEqual(
            model.tolerance(),
          );
          expect(loop.stats.steps).toBe(model.steps);
          expect(loop.tick).toBe(model.steps);
          expect(loop.stats.frames).toBe(model.frames);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('fixedTime === tick × fixedDelta per run of constant fixedDelta, and time = fixedTime + accumulator (≥ after a smaller fixedDelta)', () => {
    fc.assert(
      fc.property(ops(true), (list) => {
        const loop = newLoop();
        const model = new LoopModel(loop);
        for (const op of list) {
          model.apply(op);
          expect(loop.fixedTime).toBe(
            model.segmentTime + (loop.tick - model.segmentTick) * model.segmentDelta,
          );
          const tol = model.tolerance();
          expect(Math.abs(loop.fixedTime - model.stepsTime)).toBeLessThanOrEqual(tol);
          // time = fixedTime + accumulator; after a smaller fixedDelta the step cap may drop time
          // that earlier frames already counted in `time`, which never runs backwards: then ≥
          const lag = loop.time - (loop.fixedTime + loop.accumulator);
          expect(lag).toBeGreaterThanOrEqual(-tol);
          if (!model.shrunk) expect(lag).toBeLessThanOrEqual(tol);
        }
      }),
      { numRuns: RUNS },
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
          expect(Math.abs(model.offered - accounted)).toBeLessThanOrEqual(loan + model.tolerance());
        }
      }),
      { numRuns: RUNS },
    );
  });
});
