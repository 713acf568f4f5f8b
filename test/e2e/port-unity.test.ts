/**
 * examples/port-unity in real Chromium: the ported MonoBehaviour reads `Time.deltaTime` = 0.02
 * inside every FixedUpdate, `Time.time === Time.fixedTime` there, each frame runs FixedUpdate × n →
 * Update → LateUpdate, `timeScale` 0 stops FixedUpdate while Update goes on with deltaTime 0, and
 * `RigidbodyInterpolation.None` draws the simulation pose exactly; the touch pad steers while a
 * button is held.
 */
import { describe, expect, it } from 'vitest';
import { readState, useExample, waitForFrames } from './harness.ts';

interface UnityState {
  frames: number;
  fixedUpdates: number;
  updates: number;
  lateUpdates: number;
  fixedDeltaTimes: number[];
  fixedTimeMismatches: number;
  orderViolations: number;
  invariantViolations: number;
  lastUpdateDelta: number;
  lastUnscaledDelta: number;
  rendered: number[];
  simulated: number[];
  cameraError: number;
  interpolation: string;
  steered: boolean;
}

const ex = useExample('port-unity');

describe('port-unity: a Unity controller on UnityTime', () => {
  it('FixedUpdate reads deltaTime 0.02 and time = fixedTime, in Unity message order', async () => {
    await ex.page.selectOption('#display-rate', '144');
    const before = await readState<UnityState>(ex.page);
    await waitForFrames(ex.page, before.frames + 90);
    const after = await readState<UnityState>(ex.page);
    expect(after.fixedDeltaTimes).toEqual([0.02]);
    expect(after.fixedTimeMismatches).toBe(0);
    expect(after.orderViolations).toBe(0);
    expect(after.invariantViolations).toBe(0);
    // 90 frames of a 144 fps display are 0.625 s: 31 or 32 steps of 0.02 s
    const steps = after.fixedUpdates - before.fixedUpdates;
    expect(steps).toBeGreaterThanOrEqual(31);
    expect(steps).toBeLessThanOrEqual(32);
    expect(after.updates - before.updates).toBe(after.frames - before.frames);
    expect(after.lateUpdates - before.lateUpdates).toBe(after.frames - before.frames);
    expect(after.lastUpdateDelta).toBeCloseTo(1 / 144, 9);
    // LateUpdate's camera is still where it put it when the frame is drawn
    expect(after.cameraError).toBeLessThan(1e-9);
    expect(ex.opened.errors).toEqual([]);
  });

  it('timeScale 0 runs no FixedUpdate; Update goes on with deltaTime 0', async () => {
    await ex.page.selectOption('#display-rate', '60');
    await ex.page.selectOption('#time-scale', '0');
    const paused = await readState<UnityState>(ex.page);
    await waitForFrames(ex.page, paused.frames + 30);
    const later = await readState<UnityState>(ex.page);
    expect(later.fixedUpdates).toBe(paused.fixedUpdates);
    expect(later.updates - paused.updates).toBe(later.frames - paused.frames);
    expect(later.lastUpdateDelta).toBe(0);
    expect(later.lastUnscaledDelta).toBeCloseTo(1 / 60, 9);

    await ex.page.selectOption('#time-scale', '1');
    await waitForFrames(ex.page, later.frames + 30);
    const resumed = await readState<UnityState>(ex.page);
    expect(resumed.fixedUpdates).toBeGreaterThan(later.fixedUpdates);
    expect(resumed.orderViolations).toBe(0);
    expect(ex.opened.errors).toEqual([]);
  });

  it('RigidbodyInterpolation.None draws the simulation pose exactly', async () => {
    await ex.page.selectOption('#display-rate', '144');
    await ex.page.selectOption('#interpolation', 'none');
    const start = await readState<UnityState>(ex.page);
    await waitForFrames(ex.page, start.frames + 20);
    const state = await readState<UnityState>(ex.page);
    expect(state.interpolation).toBe('none');
    for (let k = 0; k < 3; k++) expect(state.rendered[k]).toBeCloseTo(state.simulated[k], 9);
    expect(ex.opened.errors).toEqual([]);
  });

  it('the touch pad steers while a button is held, then the body drives by itself again', async () => {
    const left = ex.page.locator('.touch-pad button[data-hold="ArrowLeft"]');
    const box = (await left.boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    await ex.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await ex.page.mouse.down();
    await ex.page.waitForFunction(
      () => (window.__fixedtick as { steered?: boolean }).steered === true,
    );
    await ex.page.mouse.up();
    await ex.page.waitForFunction(
      () => (window.__fixedtick as { steered?: boolean }).steered === false,
    );
    expect(ex.opened.errors).toEqual([]);
  });
});
