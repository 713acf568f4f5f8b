/**
 * The getting-started pages of docs/three.md, docs/rapier.md and docs/babylon.md, pasted verbatim (extracted
 * from the Markdown, so docs and test cannot drift) into a fresh Vite app outside the
 * repository that installed the packed tarballs (test/support/fresh-app.ts), built by that
 * app's own Vite and opened in Chromium: the canvas fills the window and follows a resize, it
 * is not blank, and the object moves. The Node snippets run with plain `node`.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningServer, serveExamples } from '../../examples/serve.ts';
import { docSnippet } from '../support/doc-snippets.ts';
import { appPage, freshApp } from '../support/fresh-app.ts';
import { run } from '../support/packages.ts';
import {
  canvasPixels,
  canvasShot,
  compareImages,
  countAnimationFrames,
  launchChromium,
  openPage,
  waitForAnimationFrames,
} from './harness.ts';

// npm install of the tarballs and the engines, two Vite builds, software WebGL: generous limits.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

const PAGES = [
  { doc: 'three.md', name: 'three' },
  { doc: 'rapier.md', name: 'rapier' },
  { doc: 'babylon.md', name: 'babylon' },
] as const;

let browser: Browser;
const servers = new Map<string, RunningServer>();
const folders = new Map<string, string>();

beforeAll(async () => {
  const [launched, app] = await Promise.all([launchChromium(), freshApp()]);
  browser = launched;
  for (const { doc, name } of PAGES) {
    const folder = await appPage(`getting-started-${name}`, {
      'index.html': docSnippet(doc, 'index.html'),
      'main.ts': docSnippet(doc, 'main.ts'),
      'node.mjs': docSnippet(doc, 'node.mjs'),
    });
    folders.set(name, folder);
    await run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], folder);
    servers.set(name, await serveExamples({ root: join(folder, 'dist') }));
  }
});
afterAll(async () => {
  await browser?.close();
  for (const server of servers.values()) await server.close();
});

/** The canvas's CSS box and drawing buffer, and the window's size. */
function canvasSize(page: Page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('canvas') as HTMLCanvasElement;
    const box = canvas.getBoundingClientRect();
    return {
      box: { x: box.x, y: box.y, width: box.width, height: box.height },
      buffer: { width: canvas.width, height: canvas.height },
      window: { width: innerWidth, height: innerHeight },
      ratio: devicePixelRatio,
    };
  });
}

/** Waits, frame by frame, until two shots of the canvas differ by more than `fraction`. */
async function waitForMotion(page: Page, fraction: number): Promise<number> {
  const before = await canvasShot(page);
  let frames = await waitForAnimationFrames(page, 1);
  for (let attempt = 0; attempt < 40; attempt++) {
    frames = await waitForAnimationFrames(page, frames + 5);
    const { changed } = await compareImages(page, before, await canvasShot(page), 24);
    if (changed > fraction) return changed;
  }
  return 0;
}

describe.each(PAGES)('the getting-started page of docs/$doc', ({ name }) => {
  it('fills the window with a canvas that is not blank, and the object moves', async () => {
    const { page, errors } = await openPage(browser, servers.get(name)?.url ?? '', {
      beforeLoad: countAnimationFrames,
    });
    await waitForAnimationFrames(page, 20);
    const size = await canvasSize(page);
    expect(size.window).toEqual({ width: 960, height: 540 });
    expect(size.box).toEqual({ x: 0, y: 0, width: 960, height: 540 });
    expect(size.buffer).toEqual({ width: 960 * size.ratio, height: 540 * size.ratio });
    const pixels = await canvasPixels(page);
    expect(pixels.distinctColors).toBeGreaterThanOrEqual(3);
    expect(pixels.coverage).toBeGreaterThan(0.01);
    // More than 0.2 % of the pixels change between two frames: the object is moving.
    expect(await waitForMotion(page, 0.002)).toBeGreaterThan(0.002);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('follows a resize of the window', async () => {
    const { page, errors } = await openPage(browser, servers.get(name)?.url ?? '', {
      beforeLoad: countAnimationFrames,
    });
    await waitForAnimationFrames(page, 5);
    await page.setViewportSize({ width: 640, height: 420 });
    await page.waitForFunction(() => {
      const canvas = document.querySelector('canvas') as HTMLCanvasElement;
      return canvas.width === 640 * devicePixelRatio && canvas.height === 420 * devicePixelRatio;
    });
    const size = await canvasSize(page);
    expect(size.box).toEqual({ x: 0, y: 0, width: 640, height: 420 });
    const frames = await waitForAnimationFrames(page, 1);
    await waitForAnimationFrames(page, frames + 3);
    expect((await canvasPixels(page)).coverage).toBeGreaterThan(0.01);
    await page.close();
    expect(errors).toEqual([]);
  });
});

describe('the Node snippets, run with plain node', () => {
  it('docs/three.md: 60 steps in one second at 144 fps, drawn one step behind', async () => {
    const { stdout } = await run('node', ['node.mjs'], folders.get('three') ?? '');
    expect(stdout).toContain('60 steps; simulated x = 3.00 m');
    expect(stdout).toContain('drawn x = 2.95 m, one step behind');
  });

  it('docs/rapier.md: Rapier in Node, 60 steps of free fall, drawn one step behind', async () => {
    const { stdout } = await run('node', ['node.mjs'], folders.get('rapier') ?? '');
    expect(stdout).toContain('60 steps; the body fell from 10 m to y = 5.07 m');
    expect(stdout).toContain('drawn at y = 5.24 m, one step behind');
  });

  it('docs/babylon.md: Havok on a NullEngine, 60 steps of free fall, drawn behind', async () => {
    const { stdout } = await run('node', ['node.mjs'], folders.get('babylon') ?? '');
    const match =
      /(\d+) steps; the ball fell from 10 m to y = ([\d.]+) m\ndrawn at y = ([\d.]+) m/.exec(
        stdout,
      );
    expect(match, stdout).not.toBeNull();
    const [steps, simulated, drawn] = (match as RegExpExecArray).slice(1).map(Number);
    expect(steps).toBe(60);
    // One second of free fall from 10 m: 10 - 9.81 / 2 = 5.095 m, less Havok's damping.
    expect(simulated).toBeGreaterThan(4.9);
    expect(simulated).toBeLessThan(5.2);
    // Falling, the drawn pose (between the last two steps) is above the simulated one.
    expect(drawn).toBeGreaterThan(simulated);
  });
});
