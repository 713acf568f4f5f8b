import { FixedLoop, type FrameInfo, presets, resolveOptions } from '@fixedtick/core';
import { describe, expect, it, vi } from 'vitest';

const snapshot = (info: FrameInfo): FrameInfo => ({ ...info });

describe('presets on a single 1-second frame', () => {
  // Expected values follow from each preset's table row (docs/timing-model.md):
  // unity: 1 s clamped to 1/3 s → 16 steps of 0.02, remainder 1/75 s (alpha 2/3), 2/3 s dropped.
  // godot: no clamp, 60 steps due, cap 8 → 52 whole steps (52/60 s) dropped, alpha 0.
  // roblox/fiedler/bevy: clamped to 0.25 s → 15 / 25 / 16 steps, 0.75 s dropped, alpha 0.
  it.each([
    ['unity', 16, 2 / 3, 2 / 3],
    ['godot', 8, 52 / 60, 0],
    ['roblox', 15, 0.75, 0],
    ['fiedler', 25, 0.75, 0],
    ['bevy', 16, 0.75, 0],
  ] as const)('%s runs %i steps, drops %f s, alpha %f', (name, steps, dropped, alpha) => {
    const loop = new FixedLoop({ ...presets[name] });
    const info = loop.advance(1);
    expect(info.steps).toBe(steps);
    expect(info.dropped).toBeCloseTo(dropped, 9);
    expect(info.alpha).toBeCloseTo(alpha, 6);
    expect(loop.stats.droppedTime).toBeCloseTo(dropped, 9);
  });

  it('godot: the step cap reports the dropped steps through onStepsDropped', () => {
    const loop = new FixedLoop({ ...presets.godot });
    const dropped = vi.fn();
    loop.onStepsDropped(dropped);
    loop.advance(1);
    expect(dropped).toHaveBeenCalledTimes(1);
    expect(dropped.mock.calls[0][0]).toBe(52);
    expect(dropped.mock.calls[0][1]).toBeCloseTo(52 / 60, 12);
  });

  it('a preset spreads into options with overrides', () => {
    const loop = new FixedLoop({ ...presets.godot, timeScale: 0.5 });
    expect(loop.timeScale).toBe(0.5);
    expect(loop.maxStepsPerFrame).toBe(8);
    expect(loop.jitterFix).toBe(0);
  });
});

describe('time scale and pause', () => {
  it('timeScale 0.5 halves the steps', () => {
    const normal = new FixedLoop();
    const half = new FixedLoop({ timeScale: 0.5 });
    for (let i = 0; i < 120; i++) {
      normal.advance(1 / 60);
      half.advance(1 / 60);
    }
    expect(normal.tick).toBe(120);
    expect(half.tick).toBe(60);
    expect(half.time).toBeCloseTo(1, 9);
    expect(half.unscaledTime).toBeCloseTo(2, 9);
  });

  it('timeScale 0 runs no step while update still runs with delta 0', () => {
    const loop = new FixedLoop({ timeScale: 0 });
    const fixed = vi.fn();
    const deltas: number[] = [];
    loop.onFixedUpdate(fixed);
    loop.onUpdate((delta) => deltas.push(delta));
    for (let i = 0; i < 30; i++) loop.advance(1 / 30);
    expect(fixed).not.toHaveBeenCalled();
    expect(deltas).toHaveLength(30);
    expect(deltas.every((d) => d === 0)).toBe(true);
    expect(loop.unscaledTime).toBeCloseTo(1, 9);
  });

  it('stepOnce while paused runs exactly one tick', () => {
    const loop = new FixedLoop();
    loop.advance(0.5);
    const before = loop.tick;
    loop.pause();
    loop.advance(0.5);
    expect(loop.tick).toBe(before);
    const info = loop.stepOnce();
    expect(info.steps).toBe(1);
    expect(loop.tick).toBe(before + 1);
    loop.advance(0.5);
    expect(loop.tick).toBe(before + 1);
    loop.resume();
    loop.advance(1 / 60);
    expect(loop.tick).toBe(before + 2);
  });
});

