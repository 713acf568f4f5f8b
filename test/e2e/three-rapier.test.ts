/**
 * examples/three-rapier in real Chromium with real Rapier WASM (inlined by the compat build):
 * RapierPhysics steps the world once per tick with the loop's timestep, the pile settles and
 * falls asleep, one F press fires one shot that hits and moves the pile, the teleport shows the
 * pile back home in the same frame, the character walks on Rapier's character controller with
 * the camera on its drawn pose, and the selectors change the rate and the mode.
 */
import { describe, expect, it, vi } from 'vitest';
import { maybeScreenshot, readState, useExample, waitForFrames } from './harness.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

interface RapierState {
  frames: number;
  ticks: number;
  steps: number;
  physicsRate: number;
  fixedDelta: number;
  timestep: number;
  interpolation: string;
  bodies: number;
  bound: number;
  instances: number;
  repeats: { checked: number; repeated: number };
  sleeping: number;
  resting: number;
  moved: number;
  shots: number;
  hits: number;
  teleports: number;
  teleportOffset: number;
  farthestBeforeTeleport: number;
  stepsAfterTeleport: number;
  teleportExcess: number;
  character: {
    drawn: [number, number, number];
    simulated: [number, number, number];
    walked: number;
    grounded: boolean;
    manual: boolean;
    cameraError: number;
  };
}

const ex = useExample('three-rapier', 10);

/**
 * Waits until `check(state, arg)` holds on the page's `window.__fixedtick`. `check` runs in the
 * page: it may use only its two parameters.
 */
function until<A>(check: (s: RapierState, arg: A) => boolean, arg: A): Promise<unknown> {
  return ex.page.waitForFunction(
    ([source, value]) =>
      new Function('s', 'arg', `return (${source})(s, arg);`)(window.__fixedtick, value) === true,
    [check.toString(), arg] as const,
  );
}

describe('three-rapier: a Rapier pile on RapierPhysics', () => {
  it('binds every body, steps the world once per tick with timestep = fixedDelta', async () => {
    const s = await readState<RapierState>(ex.page);
    expect(s.bodies).toBe(288);
    // the heap of spheres: one InstancedMesh, an instance per body (physics.addInstance)
    expect(s.instances).toBe(144);
    // the pile, the capsule and the projectile
    expect(s.bound).toBe(290);
    expect(s.steps).toBe(s.ticks);
    expect(s.ticks).toBeGreaterThan(0);
    expect(s.fixedDelta).toBeCloseTo(1 / 60, 15);
    expect(s.timestep).toBe(Math.fround(1 / 60));
  });

  it('the pile settles and falls asleep: sleeping bodies are counted (and skipped)', async () => {
    await until((s, n) => s.sleeping >= n, 200);
    const s = await readState<RapierState>(ex.page);
    expect(s.resting).toBeGreaterThanOrEqual(200);
    expect(s.moved).toBeLessThan(s.bodies);
    await maybeScreenshot(ex.page, 'three-rapier-asleep');
  });

  it('the character walks on the character controller; the camera follows its drawn pose', async () => {
    await until((s, m) => s.character.walked > m && s.character.grounded, 1);
    const s = await readState<RapierState>(ex.page);
    expect(s.character.cameraError).toBeLessThan(1e-9);
    // standing on the ground: capsule centre = half height + radius (+ the controller's offset)
    expect(s.character.simulated[1]).toBeGreaterThan(0.75);
    expect(s.character.simulated[1]).toBeLessThan(0.9);
  });

  it('the touch pad walks the character while a button is held, then lets it circle again', async () => {
    const forward = ex.page.locator('.touch-pad button[data-hold="KeyW"]');
    const box = await forward.boundingBox();
    expect(box).not.toBeNull();
    const { x, y, width, height } = box as { x: number; y: number; width: number; height: number };
    await ex.page.mouse.move(x + width / 2, y + height / 2);
    await ex.page.mouse.down();
    await until((s) => s.character.manual, 0);
    await ex.page.mouse.up();
    await until((s) => !s.character.manual, 0);
  });

  it('at a simulated 144 Hz display the character is drawn between steps, one step behind', async () => {
    await ex.page.selectOption('#display-rate', '144');
    const before = await readState<RapierState>(ex.page);
    await waitForFrames(ex.page, before.frames + 30);
    const s = await readState<RapierState>(ex.page);
    const [dx, , dz] = s.character.drawn.map((v, k) => v - s.character.simulated[k]);
    // at 3.5 m/s and 60 Hz a step is 5.8 cm: drawn within two steps of the body
    expect(Math.hypot(dx, dz)).toBeLessThan(0.12);
    await ex.page.selectOption('#display-rate', 'real');
  });

  it('a press of F fires exactly one shot that hits and moves the pile', async () => {
    await ex.page.keyboard.press('KeyF');
    await until((s, n) => s.shots === 1 && s.hits >= 1 && s.moved >= n, 5);
    expect((await readState<RapierState>(ex.page)).shots).toBe(1);
    await maybeScreenshot(ex.page, 'three-rapier-shot');
  });

  it('at a simulated 144 Hz display no moving body, mesh or instance, is drawn twice in one place', async () => {
    await ex.page.selectOption('#display-rate', '144');
    await ex.page.keyboard.press('KeyF'); // a second shot: the pile moving again
    await until((s, n) => s.repeats.checked >= n, 300);
    const s = await readState<RapierState>(ex.page);
    await ex.page.selectOption('#display-rate', 'real');
    expect(s.repeats.checked).toBeGreaterThanOrEqual(300);
    expect(s.repeats.repeated).toBe(0);
  });

  it('the teleport draws the whole pile back home in the same frame, with no streak', async () => {
    // a simulated 144 Hz display: frames of 1/144 s run at most one 60 Hz step, so the teleport's
    // frame is drawn between the teleport and the step after it (a frame that ran two steps would
    // be drawn between two later poses and could not show a streak)
    await ex.page.selectOption('#display-rate', '144');
    await ex.page.click('#teleport');
    await until((s, n) => s.teleports === n && s.teleportOffset >= 0, 1);
    const s = await readState<RapierState>(ex.page);
    await ex.page.selectOption('#display-rate', 'real');
    // the shot scattered the pile: a streak would draw bodies on their way back from metres off
    expect(s.farthestBeforeTeleport).toBeGreaterThan(1);
    // teleported inside fixedUpdate, the frame draws each body between two of its own poses since
    // the teleport (the start and the steps that followed), never on its way back from before it
    expect(s.stepsAfterTeleport).toBe(1);
    expect(s.teleportExcess).toBeLessThanOrEqual(1e-4);
  });

  it('the physics rate and interpolation selectors change the timestep and the mode', async () => {
    await ex.page.selectOption('#physics-rate', '20');
    await ex.page.selectOption('#interpolation', 'extrapolate');
    const before = await readState<RapierState>(ex.page);
    await until((s, ticks) => s.ticks >= ticks, before.ticks + 5);
    const s = await readState<RapierState>(ex.page);
    expect(s.physicsRate).toBe(20);
    expect(s.interpolation).toBe('extrapolate');
    expect(s.timestep).toBe(Math.fround(1 / 20));
    expect(s.steps).toBe(s.ticks);
  });

  it('logged no console error', () => {
    expect(ex.opened.errors).toEqual([]);
  });
});
