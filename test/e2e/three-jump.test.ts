/**
 * examples/three-jump in real Chromium: at a simulated 30, 60 and 144 fps display the fixed-step
 * runner peaks at 95.0 px with the same air time, the dt-scaled runner at 90.0 / 95.0 / 97.9 px,
 * and one press of Space (through the example's InputLatch) makes each runner jump exactly once.
 */
import { describe, expect, it, vi } from 'vitest';
import { maybeScreenshot, readState, useExample, waitForFrames } from './harness.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

interface RunnerState {
  jumps: number;
  landings: number;
  airborne: boolean;
  lastPeak: number | null;
  lastAirtime: number | null;
}
interface JumpState {
  frames: number;
  ticks: number;
  displayRate: number | 'real';
  physicsRate: number;
  runners: Record<'perFrame' | 'dt' | 'fixed', RunnerState>;
  peaks: Record<'perFrame' | 'dt' | 'fixed', number | null>;
}

const ex = useExample('three-jump', 5, (page) => page.uncheck('#auto-jump'));

/** Sets the rates (resets the runners), presses Space once, waits for every runner to land. */
async function jumpAt(
  display: string,
  physics = '60',
): Promise<{ before: JumpState; after: JumpState }> {
  await ex.page.selectOption('#physics-rate', physics);
  await ex.page.selectOption('#display-rate', display);
  await ex.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await ex.page.waitForFunction(() => {
    const runners = Object.values((window.__fixedtick as unknown as JumpState).runners);
    return runners.every((r) => !r.airborne);
  });
  const before = await readState<JumpState>(ex.page);
  await ex.page.keyboard.press('Space');
  await ex.page.waitForFunction(
    (b) => {
      const runners = (window.__fixedtick as unknown as JumpState).runners;
      return (['perFrame', 'dt', 'fixed'] as const).every(
        (k) => runners[k].landings === b.runners[k].landings + 1,
      );
    },
    before,
    { timeout: 60_000 },
  );
  const after = await readState<JumpState>(ex.page);
  // A press seen twice would start a second jump right after landing: give it 20 frames.
  await waitForFrames(ex.page, after.frames + 20);
  const later = await readState<JumpState>(ex.page);
  for (const key of ['perFrame', 'dt', 'fixed'] as const) {
    expect(later.runners[key].jumps).toBe(after.runners[key].jumps);
  }
  return { before, after };
}

describe('three-jump: the 96 px ledge', () => {
  it.each([
    { fps: 30, dt: 90.0 },
    { fps: 60, dt: 95.0 },
    { fps: 144, dt: 97.9 },
  ])(
    'at a simulated $fps fps display the fixed runner peaks at 95.0 px and each runner jumps once',
    async ({ fps, dt }) => {
      const { before, after } = await jumpAt(String(fps));
      expect(after.displayRate).toBe(fps);
      expect(after.physicsRate).toBe(60);
      for (const key of ['perFrame', 'dt', 'fixed'] as const) {
        expect(after.runners[key].jumps).toBe(before.runners[key].jumps + 1);
      }
      // Fixed 60 Hz steps: the same jump at every display rate, 39 ticks in the air.
      expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
      expect(after.runners.fixed.lastAirtime).toBeCloseTo(39 / 60, 6);
      // Scaled by dt: the height follows the frame rate.
      expect(after.peaks.dt).toBeCloseTo(dt, 1);
      // Moved per frame: 95.0 px always, but 39 frames of air at whatever rate the display runs.
      expect(after.peaks.perFrame).toBeCloseTo(95.0, 6);
      expect(after.runners.perFrame.lastAirtime).toBeCloseTo(39 / fps, 6);
      expect(after.ticks).toBeGreaterThan(before.ticks);
      expect(after.frames).toBeGreaterThan(before.frames);
      await maybeScreenshot(ex.page, `three-jump-${fps}`);
    },
  );

  it('with the browser’s own frames the fixed runner still peaks at 95.0 px', async () => {
    const { after } = await jumpAt('real');
    expect(after.displayRate).toBe('real');
    expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
  });

  it('the physics rate, not the display rate, sets the fixed runner’s jump (30 Hz: 90.0 px)', async () => {
    const { after } = await jumpAt('144', '30');
    expect(after.physicsRate).toBe(30);
    expect(after.peaks.fixed).toBeCloseTo(90.0, 6);
    expect(after.peaks.dt).toBeCloseTo(97.9, 1);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
