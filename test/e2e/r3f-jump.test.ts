/**
 * examples/r3f-jump in real Chromium: the ledge jump as React Three Fiber components on
 * @fixedtick/react-three. At a simulated 30, 60 and 144 fps display (R3F's `advance()` with the
 * display's timestamps) and on R3F's own frame loop, the fixed-step runner peaks at 95.0 px with
 * the same air time, `useFixedUpdate` sees only `fixedDelta`, one loop frame runs per R3F frame,
 * and one press of Space (through `useInputLatch`) makes each runner jump exactly once.
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
type Lane = 'perFrame' | 'dt' | 'fixed';
interface JumpState {
  frames: number;
  r3fFrames: number;
  ticks: number;
  frameloop: string;
  fixedDeltas: number[];
  displayRate: number | 'real';
  physicsRate: number;
  runners: Record<Lane, RunnerState>;
  peaks: Record<Lane, number | null>;
}

const LANES = ['perFrame', 'dt', 'fixed'] as const;

const ex = useExample('r3f-jump', 5, (page) => page.uncheck('#auto-jump'));

/** Sets the rates (resets the runners), presses Space once, waits for every runner to land. */
async function jumpAt(
  display: string,
  physics = '60',
): Promise<{ before: JumpState; after: JumpState }> {
  await ex.page.selectOption('#physics-rate', physics);
  await ex.page.selectOption('#display-rate', display);
  await ex.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await ex.page.waitForFunction(
    ({ lanes, rate }) => {
      const s = window.__fixedtick as unknown as JumpState;
      const resting = lanes.every((k) => !s.runners[k].airborne);
      return resting && s.frameloop === (rate === 'real' ? 'always' : 'never');
    },
    { lanes: LANES, rate: display },
  );
  const before = await readState<JumpState>(ex.page);
  await ex.page.keyboard.press('Space');
  await ex.page.waitForFunction(
    ({ b, lanes }) => {
      const runners = (window.__fixedtick as unknown as JumpState).runners;
      return lanes.every((k) => runners[k].landings === b.runners[k].landings + 1);
    },
    { b: before, lanes: LANES },
    { timeout: 60_000 },
  );
  const after = await readState<JumpState>(ex.page);
  // A press seen twice would start a second jump right after landing: give it 20 frames.
  await waitForFrames(ex.page, after.frames + 20);
  const later = await readState<JumpState>(ex.page);
  for (const key of LANES) expect(later.runners[key].jumps).toBe(after.runners[key].jumps);
  return { before, after };
}

describe('r3f-jump: the 96 px ledge in React Three Fiber', () => {
  it.each([
    { fps: 30, dt: 90.0 },
    { fps: 60, dt: 95.0 },
    { fps: 144, dt: 97.9 },
  ])(
    'at a simulated $fps fps display the fixed runner peaks at 95.0 px and each runner jumps once',
    async ({ fps, dt }) => {
      const { before, after } = await jumpAt(String(fps));
      expect(after.displayRate).toBe(fps);
      expect(after.frameloop).toBe('never');
      for (const key of LANES) {
        expect(after.runners[key].jumps).toBe(before.runners[key].jumps + 1);
      }
      // Fixed 60 Hz steps: the same jump at every display rate, 39 ticks in the air, dt = 1/60.
      expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
      expect(after.runners.fixed.lastAirtime).toBeCloseTo(39 / 60, 6);
      expect(after.fixedDeltas).toEqual([1 / 60]);
      // Scaled by dt: the height follows the frame rate.
      expect(after.peaks.dt).toBeCloseTo(dt, 1);
      // Moved per frame: 95.0 px always, but 39 frames of air at whatever rate the display runs.
      expect(after.peaks.perFrame).toBeCloseTo(95.0, 6);
      expect(after.runners.perFrame.lastAirtime).toBeCloseTo(39 / fps, 6);
      // One loop frame per R3F frame, and steps ran.
      expect(after.frames).toBe(after.r3fFrames);
      expect(after.ticks).toBeGreaterThan(before.ticks);
      await maybeScreenshot(ex.page, `r3f-jump-${fps}`);
    },
  );

  it('on R3F’s own frame loop (frameloop="always") the fixed runner still peaks at 95.0 px', async () => {
    const { before, after } = await jumpAt('real');
    expect(after.displayRate).toBe('real');
    expect(after.frameloop).toBe('always');
    expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
    expect(after.runners.fixed.lastAirtime).toBeCloseTo(39 / 60, 6);
    expect(after.fixedDeltas).toEqual([1 / 60]);
    expect(after.frames).toBe(after.r3fFrames);
    expect(after.frames).toBeGreaterThan(before.frames);
  });

  it('the physics rate, not the display rate, sets the fixed runner’s jump (30 Hz: 90.0 px)', async () => {
    const { after } = await jumpAt('144', '30');
    expect(after.physicsRate).toBe(30);
    expect(after.fixedDeltas).toEqual([1 / 30]);
    expect(after.peaks.fixed).toBeCloseTo(90.0, 6);
    expect(after.peaks.dt).toBeCloseTo(97.9, 1);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
