/**
 * examples/three-rapier with its world in a worker (`?mode=worker`), in real Chromium with real
 * Rapier WASM in a real Web Worker. Served cross-origin isolated (as `npm start` serves it), the
 * worker shares its poses through shared memory; at a simulated 144 Hz display every moving body
 * is drawn somewhere new each frame (interpolated between two published ticks: never a repeated
 * pose, never one past a tick it skipped), the teleport lands with
 * no streak, and after 5 s of ticks the hash of every body's state equals main-thread mode's at
 * the same tick. Served without COOP/COEP the same page runs over `postMessage` and reaches the
 * same hash.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ExamplesSite,
  launchChromium,
  type OpenedPage,
  openPage,
  readState,
  startExamples,
  waitForFrames,
} from './harness.ts';

// Software WebGL and a worker on a shared 2-core machine: generous limits; every wait is a
// condition.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

interface WorkerPageState {
  mode: string;
  transport: string;
  crossOriginIsolated: boolean;
  frames: number;
  ticks: number;
  steps: number;
  bodies: number;
  bound: number;
  shots: number;
  hits: number;
  moved: number;
  teleports: number;
  teleportOffset: number;
  farthestBeforeTeleport: number;
  stepsAfterTeleport: number;
  teleportFrames: number;
  teleportExcess: number;
  repeats: { checked: number; repeated: number };
  streamDrawn: { interpolated: number; extrapolated: number; held: number; before: number };
  hash: { tick: number; value: string } | null;
  hashTick: number;
}

let site: ExamplesSite;
let browser: Browser;
/** The same build served without the cross-origin isolation headers. */
let plainUrl: string;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  [site, browser] = await Promise.all([startExamples(['three-rapier']), launchChromium()]);
  plainUrl = await site.serveAgain({ crossOriginIsolated: false });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens three-rapier at `base` with the address's `query`, once it has drawn 10 frames. */
async function open(base: string, query: string): Promise<Page> {
  const page = await openPage(browser, new URL(`three-rapier/?${query}`, base).href);
  opened.push(page);
  await waitForFrames(page.page, 10);
  return page.page;
}

/**
 * Waits until `check(state, arg)` holds on the page's `window.__fixedtick`. `check` runs in the
 * page: it may use only its two parameters.
 */
function until<A>(page: Page, check: (s: WorkerPageState, arg: A) => boolean, arg: A) {
  return page.waitForFunction(
    ([source, value]) =>
      new Function('s', 'arg', `return (${source})(s, arg);`)(window.__fixedtick, value) === true,
    [check.toString(), arg] as const,
  );
}

/** The hash of every body's state after 300 ticks (5 s at 60 Hz) on `page`. */
async function hashAt300(page: Page): Promise<{ tick: number; value: string }> {
  await until(page, (s) => s.hash !== null, 0);
  const { hash, hashTick } = await readState<WorkerPageState>(page);
  expect(hashTick).toBe(300);
  return hash as { tick: number; value: string };
}

describe('three-rapier in a worker, cross-origin isolated', () => {
  let page: Page;
  beforeAll(async () => {
    page = await open(site.url, 'mode=worker');
  });

  it('runs the world in a worker and shares its poses through shared memory', async () => {
    const s = await readState<WorkerPageState>(page);
    expect(s.crossOriginIsolated).toBe(true);
    expect(s.mode).toBe('worker');
    expect(s.transport).toBe('shared');
    expect(s.bodies).toBe(288);
    // the pile, the projectile and the capsule
    expect(s.bound).toBe(290);
    await until(page, (st, n) => st.steps >= n, 30);
    expect(await page.locator('#stats').textContent()).toContain('worker (shared)');
  });

  it('at a simulated 144 Hz display no moving body is drawn twice in one place, and no frame skips past a tick', async () => {
    await page.selectOption('#display-rate', '144');
    const { streamDrawn: from } = await readState<WorkerPageState>(page);
    await page.keyboard.press('KeyF'); // a shot: the pile moving
    await until(page, (s, n) => s.shots === 1 && s.hits >= 1 && s.repeats.checked >= n, 300);
    const s = await readState<WorkerPageState>(page);
    expect(s.repeats.checked).toBeGreaterThanOrEqual(300);
    expect(s.repeats.repeated).toBe(0);
    // every frame drew between two ticks the worker had published: none held at the newest
    // (a repeat, then a jump past the ticks missed), extrapolated or before the oldest
    const to = s.streamDrawn;
    expect(to.interpolated - from.interpolated).toBeGreaterThanOrEqual(10);
    expect([
      to.held - from.held,
      to.extrapolated - from.extrapolated,
      to.before - from.before,
    ]).toEqual([0, 0, 0]);
  });

  it('the teleport draws the whole pile back home with no streak', async () => {
    // still at 144 Hz: one step at most per frame, so frames are drawn between the state before
    // the teleport's step and the one after it, where a streak would show
    await until(page, (s, m) => s.moved >= m, 5);
    await page.click('#teleport');
    await until(page, (s, n) => s.teleports === n && s.teleportOffset >= 0, 1);
    const s = await readState<WorkerPageState>(page);
    await page.selectOption('#display-rate', 'real');
    expect(s.farthestBeforeTeleport).toBeGreaterThan(1);
    // measured from the first frame drawn after the state before the teleport's step (a step
    // later than on the main thread: the worker's delay) until the picture has passed it
    expect(s.stepsAfterTeleport).toBe(1);
    expect(s.teleportFrames).toBeGreaterThanOrEqual(2);
    // each body drawn where it was just before the teleport, or between its poses since it —
    // never on its way back from metres off
    expect(s.teleportExcess).toBeLessThanOrEqual(1e-4);
  });
});

describe('the same simulation in both modes', () => {
  it('after 5 s the hash of every body equals main-thread mode’s at the same tick', async () => {
    const [main, worker] = await Promise.all([
      open(site.url, 'mode=main'),
      open(site.url, 'mode=worker'),
    ]);
    const [inMain, inWorker] = await Promise.all([hashAt300(main), hashAt300(worker)]);
    expect(inWorker.tick).toBe(inMain.tick);
    expect(inWorker.value).toBe(inMain.value);
    await Promise.all([main.close(), worker.close()]);
  });

  it('served without COOP/COEP, the worker runs over postMessage and reaches the same hash', async () => {
    const [plain, main] = await Promise.all([
      open(plainUrl, 'mode=worker'),
      open(site.url, 'mode=main'),
    ]);
    const s = await readState<WorkerPageState>(plain);
    expect(s.crossOriginIsolated).toBe(false);
    expect(s.transport).toBe('message');
    const [inMain, inPlain] = await Promise.all([hashAt300(main), hashAt300(plain)]);
    expect(inPlain).toEqual(inMain);
    expect(await plain.locator('#stats').textContent()).toContain('worker (message)');
    await Promise.all([plain.close(), main.close()]);
  });
});

describe('three-rapier worker pages', () => {
  it('logged no console error', () => {
    expect(opened.flatMap((p) => p.errors)).toEqual([]);
  });
});
