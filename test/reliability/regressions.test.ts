/**
 * Bugs the reliability properties found in the core, each pinned by the smallest trajectory that
 * shows it (found by fast-check, shrunk, then written out by hand).
 */
import { FixedLoop, presets } from '@fixedtick/core';
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
