/**
 * examples/three-interpolation in real Chromium: 10 Hz physics under a faster display, three
 * modes side by side, and a teleport that the adapter takes in the same frame with no streak.
 */
import { describe, expect, it, vi } from 'vitest';
import { readState, useExample, waitForFrames } from './harness.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

interface InterpolationState {
  frames: number;
  ticks: number;
  physicsRate: number;
  modes: string[];
  rendered: number[][];
  simulated: number[][];
  teleport: {
    count: number;
    targets: number[][];
    firstFrameOffset: number[];
    jump: number[];
    steps: number;
    fixedDelta: number;
    measured: boolean;
  };
}

/** The bodies' speed in the example, m/s. */
const SPEED = 11;

const ex = useExample('three-interpolation');

describe('three-interpolation: modes at 10 Hz physics', () => {
  it('renders more frames than it runs 10 Hz ticks, and none draws the latest simulation pose', async () => {
    await ex.page.selectOption('#display-rate', '144');
    const before = await readState<InterpolationState>(ex.page);
    await waitForFrames(ex.page, before.frames + 60);
    const after = await readState<InterpolationState>(ex.page);
    expect(after.modes).toEqual(['none', 'interpolate', 'extrapolate']);
    expect(after.physicsRate).toBe(10);
    // 60 frames of 1/144 s is 0.42 s of game time: 4 or 5 ticks of 0.1 s.
    expect(after.ticks - before.ticks).toBeGreaterThanOrEqual(4);
    expect(after.ticks - before.ticks).toBeLessThanOrEqual(5);
    // 'none' draws the latest simulation pose exactly.
    for (let k = 0; k < 3; k++) expect(after.rendered[0][k]).toBeCloseTo(after.simulated[0][k], 9);
  });

  it('a teleport shows the new pose in the very next frame, with no streak, in every mode', async () => {
    await ex.page.click('#teleport');
    await ex.page.waitForFunction(() => {
      const t = (window.__fixedtick as unknown as InterpolationState).teleport;
      return t.count === 1 && t.measured;
    });
    const { teleport } = await readState<InterpolationState>(ex.page);
    // Within the steps that frame ran after the teleport (none: exactly on the target).
    const reach = teleport.steps * SPEED * teleport.fixedDelta * 2 + 1e-9;
    for (let i = 0; i < 3; i++) expect(teleport.firstFrameOffset[i]).toBeLessThanOrEqual(reach);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
