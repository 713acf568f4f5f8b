/**
 * examples/port-roblox in real Chromium: every frame fires PreAnimation → PreSimulation →
 * PostSimulation → Heartbeat → BindToRenderStep by priority → PreRender, the camera bound at
 * `Camera` priority follows the platform PreSimulation moved in the same frame, PreSimulation's
 * deltas add up to the loop's game time, and BindToSimulation runs Hz30 every 2nd step with delta
 * 1/30 and Hz1 once per simulated second.
 */
import { describe, expect, it } from 'vitest';
import { readState, useExample, waitForFrames } from './harness.ts';

interface RobloxState {
  frames: number;
  ticks: number;
  follow: boolean;
  lastOrder: string[];
  orderViolations: number;
  cameraError: number;
  preSimulationTime: number;
  loopTime: number;
  hz30Calls: number;
  hz30Deltas: number[];
  hz1Calls: number;
  hz1Deltas: number[];
  fixedTime: number;
}

const ex = useExample('port-roblox');

describe('port-roblox: RunService on the loop', () => {
  it('fires the events in order and the Camera binding follows the platform', async () => {
    const before = await readState<RobloxState>(ex.page);
    await waitForFrames(ex.page, before.frames + 60);
    const after = await readState<RobloxState>(ex.page);
    expect(after.lastOrder).toEqual([
      'PreAnimation',
      'PreSimulation',
      'PostSimulation',
      'Heartbeat',
      'follow',
      'last',
      'PreRender',
    ]);
    expect(after.orderViolations).toBe(0);
    expect(after.cameraError).toBeLessThan(1e-9);
    expect(after.preSimulationTime).toBeCloseTo(after.loopTime, 6);
    expect(ex.opened.errors).toEqual([]);
  });

  it('BindToSimulation: Hz30 every 2nd step with 1/30, Hz1 once per simulated second', async () => {
    await ex.page.waitForFunction(
      () => ((window.__fixedtick as { hz1Calls?: number }).hz1Calls ?? 0) >= 2,
      null,
      { timeout: 20_000 },
    );
    const state = await readState<RobloxState>(ex.page);
    expect(state.hz30Deltas).toEqual([1 / 30]);
    expect(state.hz1Deltas).toEqual([1]);
    expect(state.hz30Calls).toBe(Math.floor(state.ticks / 2));
    expect(state.hz1Calls).toBe(Math.floor(state.ticks / 60));
    expect(ex.opened.errors).toEqual([]);
  });

  it('unbinding the camera leaves the rest of the order intact', async () => {
    await ex.page.uncheck('#follow');
    const start = await readState<RobloxState>(ex.page);
    await waitForFrames(ex.page, start.frames + 10);
    const state = await readState<RobloxState>(ex.page);
    expect(state.follow).toBe(false);
    expect(state.lastOrder).toEqual([
      'PreAnimation',
      'PreSimulation',
      'PostSimulation',
      'Heartbeat',
      'last',
      'PreRender',
    ]);
    expect(state.orderViolations).toBe(0);
    expect(ex.opened.errors).toEqual([]);
  });
});
