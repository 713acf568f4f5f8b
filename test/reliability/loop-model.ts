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
  extremeSeconds,
  extremeTimestampMs,
  frameSeconds,
  type OptionChange,
  optionChange,
  timestampStepMs,
} from './arbitraries.ts';

/** The hooks every frame (or step) dispatches, in frame order. */
export const FRAME_HOOKS = [
  'onFrameStart',
  'onFixedUpdate',
  'onPostSimulation',
  'onUpdate',
  'onLateUpdate',
  'onPreRender',
  'onPostRender',
] as const;

/** Every hook of a loop: a nested frame may be attempted from any of them. */
export const ALL_HOOKS = [...FRAME_HOOKS, 'onStepsDropped', 'onAnomaly'] as const;

/** A frame entry point called from inside a frame (it must be refused, with no effect). */
export type NestedCall = 'advance' | 'frame' | 'frameAfterGap' | 'stepOnce';

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
  | { kind: 'stepOnce' }
  | { kind: 'nest'; hook: (typeof ALL_HOOKS)[number]; call: NestedCall; value: number }
  | { kind: 'frameAt'; timestampMs: number };

/** A nested frame call from inside a hook, with a value that would count if it were run. */
const nested: fc.Arbitrary<Op> = fc.record({
  kind: fc.constant('nest' as const),
  hook: fc.constantFrom(...ALL_HOOKS),
  call: fc.constantFrom(
    'advance' as const,
    'frame' as const,
    'frameAfterGap' as const,
    'stepOnce' as const,
  ),
  value: fc.oneof(frameSeconds, fc.constantFrom(0, 1e12, -5, 1.7e12)),
});

/**
 * Operations at the edges of the doubles: extreme frame times and absolute timestamps, with the
 * ordinary ones and nested calls between them.
 */
export function extremeOps(withJitter: boolean, maxLength = 40): fc.Arbitrary<Op[]> {
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: extremeSeconds }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('frameAt' as const),
        timestampMs: extremeTimestampMs,
      }),
    },
    { weight: 4, arbitrary: ops(withJitter, 1).map((list) => list[0]) },
    { weight: 2, arbitrary: nested },
  );
  return fc.array(op, { minLength: 1, maxLength });
}

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
    { weight: 2, arbitrary: nested },
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
  clock: number;
  /** Nested frame calls attempted from inside a hook, and how many of them were refused. */
  nestedCalls = 0;
  nestedRefused = 0;
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

  /** @param clockStartMs where the test's timestamp clock starts (a `Date.now()` value, say). */
  constructor(
    readonly loop: FixedLoop,
    clockStartMs = 1000,
  ) {
    this.segmentDelta = loop.fixedDelta;
    this.clock = clockStartMs;
  }

  /** Float rounding allowance on top of the 1 ns contract: a few ulps per frame of the sums. */
  tolerance(): number {
    return 1e-9 + (this.frames + 4) * 4 * Number.EPSILON * this.magnitude;
  }

  #offer(seconds: number): void {
    this.offered += seconds;
    this.magnitude += Math.abs(seconds);
  }

  /** `frame(ts)` as the documented rules see it: origin, backwards and overflowing intervals. */
  #frameAt(ts: number, frameWith: (frameTime: number, gap: number, forced: number) => number) {
    let frameTime = 0;
    if (!Number.isNaN(this.origin)) {
      const elapsed = ts - this.origin;
      if (elapsed < 0 || elapsed === Number.POSITIVE_INFINITY) this.anomalies++;
      else frameTime = elapsed / 1000;
    }
    this.origin = ts;
    frameWith(frameTime, 0, 0);
    return this.loop.frame(ts);
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
        info = this.#frameAt(ts, frameWith);
        break;
      }
      case 'frameAt':
        info = Number.isFinite(op.timestampMs)
          ? this.#frameAt(op.timestampMs, frameWith)
          : undefined;
        break;
      case 'nest': {
        const off = loop[op.hook](() => {
          off();
          this.nestedCalls++;
          try {
            if (op.call === 'stepOnce') loop.stepOnce();
            else if (op.call === 'advance') loop.advance(op.value);
            else loop[op.call](this.clock + op.value);
          } catch (error) {
            if (String(error).includes('inside a frame')) this.nestedRefused++;
          }
        });
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
        const elapsed = ts - this.origin;
        const bad = elapsed < 0 || elapsed === Number.POSITIVE_INFINITY;
        if (bad) this.anomalies++;
        const gap = Number.isNaN(this.origin) || bad ? 0 : elapsed / 1000;
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
