/**
 * examples/three-jump in real Chromium: at a simulated 30, 60 and 144 fps display the fixed-step
 * runner peaks at 95.0 px with the same air time, the dt-scaled runner at 90.0 / 95.0 / 97.9 px,
 * and one press of Space (through the example's InputLatch) makes each runner jump exactly once.
 */
import { describe, expect, it, vi } from 'vitest';
import { maybeScreenshot, useExample } from './harness.ts';
import { DISPLAY_JUMPS, expectLedgeJump, jumpAt } from './ledge-jump.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

const ex = useExample('three-jump', 5, (page) => page.uncheck('#auto-jump'));

describe('three-jump: the 96 px ledge', () => {
  it.each(DISPLAY_JUMPS)(
    'at a simulated $fps fps display the fixed runner peaks at 95.0 px and each runner jumps once',
    async ({ fps, dt }) => {
      const { before, after } = await jumpAt(ex, String(fps));
      expectLedgeJump(before, after, fps, dt);
      await maybeScreenshot(ex.page, `three-jump-${fps}`);
    },
  );

  it('with the browser’s own frames the fixed runner still peaks at 95.0 px', async () => {
    const { after } = await jumpAt(ex, 'real');
    expect(after.displayRate).toBe('real');
    expect(after.peaks.fixed).toBeCloseTo(95.0, 6);
  });

  it('the physics rate, not the display rate, sets the fixed runner’s jump (30 Hz: 90.0 px)', async () => {
    const { after } = await jumpAt(ex, '144', '30');
    expect(after.physicsRate).toBe(30);
    expect(after.peaks.fixed).toBeCloseTo(90.0, 6);
    expect(after.peaks.dt).toBeCloseTo(97.9, 1);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
