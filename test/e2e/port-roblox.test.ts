/**
 * examples/port-roblox in real Chromium: every frame fires PreAnimation → PreSimulation →
 * PostSimulation → Heartbeat → BindToRenderStep by priority → PreRender, the camera bound at
 * `Camera` priority follows the platform PreSimulation moved in the same frame, PreSimulation's
 * deltas add up to the loop's game time, and BindToSimulation runs Hz30 every 2nd step with delta
 * 1/30 and Hz1 once per simulated second.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExamplesSite,
  launchChromium,
  type OpenedPage,
  openPage,
  readState,
  startExamples,
  waitForFrames,
} from './harness.ts';

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

let site: ExamplesSite;
let browser: Browser;
let opened: OpenedPage;
let page: Page;

beforeAll(async () => {
  [site, browser] = await Promise.all([startExamples(['port-roblox']), launchChromium()]);
  opened = await openPage(browser, new URL('port-roblox/', site.url).href);
  page = opened.page;
  await waitForFrames(page, 10);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('port-roblox: RunService on the loop', () => {
  it('fires the events in order and the Camera binding follows the platform', async () => {
    const before = await readState<RobloxState>(page);
    await waitForFrames(page, before.frames + 60);
    const after = await readState<RobloxState>(page);
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
    expect(opened.errors).toEqual([]);
  });

  it('BindToSimulation: Hz30 every 2nd step with 1/30, Hz1 once per simulated second', async () => {
    await page.waitForFunction(
      () => ((window.__fixedtick as { hz1Calls?: number }).hz1Calls ?? 0) >= 2,
      null,
      { timeout: 20_000 },
    );
    const state = await readState<RobloxState>(page);
    expect(state.hz30Deltas).toEqual([1 / 30]);
    expect(state.hz1Deltas).toEqual([1]);
    expect(state.hz30Calls).toBe(Math.floor(state.ticks / 2));
    expect(state.hz1Calls).toBe(Math.floor(state.ticks / 60));
    expect(opened.errors).toEqual([]);
  });

  it('unbinding the camera leaves the rest of the order intact', async () => {
    await page.uncheck('#follow');
    const start = await readState<RobloxState>(page);
    await waitForFrames(page, start.frames + 10);
    const state = await readState<RobloxState>(page);
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
    expect(opened.errors).toEqual([]);
  });
});
