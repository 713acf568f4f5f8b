/**
 * Bugs the reliability properties found in the core, each pinned by the smallest trajectory that
 * shows it (found by fast-check, shrunk, then written out by hand).
 */
import { FixedLoop, presets } from '@fixedtick/core';
import { nodeDriver } from '@fixedtick/core/node';
import { describe, expect, it } from 'vitest';

describe('reliability regressions', () => {
  it('an accumulator a rounding error below -1 ns counts as 0 steps, never -1', () => {
    // 16 steps less 1 ns: the tolerance takes the 16th step and leaves -1.00000003e-9 s
    const loop = new FixedLoop({ maxDeltaTime: Number.POSITIVE_INFINITY, maxStepsPerFrame: 99 });
    expect(loop.advance(16 / 60 - 1e-9).steps).toBe(16);
    expect(loop.accumulator).toBeLessThan(-1e-9);
    loop.pause();
    const info = loop.advance(0.01);
    expect(info.steps).toBe(0);
    expect(info.alpha).toBe(0);
    // no step of time handed back: the accumulator is still the tiny overdraft
    expect(loop.accumulator).toBeCloseTo(-1e-9, 15);
    expect(loop.advance(0).steps).toBe(0);
    expect(loop.tick).toBe(16);
    expect(loop.stats.lastSteps).toBe(0);
  });

  it('fixedDelta set inside a fixed step applies from the next frame, fixedTime included', () => {
    const loop = new FixedLoop({ maxStepsPerFrame: Number.POSITIVE_INFINITY });
    const seen: number[] = [];
    loop.onFixedUpdate((dt, tick) => {
      seen.push(dt);
      if (tick === 0) loop.fixedDelta = 1 / 240;
    });
    // 0.25 s = 15 steps of 1/60; the change comes during the first one
    expect(loop.advance(0.25).steps).toBe(15);
    expect(seen).toEqual(Array(15).fill(1 / 60));
    expect(loop.fixedTime).toBeCloseTo(0.25, 12);
    expect(loop.fixedDelta).toBe(1 / 240);
    seen.length = 0;
    expect(loop.advance(1 / 60).steps).toBe(4);
    expect(seen).toEqual(Array(4).fill(1 / 240));
    expect(loop.fixedTime).toBeCloseTo(0.25 + 1 / 60, 12);
    expect(loop.time).toBeCloseTo(loop.fixedTime + loop.accumulator, 12);
  });

  it('a paused loop runs no step even when a smaller fixedDelta leaves many in the accumulator', () => {
    const loop = new FixedLoop({ fixedDelta: 0.1, maxStepsPerFrame: 8 });
    loop.advance(0.09);
    loop.pause();
    loop.fixedDelta = 1 / 240; // 0.09 s is now 21.6 steps
    const info = loop.advance(0.016);
    expect([info.steps, info.dropped, loop.tick]).toEqual([0, 0, 0]);
    expect(loop.accumulator).toBe(0.09);
    loop.resume();
    // the first frame with game time runs them, under the step cap (8), and drops the rest
    const next = loop.advance(0.001);
    expect(next.steps).toBe(8);
    expect(next.dropped).toBeCloseTo(13 / 240, 12);
    expect(loop.alpha).toBeCloseTo(0.84, 9);
  });

  it('onFrameStart of the very first frame receives alpha 0, a number', () => {
    const loop = new FixedLoop();
    const seen: unknown[] = [];
    loop.onFrameStart((delta, alpha) => seen.push(delta, alpha));
    loop.advance(0.01);
    loop.advance(0.01);
    expect(seen[0]).toBe(0.01);
    expect(seen[1]).toBe(0);
    expect(seen[3]).toBeCloseTo(0.6, 12);
  });

  it('switching jitterFix off and on loses no time: the fix’s loan is paid back', () => {
    const loop = new FixedLoop({ maxStepsPerFrame: Number.POSITIVE_INFINITY });
    let offered = 0;
    let seed = 1;
    let worst = 0;
    for (let i = 0; i < 20_000; i++) {
      if (i % 7 === 0) loop.jitterFix = loop.jitterFix === 0 ? 0.5 : 0;
      seed = (seed * 16807) % 2147483647;
      const frame = 1 / 60 + (seed / 2147483647 - 0.5) * 0.004; // 60 Hz ± 2 ms
      offered += frame;
      loop.advance(frame);
      const gap = offered - (loop.fixedTime + loop.stats.droppedTime + loop.accumulator);
      worst = Math.max(worst, Math.abs(gap));
    }
    // before the fix, switching it back on forgot the loan: 137 steps were gone after 20 000 frames
    expect(worst).toBeLessThanOrEqual(0.5 / 60 + 1e-9);
    expect(loop.time - loop.fixedTime - loop.accumulator).toBeCloseTo(0, 9);
  });

  it('stepOnce runs exactly one step in capture mode too, and leaves the accumulator alone', () => {
    const loop = new FixedLoop({ captureDeltaTime: 0.05 });
    loop.advance(0); // 3 captured steps, 0.0 s left over
    const tick = loop.tick;
    const accumulator = loop.accumulator;
    const info = loop.stepOnce();
    expect(info.steps).toBe(1);
    expect(info.delta).toBe(1 / 60);
    expect(loop.tick).toBe(tick + 1);
    expect(loop.accumulator).toBe(accumulator);
  });

  it('frameAfterGap with a timestamp earlier than the last counts a backwards anomaly, like frame()', () => {
    const loop = new FixedLoop();
    const kinds: string[] = [];
    loop.onAnomaly((kind) => kinds.push(kind));
    loop.frame(10_000);
    const info = loop.frameAfterGap(4_000);
    expect([info.steps, info.dropped]).toEqual([0, 0]);
    expect(kinds).toEqual(['backwards']);
    expect(loop.stats.anomalies).toBe(1);
    loop.frame(4_000 + 1000 / 60);
    expect(loop.tick).toBe(1);
  });

  it('an absurd frame time with neither clamp (Godot preset) leaves a sane loop that keeps stepping', () => {
    // before: 7.1e24 s left the accumulator at -1 073 741 824 s (no step for 34 years) and
    // 1.8e308 s made it -Infinity (with jitterFix: NaN steps and alpha)
    for (const seconds of [3.3e22, 7.1e24, 9.9e28, 1e300, Number.MAX_VALUE]) {
      for (const options of [presets.godot, { ...presets.godot, jitterFix: 0 }]) {
        const loop = new FixedLoop(options);
        loop.advance(1 / 60);
        const info = loop.advance(seconds);
        expect(info.steps).toBe(8);
        expect(Number.isFinite(info.dropped)).toBe(true);
        expect(loop.accumulator).toBeGreaterThanOrEqual(0);
        expect(loop.accumulator).toBeLessThan(1 / 60);
        let steps = 0;
        for (let i = 0; i < 60; i++) steps += loop.advance(1 / 60).steps;
        expect(steps).toBeGreaterThanOrEqual(59);
        expect(steps).toBeLessThanOrEqual(61);
        expect(Number.isFinite(loop.alpha)).toBe(true);
      }
    }
  });
});