describe('guarantees', () => {
  it('0 <= alpha <= 1 after every frame', () => {
    const loop = new FixedLoop({ tickRate: 50 });
    const times = [0, 1e-12, 0.02, 0.019999999, 0.0200000001, 0.3, 1 / 3, 5, 1e-9];
    for (let i = 0; i < 2000; i++) {
      const info = loop.advance(times[i % times.length] * ((i % 7) + 1));
      expect(info.alpha).toBeGreaterThanOrEqual(0);
      expect(info.alpha).toBeLessThanOrEqual(1);
    }
  });

  it('fixedTime is always tick * fixedDelta', () => {
    const loop = new FixedLoop({ tickRate: 144 });
    for (let i = 0; i < 10_000; i++) {
      loop.advance(1 / 61);
      expect(loop.fixedTime).toBe(loop.tick * loop.fixedDelta);
    }
  });

  it('changing fixedDelta keeps the accumulated time and fixedTime continues', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    loop.advance(0.1 + 0.008); // 6 steps, 8 ms accumulated
    expect(loop.tick).toBe(6);
    const fixedTime = loop.fixedTime;
    loop.fixedDelta = 0.004;
    expect(loop.accumulator).toBeCloseTo(0.008, 12);
    const info = loop.advance(0);
    expect(info.steps).toBe(2);
    expect(loop.fixedTime).toBeCloseTo(fixedTime + 0.008, 12);
  });

  it('option changes apply from the next frame', () => {
    const loop = new FixedLoop();
    loop.onFixedUpdate(() => {
      loop.timeScale = 0;
    });
    expect(loop.advance(3 / 60).steps).toBe(3);
    expect(loop.advance(3 / 60).steps).toBe(0);
  });
});

describe('jitter fix (Godot MainTimerSync)', () => {
  /** A 60 Hz display whose vsync timestamps jitter by ±0.5 ms (seeded, reproducible). */
  function jitteredSteps(jitterFix: number, seed: number, frames = 600): number[] {
    let state = seed;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const loop = new FixedLoop({ tickRate: 60, jitterFix });
    loop.frame(0);
    const steps: number[] = [];
    for (let i = 1; i <= frames; i++) {
      steps.push(loop.frame((i * 1000) / 60 + (random() - 0.5)).steps);
    }
    return steps;
  }

  it.each([1, 2, 3, 7, 11, 42])(
    'with jitterFix 0.5 every frame runs exactly one step once the history has settled (seed %i)',
    (seed) => {
      // The 12-frame history fills in 12 frames; the time borrowed while it fills is paid back
      // within a few more (≤ 19 frames over 300 seeds), so we assert from frame 24 on.
      const steps = jitteredSteps(0.5, seed);
      expect(steps.slice(24).every((s) => s === 1)).toBe(true);
    },
  );

  it.each([1, 2, 3, 7, 11, 42])('with jitterFix 0 some frames run 0 or 2 (seed %i)', (seed) => {
    const steps = jitteredSteps(0, seed).slice(24);
    expect(steps.some((s) => s === 0)).toBe(true);
    expect(steps.some((s) => s === 2)).toBe(true);
  });

  it('loses and invents no time: steps follow real time within one step', () => {
    const steps = jitteredSteps(0.5, 5, 6000);
    const total = steps.reduce((a, b) => a + b, 0);
    expect(Math.abs(total - 6000)).toBeLessThanOrEqual(1);
  });
});

