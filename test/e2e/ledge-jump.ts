/**
 * The steps and numbers of the ledge examples' e2e tests (examples/three-jump and its React Three
 * Fiber twin examples/r3f-jump, which share examples/shared/ledge-jump.ts): set the rates, press
 * Space once, wait for every runner to land, and check the jump against docs/guarantees.md ("Reference numbers").
 */
import { expect } from 'vitest';
import { type ExampleSession, readState, waitForFrames } from './harness.ts';

/** One runner as the page publishes it. */
export interface RunnerState {
  jumps: number;
  landings: number;
  airborne: boolean;
  lastPeak: number | null;
  lastAirtime: number | null;
}

/** The three runners, in lane order. */
export const LANES = ['perFrame', 'dt', 'fixed'] as const;
/** One of the three runners. */
export type Lane = (typeof LANES)[number];

/** What both ledge pages publish on `window.__fixedtick`. */
export interface JumpState {
  frames: number;
  ticks: number;
  displayRate: number | 'real';
  physicsRate: number;
  runners: Record<Lane, RunnerState>;
  peaks: Record<Lane, number | null>;
}

/**
 * Sets the rates (which resets the runners), waits until every runner rests (and, for the R3F
 * page, until its canvas runs in `frameloop` mode), presses Space once, waits for every runner
 * to land, and checks that the press was not seen twice (no second jump within 20 frames).
 */
export async function jumpAt<S extends JumpState>(
  ex: ExampleSession,
  display: string,
  physics = '60',
  frameloop?: 'always' | 'never',
): Promise<{ before: S; after: S }> {
  await ex.page.selectOption('#physics-rate', physics);
  await ex.page.selectOption('#display-rate', display);
  await ex.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await ex.page.waitForFunction(
    ({ lanes, mode }) => {
      const s = window.__fixedtick as unknown as JumpState & { frameloop?: string };
      return (mode === null || s.frameloop === mode) && lanes.every((k) => !s.runners[k].airborne);
    },
    { lanes: LANES, mode: frameloop ?? null },
  );
  const before = await readState<S>(ex.page);
  await ex.page.keyboard.press('Space');
  await ex.page.waitForFunction(
    ({ b, lanes }) => {
      const runners = (window.__fixedtick as unknown as JumpState).runners;
      return lanes.every((k) => runners[k].landings === b.runners[k].landings + 1);
    },
    { b: before as JumpState, lanes: LANES },
    { timeout: 60_000 },
  );
  const after = await readState<S>(ex.page);
  await waitForFrames(ex.page, after.frames + 20);
  const later = await readState<S>(ex.page);
  for (const key of LANES) expect(later.runners[key].jumps).toBe(after.runners[key].jumps);
  return { before, after };
}

/** The simulated displays of docs/guarantees.md ("Reference numbers") and the peak of the runner scaled by dt at each (60 Hz physics). */
export const DISPLAY_JUMPS = [
  { fps: 30, dt: 90.0 },
  { fps: 60, dt: 95.0 },
  { fps: 144, dt: 97.9 },
] as const;

/**
 * The reference jump (docs/guarantees.md) at a simulated `fps` display with 60 Hz physics: each runner jumped once; fixed
 * steps 95.0 px and 39 ticks of air at every rate; scaled by dt `dtPeak` (90.0 / 95.0 / 97.9 px);
 * moved per frame 95.0 px but 39 frames of air at the display's rate.
 */
export function expectLedgeJump(before: JumpState, after: JumpState, fps: number, dtPeak: number) {
  expect(after.displayRate).toBe(fps);
  expect(after.physicsRate).toBe(60);
  for (const key of LANES) expect(after.runners[key].jumps).toBe(before.runners[key].jumps + 1);
  expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
  expect(after.runners.fixed.lastAirtime).toBeCloseTo(39 / 60, 6);
  expect(after.peaks.dt).toBeCloseTo(dtPeak, 1);
  expect(after.peaks.perFrame).toBeCloseTo(95.0, 6);
  expect(after.runners.perFrame.lastAirtime).toBeCloseTo(39 / fps, 6);
  expect(after.ticks).toBeGreaterThan(before.ticks);
  expect(after.frames).toBeGreaterThan(before.frames);
}
