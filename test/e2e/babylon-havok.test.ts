/**
 * examples/babylon-havok in real Chromium with real Havok WASM: the pile stands still until the
 * shot key is pressed, then bodies move; the physics rate and interpolation selectors work; the
 * teleport puts every box back.
 */
import { describe, expect, it, vi } from 'vitest';
import { maybeScreenshot, readState, useExample } from './harness.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

interface HavokState {
  frames: number;
  ticks: number;
  physicsRate: number;
  interpolation: string;
  bodies: number;
  tracked: number;
  moved: number;
  shots: number;
  teleports: number;
  projectile: [number, number, number];
}

const ex = useExample('babylon-havok', 12);

function waitFor(predicate: string, timeout = 60_000): Promise<unknown> {
  return ex.page.waitForFunction(
    (source) => new Function('s', `return ${source}`)(window.__fixedtick),
    predicate,
    { timeout },
  );
}

describe('babylon-havok: a Havok pile', () => {
  it('tracks every dynamic body and the pile stands still before the first shot', async () => {
    const s = await readState<HavokState>(ex.page);
    expect(s.bodies).toBe(300);
    // 300 boxes + the projectile (dynamic once shot; tracked explicitly by the interpolation selector).
    expect(s.tracked).toBeGreaterThanOrEqual(300);
    expect(s.moved).toBe(0);
    expect(s.ticks).toBeGreaterThan(0);
  });

  it('a press of F fires exactly one shot and the bodies move', async () => {
    await ex.page.keyboard.press('KeyF');
    await waitFor('s.shots === 1 && s.moved >= 10');
    const s = await readState<HavokState>(ex.page);
    expect(s.shots).toBe(1);
    expect(s.projectile[2]).toBeGreaterThan(-14 + 1); // left the cannon towards the pile
    await maybeScreenshot(ex.page, 'babylon-havok-shot');
  });

  it('at 10 Hz physics with extrapolation it keeps stepping at 10 Hz', async () => {
    await ex.page.selectOption('#physics-rate', '10');
    await ex.page.selectOption('#interpolation', 'extrapolate');
    const before = await readState<HavokState>(ex.page);
    expect(before.physicsRate).toBe(10);
    expect(before.interpolation).toBe('extrapolate');
    await waitFor(`s.ticks >= ${before.ticks + 5} && s.frames >= ${before.frames + 5}`);
  });

  it('the teleport puts every box back where the pile started', async () => {
    await ex.page.selectOption('#physics-rate', '60');
    await ex.page.selectOption('#interpolation', 'interpolate');
    await ex.page.click('#teleport');
    await waitFor('s.teleports === 1 && s.moved === 0');
    expect((await readState<HavokState>(ex.page)).moved).toBe(0);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
