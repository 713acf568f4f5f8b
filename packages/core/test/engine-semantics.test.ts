/**
 * Timing semantics as Unity, Bevy, Godot and Roblox define them (issue 14), each pinned by the
 * engine's own numbers.
 */
import { FixedLoop, presets } from '@fixedtick/core';
import { GodotEngine } from '@fixedtick/core/godot';
import { UnityTime } from '@fixedtick/core/unity';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/support/random.ts';

describe('clamp after scale (Unity maximumDeltaTime, Bevy max_delta)', () => {
  it.each([2, 4])(
    'Unity preset at timeScale %i: a 1 s frame runs floor(maximumDeltaTime / fixedDeltaTime) FixedUpdates and Time.deltaTime equals maximumDeltaTime',
    (timeScale) => {
      const loop = new FixedLoop({ ...presets.unity, timeScale });
      const Time = new UnityTime(loop);
      let fixedUpdates = 0;
      let deltaInUpdate = 0;
      Time.register({
        FixedUpdate() {
          fixedUpdates++;
        },
        Update() {
          deltaInUpdate = Time.deltaTime;
        },
      });
      loop.advance(1);
      expect(fixedUpdates).toBe(Math.floor(Time.maximumDeltaTime / Time.fixedDeltaTime));
      expect(fixedUpdates).toBe(16);
      expect(deltaInUpdate).toBe(Time.maximumDeltaTime);
      expect(Time.unscaledDeltaTime).toBe(1);
    },
  );

  it('Bevy test_max_delta_clamps_after_relative_speed: speed 2000, max_delta 1 s, 16 ms → delta 1 s', () => {
    // Bevy has no step cap: none here either
    const loop = new FixedLoop({
      timeScale: 2000,
      maxDeltaTime: 1,
      maxStepsPerFrame: Number.POSITIVE_INFINITY,
    });
    expect(loop.advance(0.016).delta).toBe(1);
  });

  it('Bevy test_dont_overclamp_at_low_speed: speed 0.01, max_delta 10 ms, 16 ms → delta 0.16 ms', () => {
    const loop = new FixedLoop({ timeScale: 0.01, maxDeltaTime: 0.01 });
    expect(loop.advance(0.016).delta).toBeCloseTo(0.016 / 100, 18);
  });
});

describe('unscaled time is the real time fed', () => {
  it.each([
    ['plain', {}],
    ['capture mode', { captureDeltaTime: 1 / 30 }],
    ['clamped and scaled', { maxDeltaTime: 0.05, timeScale: 3 }],
    ['paused by timeScale 0', { timeScale: 0 }],
  ] as const)('%s: unscaledTime equals the real time fed', (_name, options) => {
    const loop = new FixedLoop(options);
    const random = mulberry32(7);
    let fed = 0;
    for (let i = 0; i < 2000; i++) {
      const seconds = random() < 0.01 ? 2 : random() * 0.05;
      fed += seconds;
      expect(loop.advance(seconds).unscaledDelta).toBe(seconds);
    }
    expect(loop.unscaledTime).toBeCloseTo(fed, 9);
  });

  it('Unity Time.unscaledTime in capture mode follows the real clock', () => {
    const loop = new FixedLoop({ ...presets.unity, captureDeltaTime: 0.02 });
    const Time = new UnityTime(loop);
    for (let i = 0; i < 10; i++) loop.advance(0.1);
    expect(Time.time).toBeCloseTo(0.2, 12);
    expect(Time.unscaledTime).toBeCloseTo(1, 12);
  });
});

describe('time >= fixedTime, exactly', () => {
  it('time >= fixedTime after each of 10 M random frames, across fixedDelta changes and pauses', () => {
    const random = mulberry32(2024);
    const loop = new FixedLoop({ tickRate: 60, maxStepsPerFrame: Number.POSITIVE_INFINITY });
    const rates = [60, 50, 144, 1 / 0.3, 240, 64];
    let violations = 0;
    for (let i = 0; i < 10_000_000; i++) {
      const r = random();
      if (r < 1e-4) loop.tickRate = rates[i % rates.length];
      else if (r < 2e-4) loop.pause();
      else if (r < 3e-4) loop.resume();
      else if (r < 4e-4) loop.timeScale = r * 1e4;
      loop.advance(r * 0.05);
      if (!(loop.time >= loop.fixedTime)) violations++;
    }
    expect(violations).toBe(0);
    expect(loop.tick).toBeGreaterThan(1_000_000);
  });
});