/** Every number a loop lets you read. */
function readable(loop: FixedLoop): number[] {
  const info = loop.lastFrame;
  return [
    loop.time,
    loop.fixedTime,
    loop.unscaledTime,
    loop.alpha,
    loop.accumulator,
    loop.overstep,
    loop.tick,
    loop.stats.droppedTime,
    loop.stats.steps,
    info.delta,
    info.unscaledDelta,
    info.dropped,
    info.alpha,
  ];
}

describe('issue 18: hostile input (loop)', () => {
  it('item 1: a refused nested stepOnce() has no effect: no step runs next frame', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    loop.pause();
    let refused = 0;
    loop.onUpdate(() => {
      try {
        loop.stepOnce();
      } catch {
        refused++;
      }
    });
    loop.advance(1 / 60);
    loop.advance(1 / 60);
    expect(refused).toBe(2);
    expect(loop.tick).toBe(0);
  });

  it('item 1: a refused nested frame() or frameAfterGap() keeps the timestamp origin', () => {
    for (const nested of ['frame', 'frameAfterGap'] as const) {
      const loop = new FixedLoop({ tickRate: 60 });
      loop.frame(1000);
      let refused = 0;
      loop.onPreRender(() => {
        try {
          loop[nested](9_000_000);
        } catch {
          refused++;
        }
      });
      loop.frame(1000 + 1000 / 60);
      loop.frame(1000 + 2000 / 60);
      expect([refused, loop.tick, loop.stats.anomalies]).toEqual([2, 2, 0]);
    }
  });

  it('item 1: a refused nested advance(NaN) counts no anomaly and its listener never runs, even under errorPolicy throw', () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const anomalies: string[] = [];
    loop.onAnomaly((kind) => {
      anomalies.push(kind);
      throw new Error('anomaly listener');
    });
    loop.onUpdate(() => {
      try {
        loop.advance(Number.NaN);
      } catch {
        // refused: the frame under way goes on
      }
    });
    expect(() => loop.advance(1 / 60)).not.toThrow();
    expect(loop.stats.anomalies).toBe(0);
    expect(anomalies).toEqual([]);
  });

  it('item 2: onAnomaly runs inside the re-entrancy guard: advance(NaN) from it is refused, no recursion', () => {
    const loop = new FixedLoop();
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    let calls = 0;
    loop.onAnomaly(() => {
      calls++;
      loop.advance(Number.NaN);
    });
    loop.advance(Number.NaN);
    expect(calls).toBe(1);
    expect(loop.stats.anomalies).toBe(1);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/inside a frame/);
  });

  it.each([
    [
      'advance(1e308) twice',
      {},
      (l: FixedLoop) => {
        l.advance(1e308);
        l.advance(1e308);
      },
    ],
    ['timeScale 2 with advance(1.7e308)', { timeScale: 2 }, (l: FixedLoop) => l.advance(1.7e308)],
    [
      'Godot preset with Number.MAX_VALUE, three times',
      presets.godot,
      (l: FixedLoop) => {
        for (let i = 0; i < 3; i++) l.advance(Number.MAX_VALUE);
      },
    ],
    [
      'paused with maxDeltaTime Infinity',
      { maxDeltaTime: Number.POSITIVE_INFINITY },
      (l: FixedLoop) => {
        l.pause();
        l.advance(Number.MAX_VALUE);
        l.advance(1);
      },
    ],
    [
      'timeScale 1e308 and huge frames',
      { timeScale: 1e308, maxDeltaTime: Number.POSITIVE_INFINITY },
      (l: FixedLoop) => {
        for (let i = 0; i < 3; i++) l.advance(1e300);
      },
    ],
    [
      'accumulateOverstep at its maximum, repeatedly',
      { maxDeltaTime: Number.POSITIVE_INFINITY },
      (l: FixedLoop) => {
        for (let i = 0; i < 5; i++) l.accumulateOverstep(1e9);
        l.advance(0);
      },
    ],
  ] as const)('item 3: every readable number stays finite: %s', (_name, options, run) => {
    const loop = new FixedLoop(options);
    loop.advance(1 / 60);
    run(loop);
    expect(readable(loop).every(Number.isFinite)).toBe(true);
    expect(loop.time).toBeGreaterThanOrEqual(loop.fixedTime);
  });

  it('item 3: frame(-1.7e308) then frame(1.7e308) is an anomaly (the interval is infinite)', () => {
    const loop = new FixedLoop();
    const kinds: string[] = [];
    loop.onAnomaly((kind) => kinds.push(kind));
    loop.frame(-1.7e308);
    const info = loop.frame(1.7e308);
    expect(kinds).toEqual(['infinite']);
    expect(info.steps).toBe(0);
    expect(readable(loop).every(Number.isFinite)).toBe(true);
    // the timestamp is the new origin: the next frame runs normally
    expect(loop.frame(1.7e308).steps).toBe(0);
  });

  it('item 3: captureDeltaTime 1e308 is refused', () => {
    expect(() => new FixedLoop({ captureDeltaTime: 1e308 })).toThrow(/"captureDeltaTime".*1e\+308/);
  });

  it.each([5.6e-309, 1e-300, 1e-10, Number.MIN_VALUE])(
    'item 4: tickRate %s is a RangeError naming tickRate, in the options, the setter and nodeDriver',
    (rate) => {
      const expected = new RegExp(`"tickRate".*got ${String(rate).replace('+', '\\+')}`);
      expect(() => new FixedLoop({ tickRate: rate })).toThrow(expected);
      expect(() => {
        new FixedLoop().tickRate = rate;
      }).toThrow(expected);
      expect(() => nodeDriver({ tickRate: rate })).toThrow(expected);
    },
  );

  it('#28: a step over 1 s is refused with a hint that the unit is seconds', () => {
    // fixedDelta: 16 (milliseconds by mistake) ran 0 steps in 10 s before
    const hint = 'fixedDelta is in seconds: did you mean 16 ms = 0.016 s?';
    expect(() => new FixedLoop({ fixedDelta: 16 })).toThrow(
      `fixedtick: option "fixedDelta" must be a number of seconds > 0 and ≤ 1, got 16 — ${hint}`,
    );
    expect(() => {
      new FixedLoop().fixedDelta = 16;
    }).toThrow(hint);
    expect(() => new FixedLoop({ tickRate: 0.016 })).toThrow(
      'fixedtick: option "tickRate" must be a finite rate in Hz ≥ 1, got 0.016 — tickRate is in Hz: for a step of 0.016 s, write fixedDelta: 0.016',
    );
    expect(() => nodeDriver({ tickRate: 0.5 })).toThrow(/"tickRate" must be .* ≥ 1, got 0\.5/);
    expect(() => new FixedLoop({ fixedDelta: 1.5 })).toThrow(RangeError);
    // the edge is allowed: one step a second
    expect(new FixedLoop({ fixedDelta: 1 }).tickRate).toBe(1);
    expect(new FixedLoop({ tickRate: 1 }).fixedDelta).toBe(1);
  });

  it('item 7: a disposed loop counts no anomalies', () => {
    const loop = new FixedLoop();
    loop.dispose();
    loop.advance(Number.NaN);
    loop.frame(Number.NaN);
    loop.frameAfterGap(-1);
    expect(loop.stats.anomalies).toBe(0);
    expect(loop.stats.frames).toBe(0);
  });

  it('item 9: { priority: null } is a RangeError, not the default', () => {
    const loop = new FixedLoop();
    expect(() => loop.onUpdate(() => {}, { priority: null as never })).toThrow(
      /"priority" must be a number, got null/,
    );
    expect(() => loop.onUpdate(() => {}, 5 as never)).toThrow(/options must be an object/);
  });

  it.each([1.7e12, 6e10, 2 ** 42])(
    'item 11: frame() is exact for Date.now()-sized timestamps (origin %s ms): the same steps as from 0',
    (origin) => {
      for (const hz of [60, 144, 120, 30]) {
        const near = new FixedLoop({ tickRate: 60 });
        const far = new FixedLoop({ tickRate: 60 });
        near.frame(0);
        far.frame(origin);
        for (let k = 1; k <= 20_000; k++) {
          const a = near.frame((k * 1000) / hz).steps;
          const b = far.frame(origin + (k * 1000) / hz).steps;
          if (a !== b) expect({ hz, k, far: b }).toEqual({ hz, k, far: a });
        }
        expect(far.tick).toBe(near.tick);
        // no drift: 20 000 frames at hz Hz are exactly that many 60 Hz steps
        expect(far.tick).toBe(Math.floor((20_000 * 60) / hz));
      }
    },
  );
});
