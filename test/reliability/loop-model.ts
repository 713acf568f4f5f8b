/**
 * A test-side model of the loop's *inputs*: it mirrors the documented sanitising rules (anomalies,
 * timestamp origin, capture mode, pause, timeScale) to know how much game time each call offered
 * the loop, and sums what the loop reports it did with it (steps × fixedDelta, dropped). The
 * properties then check the loop's accounting against it. The model never looks inside the loop.
 */

import type { FixedLoop, FrameInfo } from '@fixedtick/core';
import fc from 'fast-check';
import {
  applyOption,
  brokenTimestamp,
  frameSeconds,
  type OptionChange,
  optionChange,
  timestampStepMs,
} from './arbitraries.ts';

/** One thing a user does to a live loop. */
export type Op =
  | { kind: 'advance'; seconds: number }
  | { kind: 'frame'; stepMs: number }
  | { kind: 'frameBroken'; timestampMs: number }
  | { kind: 'frameAfterGap'; stepMs: number }
  | { kind: 'set'; change: OptionChange }
  | { kind: 'setInHook'; hook: 'onFixedUpdate' | 'onUpdate' | 'onFrameStart'; change: OptionChange }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'stepOnce' };

/** Operations on a loop; `withJitter` lets `jitterFix` be switched on and off. */
export function ops(withJitter: boolean, maxLength = 60): fc.Arbitrary<Op[]> {
  const change = optionChange(withJitter);
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: frameSeconds }),
    },
    {
      weight: 10,
      arbitrary: fc.record({ kind: fc.constant('frame' as const), stepMs: timestampStepMs }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('frameBroken' as const),
        timestampMs: brokenTimestamp,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('frameAfterGap' as const),
        stepMs: timestampStepMs,
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), change }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('setInHook' as const),
        hook: fc.constantFrom(
          'onFixedUpdate' as const,
          'onUpdate' as const,
          'onFrameStart' as const,
        ),
        change,
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'pause' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'stepOnce' as const }) },
  );
  return fc.array(op, { minLength: 1, maxLength });
}

/** Running totals the model keeps next to a loop. */
export class LoopModel {
  /** Game time offered to the loop: frame time (after sanitising, capture) × scale, gaps, forced steps. */
  offered = 0;
  /** Σ |terms| of every sum above (for the float-rounding part of the tolerance). */
  magnitude = 0;
  /** Σ steps × the fixedDelta the frame ran them with. */
  stepsTime = 0;
  /** Σ FrameInfo.steps. */
  steps = 0;
  /** Σ FrameInfo.dropped. */
  dropped = 0;
  /** Frames run. */
  frames = 0;
  /** Anomalies the documented sanitising rules predict. */
  anomalies = 0;
  /** The model's idea of the loop's timestamp origin (NaN = none yet). */
  origin = Number.NaN;
  /** The test's clock: where the next `frame()` timestamp is measured from. */
  clock = 1000;
  /** `fixedTime` at the start of the current run of constant fixedDelta, and its tick. */
  segmentTime = 0;
  segmentTick = 0;
  segmentDelta: number;
  /**
   * True once fixedDelta was made smaller: from then on the accumulator may hold more steps than
   * the step cap lets a frame run, and dropping those (already counted in `time`) makes
   * `time > fixedTime + accumulator` — time never runs backwards.
   */
  shrunk = false;

  constructor(readonly loop: FixedLoop) {
    this.segmentDelta = loop.fixedDelta;
  }

  /** Float rounding allowance on top of the 1 ns contract: a few ulps per frame of the sums. */
  tolerance(): number {
    return 1e-9 + (this.frames + 4) * 4 * Number.EPSILON * this.magnitude;
  }

  #offer(seconds: number): void {
    this.offered += seconds;
    this.magnitude += Math.abs(seconds);
  }

  /** Runs `op` on the loop and updates the model. Returns the FrameInfo when a frame ran. */
  apply(op: Op): FrameInfo | undefined {
    const loop = this.loop;
    const scale = loop.paused ? 0 : loop.timeScale;
    const capture = loop.captureDeltaTime;
    const fd = loop.fixedDelta;
    const frameWith = (frameTime: number, gap: number, forced: number): number => {
      // a stepOnce() frame brings no time of its own, even in capture mode
      const raw = capture > 0 && forced === 0 ? capture : frameTime;
      this.#offer(raw * scale);
      this.#offer(gap * scale);
      this.#offer(forced * fd);
      return raw;
    };
    let info: FrameInfo | undefined;
    switch (op.kind) {
      case 'advance': {
        const s = op.seconds;
        const bad = !(s >= 0) || s === Number.POSITIVE_INFINITY;
        if (bad) this.anomalies++;
        frameWith(bad ? 0 : s, 0, 0);
        info = loop.advance(s);
        break;
      }
      case 'frame': {
        const ts = this.clock + op.stepMs;
        this.clock = ts;
        let frameTime = 0;
        if (!Number.isNaN(this.origin)) {
          if (ts < this.origin) this.anomalies++;
          else frameTime = (ts - this.origin) / 1000;
        }
        this.origin = ts;
        frameWith(frameTime, 0, 0);
        info = loop.frame(ts);
        break;
      }
      case 'frameBroken':
        this.anomalies++;
        frameWith(0, 0, 0);
        info = loop.frame(op.timestampMs);
        break;
      case 'frameAfterGap': {
        const ts = this.clock + op.stepMs;
        this.clock = ts;
        if (ts < this.origin) this.anomalies++;
        const gap = Number.isNaN(this.origin) || ts < this.origin ? 0 : (ts - this.origin) / 1000;
        this.origin = ts;
        frameWith(0, gap, 0);
        info = loop.frameAfterGap(ts);
        break;
      }
      case 'set':
        applyOption(loop as unknown as Parameters<typeof applyOption>[0], op.change);
        break;
      case 'setInHook': {
        const off = loop[op.hook](() => {
          off();
          applyOption(loop as unknown as Parameters<typeof applyOption>[0], op.change);
        });
        break;
      }
      case 'pause':
        loop.pause();
        break;
      case 'resume':
        loop.resume();
        break;
      case 'stepOnce':
        frameWith(0, 0, 1);
        info = loop.stepOnce();
        break;
    }
    if (info !== undefined) {
      this.frames++;
      this.steps += info.steps;
      this.stepsTime += info.steps * fd;
      this.magnitude += Math.abs(info.steps * fd) + info.dropped;
      this.dropped += info.dropped;
    }
    if (loop.fixedDelta < this.segmentDelta) this.shrunk = true;
    if (loop.fixedDelta !== this.segmentDelta) {
      // a new run of constant fixedDelta starts where the old one ended
      this.segmentTime += (loop.tick - this.segmentTick) * this.segmentDelta;
      this.segmentTick = loop.tick;
      this.segmentDelta = loop.fixedDelta;
    }
    return info;
  }
}