describe("maxStepsPerFrame 'auto'", () => {
  it('tickRate 300 at 30 fps runs 10 steps per frame by default (no slow motion)', () => {
    const loop = new FixedLoop({ tickRate: 300 });
    const steps: number[] = [];
    for (let i = 0; i < 60; i++) steps.push(loop.advance(1 / 30).steps);
    expect(steps.every((s) => s === 10)).toBe(true);
    expect(loop.stats.droppedTime).toBe(0);
    expect(loop.maxStepsPerFrame).toBe(40);
  });

  it.each([
    [60, 8],
    [300, 40],
    [50, 7],
    [144, 20],
    [30, 4],
    [1, 1],
  ])("at %i Hz the 'auto' cap is %i steps (2/15 s)", (hz, cap) => {
    expect(new FixedLoop({ tickRate: hz }).maxStepsPerFrame).toBe(cap);
  });

  it('follows fixedDelta until a number is set; presets keep their own numbers', () => {
    const loop = new FixedLoop();
    expect(loop.maxStepsPerFrame).toBe(8);
    loop.tickRate = 120;
    expect(loop.maxStepsPerFrame).toBe(16);
    loop.maxStepsPerFrame = 5;
    loop.tickRate = 240;
    expect(loop.maxStepsPerFrame).toBe(5);
    loop.maxStepsPerFrame = 'auto';
    expect(loop.maxStepsPerFrame).toBe(32);
    const godot = new FixedLoop(presets.godot);
    godot.tickRate = 120;
    expect(godot.maxStepsPerFrame).toBe(8);
    expect(new FixedLoop(presets.unity).maxStepsPerFrame).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('Godot', () => {
  it('presets.godot has jitterFix 0, as Godot advises with a custom interpolation', () => {
    expect(presets.godot.jitterFix).toBe(0);
    const engine = new GodotEngine(new FixedLoop(presets.godot));
    expect(engine.physics_jitter_fix).toBe(0);
    expect(engine.max_physics_steps_per_frame).toBe(8);
  });

  it('with jitterFix > 0 a 0 µs frame goes through the sync: never a 0 s delta, and the time it borrows is paid back', () => {
    const loop = new FixedLoop({ tickRate: 60, jitterFix: 0.5 });
    let fed = 0;
    for (let i = 0; i < 600; i++) {
      const seconds = i % 7 === 3 ? 0 : 1 / 60;
      fed += seconds;
      const info = loop.advance(seconds);
      // Godot's float minimum output step
      expect(info.delta).toBeGreaterThanOrEqual(Math.fround(1e-6));
      // at most jitterFix of a step early or late
      expect(Math.abs(loop.time - fed)).toBeLessThanOrEqual(0.5 / 60 + 1e-9);
    }
  });
});

describe("Bevy's overstep", () => {
  it.each([
    // [overstep before, discard, overstep after]
    [0.01, 0.004, 0.006],
    [0.01, 0.02, 0],
    [0.01, Number.POSITIVE_INFINITY, 0],
    [0.01, 0, 0.01],
  ])('overstep %f, discardOverstep(%f) → %f (saturating)', (before, discard, after) => {
    const loop = new FixedLoop({ tickRate: 50 });
    loop.advance(0.02 * 3 + before);
    expect(loop.overstep).toBeCloseTo(before, 12);
    const time = loop.time;
    loop.discardOverstep(discard);
    expect(loop.overstep).toBeCloseTo(after, 12);
    expect(loop.time).toBe(time);
    expect(loop.time).toBeGreaterThanOrEqual(loop.fixedTime);
  });

  it('discardOverstep after a long load: nothing catches up', () => {
    const loop = new FixedLoop({ tickRate: 60, maxDeltaTime: Number.POSITIVE_INFINITY });
    loop.accumulateOverstep(0.9); // as if a load had been accumulated
    loop.discardOverstep(Number.POSITIVE_INFINITY);
    expect(loop.advance(1 / 60).steps).toBe(1);
  });

  it('accumulateOverstep adds time that the next frames run, under the cap', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    loop.accumulateOverstep(10 / 60);
    expect(loop.overstep).toBeCloseTo(10 / 60, 12);
    expect(loop.time).toBeCloseTo(10 / 60, 12);
    const first = loop.advance(0);
    expect(first.steps).toBe(8);
    expect(first.dropped).toBeCloseTo(2 / 60, 12);
    expect(() => loop.accumulateOverstep(-1)).toThrow(/"seconds".*-1/);
    expect(() => loop.discardOverstep(Number.NaN)).toThrow(/"seconds".*NaN/);
  });
});