describe('bad input is sanitised and counted', () => {
  it.each([
    ['NaN', Number.NaN, 'nan'],
    ['-1', -1, 'negative'],
    ['Infinity', Number.POSITIVE_INFINITY, 'infinite'],
    ['-Infinity', Number.NEGATIVE_INFINITY, 'infinite'],
  ])(
    'advance(%s) runs 0 steps, counts an anomaly and keeps every value finite',
    (_n, value, kind) => {
      const loop = new FixedLoop();
      loop.advance(0.01);
      const anomaly = vi.fn();
      loop.onAnomaly(anomaly);
      const info = snapshot(loop.advance(value));
      expect(info.steps).toBe(0);
      expect(loop.stats.anomalies).toBe(1);
      expect(anomaly).toHaveBeenCalledWith(kind, value);
      for (const v of [
        loop.time,
        loop.unscaledTime,
        loop.fixedTime,
        loop.alpha,
        loop.accumulator,
        info.delta,
        info.alpha,
        info.dropped,
        info.unscaledDelta,
      ]) {
        expect(Number.isFinite(v)).toBe(true);
      }
      expect(loop.advance(1 / 60).steps).toBe(1);
    },
  );

  it('a backwards timestamp runs 0 steps, counts an anomaly and becomes the new origin', () => {
    const loop = new FixedLoop();
    loop.frame(1000);
    loop.frame(1000 + 1000 / 60);
    expect(loop.tick).toBe(1);
    const info = snapshot(loop.frame(500));
    expect(info.steps).toBe(0);
    expect(loop.stats.anomalies).toBe(1);
    expect(loop.frame(500 + 1000 / 60).steps).toBe(1);
    expect(Number.isFinite(loop.time)).toBe(true);
  });

  it('a NaN timestamp counts as an anomaly and keeps the origin', () => {
    const loop = new FixedLoop();
    loop.frame(0);
    loop.frame(Number.NaN);
    expect(loop.stats.anomalies).toBe(1);
    expect(loop.frame(2000 / 60).steps).toBe(2);
  });

  it('the first frame() sets the origin and runs no step', () => {
    const loop = new FixedLoop();
    const update = vi.fn();
    loop.onUpdate(update);
    expect(loop.frame(123456).steps).toBe(0);
    expect(update).toHaveBeenCalledTimes(1);
    expect(loop.frame(123456 + 1000 / 60).steps).toBe(1);
  });

  it('captureDeltaTime replaces the clock', () => {
    const loop = new FixedLoop({ captureDeltaTime: 1 / 30 });
    loop.advance(5);
    loop.advance(Number.NaN);
    expect(loop.tick).toBe(4);
    expect(loop.stats.anomalies).toBe(1);
  });

  it('frameAfterGap drops the whole gap (no catch-up burst)', () => {
    const loop = new FixedLoop();
    loop.frame(0);
    const info = snapshot(loop.frameAfterGap(600_000));
    expect(info.steps).toBe(0);
    expect(info.dropped).toBe(600);
    expect(loop.frame(600_000 + 1000 / 60).steps).toBe(1);
  });
});

describe('option validation', () => {
  it.each([
    ['fixedDelta', 0],
    ['fixedDelta', -1],
    ['fixedDelta', Number.NaN],
    ['fixedDelta', Number.POSITIVE_INFINITY],
    ['fixedDelta', '0.1'],
    ['tickRate', 0],
    ['tickRate', Number.NaN],
    ['maxDeltaTime', 0],
    ['maxDeltaTime', Number.NaN],
    ['maxStepsPerFrame', 0],
    ['maxStepsPerFrame', 1.5],
    ['maxStepsPerFrame', -3],
    ['timeScale', -0.1],
    ['timeScale', Number.POSITIVE_INFINITY],
    ['jitterFix', -0.5],
    ['jitterFix', 3],
    ['captureDeltaTime', -1],
    ['captureDeltaTime', Number.NaN],
    ['errorPolicy', 'explode'],
  ])('%s = %s throws a RangeError naming the option and the value', (name, value) => {
    const expected = new RegExp(
      `"${name}".*got ${String(typeof value === 'string' ? `"${value}"` : value)}`,
    );
    expect(() => new FixedLoop({ [name]: value })).toThrow(RangeError);
    expect(() => new FixedLoop({ [name]: value })).toThrow(expected);
    const loop = new FixedLoop();
    if (name !== 'errorPolicy') {
      expect(() => {
        (loop as unknown as Record<string, unknown>)[name] = value;
      }).toThrow(expected);
    }
  });

  it('an unknown option is rejected by name', () => {
    expect(() => new FixedLoop({ fixedDeltaTime: 0.02 } as never)).toThrow(
      /unknown option "fixedDeltaTime"/,
    );
  });

  it('fixedDelta and tickRate that disagree are rejected', () => {
    expect(() => new FixedLoop({ fixedDelta: 0.02, tickRate: 60 })).toThrow(RangeError);
    expect(new FixedLoop({ fixedDelta: 0.02, tickRate: 50 }).fixedDelta).toBe(0.02);
  });

  it('Infinity is accepted where it means "none"', () => {
    const loop = new FixedLoop({
      maxDeltaTime: Number.POSITIVE_INFINITY,
      maxStepsPerFrame: Number.POSITIVE_INFINITY,
    });
    expect(loop.advance(10).steps).toBe(600);
  });
});

