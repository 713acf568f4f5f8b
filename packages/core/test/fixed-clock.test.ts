/**
 * FixedClock on its own, Bevy's way: trajectories of frame times in, steps / alpha / dropped /
 * time out after each frame, as tables.
 */
import { STEP_TOLERANCE } from '@fixedtick/core';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../src/fixed-clock.ts';
import { type FixedLoopOptions, resolveOptions } from '../src/options.ts';

interface Frame {
  /** Real seconds fed. */
  seconds: number;
  steps: number;
  alpha: number;
  dropped: number;
}

/** Runs `frames` through a clock and returns what each frame planned. */
function trajectory(options: FixedLoopOptions, seconds: number[]): Frame[] {
  const clock = new FixedClock(resolveOptions(options));
  return seconds.map((s) => {
    clock.frameTime = s;
    clock.gapTime = 0;
    clock.tolerance = STEP_TOLERANCE;
    clock.plan(0, false);
    for (let k = 0; k < clock.steps; k++) clock.countStep();
    clock.endFrame();
    return { seconds: s, steps: clock.steps, alpha: clock.alpha, dropped: clock.dropped };
  });
}

const round = (frames: Frame[]) =>
  frames.map((f) => [f.steps, Number(f.alpha.toFixed(6)), Number(f.dropped.toFixed(9))]);

describe('FixedClock trajectories', () => {
  it.each([
    [
      '50 Hz, frames of 0.03 s: 1, 2, 1, 2 … steps',
      { tickRate: 50 },
      [0.03, 0.03, 0.03, 0.03],
      [
        [1, 0.5, 0],
        [2, 0, 0],
        [1, 0.5, 0],
        [2, 0, 0],
      ],
    ],
    [
      '60 Hz at 144 fps: 0, 0, 1, 0, 1, 0 with alpha .42 .83 .25 .67 .08 .50',
      { tickRate: 60 },
      [1 / 144, 1 / 144, 1 / 144, 1 / 144, 1 / 144, 1 / 144],
      [
        [0, 0.416667, 0],
        [0, 0.833333, 0],
        [1, 0.25, 0],
        [0, 0.666667, 0],
        [1, 0.083333, 0],
        [0, 0.5, 0],
      ],
    ],
    [
      'maxDeltaTime 0.25 cuts a 1 s frame to 15 steps and drops 0.75 s',
      { tickRate: 60, maxDeltaTime: 0.25, maxStepsPerFrame: Number.POSITIVE_INFINITY },
      [1, 1 / 60],
      [
        [15, 0, 0.75],
        [1, 0, 0],
      ],
    ],
    [
      'the cap drops whole steps and keeps the remainder (Godot)',
      { tickRate: 60, maxDeltaTime: Number.POSITIVE_INFINITY, maxStepsPerFrame: 3 },
      [5.5 / 60, 0],
      [
        [3, 0.5, 0.033333333],
        [0, 0.5, 0],
      ],
    ],
    [
      "'auto' cap at 60 Hz is 8 steps (2/15 s)",
      { tickRate: 60, maxDeltaTime: Number.POSITIVE_INFINITY },
      [10 / 60],
      [[8, 0, 0.033333333]],
    ],
    [
      'a 1 ns short frame still runs its step (the tolerance)',
      { tickRate: 60 },
      [1 / 60 - 1e-10],
      [[1, 0, 0]],
    ],
  ] as const)('%s', (_name, options, seconds, expected) => {
    expect(round(trajectory(options, [...seconds]))).toEqual(expected);
  });

  it.each([
    // Bevy's test_max_delta_clamps_after_relative_speed: speed 2000, max_delta 1 s, 16 ms → 1 s
    ['timeScale 2000, maxDeltaTime 1, 16 ms frame', 2000, 1, 0.016, 1],
    // Bevy's test_dont_overclamp_at_low_speed: speed 0.01, max_delta 10 ms, 16 ms → 0.16 ms
    ['timeScale 0.01, maxDeltaTime 0.01, 16 ms frame', 0.01, 0.01, 0.016, 0.016 / 100],
  ])('clamp after scale (Bevy): %s gives delta %f', (_n, timeScale, maxDeltaTime, frame, delta) => {
    const clock = new FixedClock(
      resolveOptions({ timeScale, maxDeltaTime, maxStepsPerFrame: Number.POSITIVE_INFINITY }),
    );
    clock.frameTime = frame;
    clock.gapTime = 0;
    clock.tolerance = STEP_TOLERANCE;
    clock.plan(0, false);
    expect(clock.delta).toBeCloseTo(delta, 15);
    expect(clock.unscaledDelta).toBe(frame);
  });

  it('time is derived: fixedTime plus the overstep, not a sum of deltas', () => {
    const clock = new FixedClock(resolveOptions({ tickRate: 60 }));
    for (let i = 0; i < 1000; i++) {
      clock.frameTime = 1 / 61;
      clock.gapTime = 0;
      clock.tolerance = STEP_TOLERANCE;
      clock.plan(0, false);
      for (let k = 0; k < clock.steps; k++) clock.countStep();
      clock.endFrame();
      expect(clock.time).toBe(clock.fixedTime + Math.max(clock.accumulator, 0));
      expect(clock.time).toBeGreaterThanOrEqual(clock.fixedTime);
    }
  });
});
