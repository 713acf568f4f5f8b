/**
 * examples/r3f-jump in real Chromium: the ledge jump as React Three Fiber components on
 * @fixedtick/react-three. At a simulated 30, 60 and 144 fps display (R3F's `advance()` with the
 * display's timestamps) and on R3F's own frame loop, the fixed-step runner peaks at 95.0 px with
 * the same air time, `useFixedUpdate` sees only `fixedDelta`, one loop frame runs per R3F frame,
 * and one press of Space (through `useInputLatch`) makes each runner jump exactly once.
 */
import { describe, expect, it, vi } from 'vitest';
import { maybeScreenshot, useExample } from './harness.ts';
import { DISPLAY_JUMPS, expectLedgeJump, type JumpState, jumpAt } from './ledge-jump.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

/** What the R3F page adds to the ledge pages' numbers. */
interface R3fJumpState extends JumpState {
  r3fFrames: number;
  frameloop: string;
  fixedDeltas: number[];
}

const ex = useExample('r3f-jump', 5, (page) => page.uncheck('#auto-jump'));

/** {@link jumpAt} once the canvas runs in the mode the display rate selects. */
function r3fJumpAt(display: string, physics = '60') {
  return jumpAt<R3fJumpState>(ex, display, physics, display === 'real' ? 'always' : 'never');
}

describe('r3f-jump: the 96 px ledge in React Three Fiber', () => {
  it.each(DISPLAY_JUMPS)(
    'at a simulated $fps fps display the fixed runner peaks at 95.0 px and each runner jumps once',
    async ({ fps, dt }) => {
      const { before, after } = await r3fJumpAt(String(fps));
      expectLedgeJump(before, after, fps, dt);
      expect(after.frameloop).toBe('never');
      expect(after.fixedDeltas).toEqual([1 / 60]);
      // One loop frame per R3F frame.
      expect(after.frames).toBe(after.r3fFrames);
      await maybeScreenshot(ex.page, `r3f-jump-${fps}`);
    },
  );

  it('on R3F’s own frame loop (frameloop="always") the fixed runner still peaks at 95.0 px', async () => {
    const { before, after } = await r3fJumpAt('real');
    expect(after.displayRate).toBe('real');
    expect(after.frameloop).toBe('always');
    expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
    expect(after.runners.fixed.lastAirtime).toBeCloseTo(39 / 60, 6);
    expect(after.fixedDeltas).toEqual([1 / 60]);
    expect(after.frames).toBe(after.r3fFrames);
    expect(after.frames).toBeGreaterThan(before.frames);
  });

  it('the physics rate, not the display rate, sets the fixed runner’s jump (30 Hz: 90.0 px)', async () => {
    const { after } = await r3fJumpAt('144', '30');
    expect(after.physicsRate).toBe(30);
    expect(after.fixedDeltas).toEqual([1 / 30]);
    expect(after.peaks.fixed).toBeCloseTo(90.0, 6);
    expect(after.peaks.dt).toBeCloseTo(97.9, 1);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