describe('frameTimestampMs', () => {
  it('is the timestamp given to frame() and frameAfterGap(), exactly, readable in onFrameStart', () => {
    const loop = new FixedLoop();
    const seen: number[] = [];
    loop.onFrameStart(() => seen.push(loop.frameTimestampMs));
    expect(loop.frameTimestampMs).toBeNaN();
    loop.frame(1_700_000_000_123.456);
    loop.frame(1_700_000_000_140.125);
    loop.frameAfterGap(1_700_000_060_000.5);
    expect(seen).toEqual([1_700_000_000_123.456, 1_700_000_000_140.125, 1_700_000_060_000.5]);
    expect(loop.frameTimestampMs).toBe(1_700_000_060_000.5);
  });

  it.each([
    ['advance(1/60)', (loop: FixedLoop) => loop.advance(1 / 60)],
    ['stepOnce()', (loop: FixedLoop) => loop.stepOnce()],
    ['frame(NaN)', (loop: FixedLoop) => loop.frame(Number.NaN)],
    ['frame(Infinity)', (loop: FixedLoop) => loop.frame(Number.POSITIVE_INFINITY)],
    ['frameAfterGap(NaN)', (loop: FixedLoop) => loop.frameAfterGap(Number.NaN)],
  ])('is NaN for a frame run by %s', (_name, run) => {
    const loop = new FixedLoop();
    loop.frame(500);
    let inside = 0;
    loop.onFrameStart(() => {
      inside = loop.frameTimestampMs;
    });
    run(loop);
    expect(inside).toBeNaN();
    expect(loop.frameTimestampMs).toBeNaN();
  });

  it('a refused nested frame() leaves it (and the origin) unchanged', () => {
    const loop = new FixedLoop();
    loop.frame(1000);
    loop.onUpdate(() => {
      expect(() => loop.frame(5000)).toThrow(/inside a frame/);
    });
    loop.frame(1000 + 1000 / 60);
    expect(loop.frameTimestampMs).toBe(1000 + 1000 / 60);
    expect(loop.frame(1000 + 2000 / 60).steps).toBe(1);
    expect(loop.stats.anomalies).toBe(0);
  });

  it('a backwards timestamp is still the frame’s timestamp, as given', () => {
    const loop = new FixedLoop();
    loop.frame(1000);
    loop.frame(400);
    expect(loop.frameTimestampMs).toBe(400);
    expect(loop.stats.anomalies).toBe(1);
  });
});

describe('unknown options', () => {
  it.each([
    ['tickrate', 'tickRate'],
    ['fixedDeltaTime', 'fixedDelta'],
    ['maxDelta', 'maxDeltaTime'],
    ['timescale', 'timeScale'],
    ['jiterFix', 'jitterFix'],
    ['maxStepPerFrame', 'maxStepsPerFrame'],
  ])('"%s" is rejected with "did you mean %s"', (typo, known) => {
    expect(() => new FixedLoop({ [typo]: 1 } as never)).toThrow(
      new RangeError(
        `fixedtick: unknown option "${typo}" — did you mean "${known}"? (known: fixedDelta, tickRate, maxDeltaTime, maxStepsPerFrame, timeScale, jitterFix, captureDeltaTime, errorPolicy)`,
      ),
    );
  });

  it('a name close to none gets no suggestion', () => {
    expect(() => new FixedLoop({ gravity: 9.8 } as never)).toThrow(
      /^fixedtick: unknown option "gravity" \(known: fixedDelta, /,
    );
  });

  it('resolveOptions accepts, suggests and lists an adapter’s own option names', () => {
    const adapter = ['renderer', 'scene', 'camera', 'defaultInterpolation'];
    const resolved = resolveOptions({ tickRate: 50, renderer: {} } as never, adapter);
    expect(resolved.fixedDelta).toBe(0.02);
    expect(() => resolveOptions({ rendrer: {} } as never, adapter)).toThrow(
      /unknown option "rendrer" — did you mean "renderer"\? \(known: fixedDelta, .*errorPolicy, renderer, scene, camera, defaultInterpolation\)/,
    );
    expect(() => resolveOptions({ defaultInterp: 'none' } as never, adapter)).toThrow(
      /did you mean "defaultInterpolation"/,
    );
    expect(() => resolveOptions({ renderer: {} } as never)).toThrow(/unknown option "renderer"/);
  });
});
