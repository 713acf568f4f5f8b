/**
 * The getting-started pages of docs/three.md, docs/rapier.md, docs/babylon.md and
 * docs/react-three.md, pasted verbatim (extracted from the Markdown, so docs and test cannot
 * drift) into a fresh Vite app outside the repository that installed the packed tarballs
 * (test/support/fresh-app.ts), built by that app's own Vite and opened in Chromium: the canvas
 * fills the window and follows a resize, it is not blank, the object moves, and over 5 s of
 * samples it stays inside the view on a 1400×860 desktop and a 390×844 phone. The React app
 * type-checks with its own tsconfig.json; the Node snippets run with plain `node`.
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
  type PngDecoderWindow,
  waitForAnimationFrames,
  withPngDecoder,
} from './harness.ts';

// npm install of the tarballs and the engines, two Vite builds, software WebGL: generous limits.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

/**
 * Each page, its files, and how its moving object looks on screen: `scene` = anything but the
 * page's background colour (a lone cube), `orange` = the orange bodies (a floor is also drawn).
 */
const PAGES = [
  { doc: 'three.md', name: 'three', files: ['index.html', 'main.ts', 'node.mjs'], object: 'scene' },
  {
    doc: 'rapier.md',
    name: 'rapier',
    files: ['index.html', 'main.ts', 'node.mjs'],
    object: 'orange',
  },
  {
    doc: 'babylon.md',
    name: 'babylon',
    files: ['index.html', 'main.ts', 'node.mjs'],
    object: 'orange',
  },
  {
    doc: 'react-three.md',
    name: 'react-three',
    files: ['index.html', 'style.css', 'main.tsx', 'tsconfig.json'],
    object: 'scene',
  },
] as const;

/** The two windows every page must keep its object inside. */
const VIEWPORTS = [
  { name: 'a 1400×860 desktop', width: 1400, height: 860 },
  { name: 'a 390×844 phone', width: 390, height: 844 },
] as const;

let browser: Browser;
const servers = new Map<string, RunningServer>();
const folders = new Map<string, string>();

beforeAll(async () => {
  // One after the other: the install and the builds first, then the browser.
  const app = await freshApp();
  for (const { doc, name, files } of PAGES) {
    const folder = await appPage(
      `getting-started-${name}`,
      Object.fromEntries(files.map((file) => [file, docSnippet(doc, file)])),
    );
    folders.set(name, folder);
    await run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], folder);
    servers.set(name, await serveExamples({ root: join(folder, 'dist') }));
  }
  browser = await launchChromium();
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

/** Where the object is in one screenshot of the canvas: its pixels' bounding box and count. */
interface ObjectBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly pixels: number;
  readonly width: number;
  readonly height: number;
}

/** Finds the object's pixels in a screenshot of the canvas, decoded in the page. */
async function objectBox(page: Page, object: 'scene' | 'orange'): Promise<ObjectBox> {
  const png = await canvasShot(page);
  await withPngDecoder(page);
  return page.evaluate(
    async ([base64, kind]) => {
      const decode = (window as unknown as PngDecoderWindow).__fixedtickDecodePng;
      const { width, height, data } = await decode(base64);
      const isObject = (r: number, g: number, b: number) =>
        kind === 'orange'
          ? r >= 120 && r - b >= 70 && r - g >= 30
          : // the pages' background is #16181d
            Math.max(Math.abs(r - 0x16), Math.abs(g - 0x18), Math.abs(b - 0x1d)) > 24;
      let [left, top, right, bottom, pixels] = [width, height, -1, -1, 0];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (!isObject(data[i], data[i + 1], data[i + 2])) continue;
          pixels++;
          left = Math.min(left, x);
          right = Math.max(right, x);
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
        }
      }
      return { left, top, right, bottom, pixels, width, height };
    },
    [png.toString('base64'), object] as const,
  );
}

describe.each(PAGES)('the getting-started page of docs/$doc', ({ name, object }) => {
  it.each(VIEWPORTS)(
    'keeps its moving object inside the view on $name, over 5 s of samples',
    async ({ width, height }) => {
      const { page, errors } = await openPage(browser, servers.get(name)?.url ?? '', {
        viewport: { width, height },
        beforeLoad: countAnimationFrames,
      });
      let frames = await waitForAnimationFrames(page, 10);
      const started = await page.evaluate(() => performance.now());
      const outside: string[] = [];
      let samples = 0;
      let elapsed = 0;
      while (elapsed < 5000 || samples < 10) {
        const box = await objectBox(page, object);
        samples++;
        // At least a few hundred pixels of object, none in the outermost pixel row or column.
        const inside =
          box.pixels >= 200 &&
          box.left > 0 &&
          box.top > 0 &&
          box.right < box.width - 1 &&
          box.bottom < box.height - 1;
        if (!inside) outside.push(JSON.stringify(box));
        frames = await waitForAnimationFrames(page, frames + 3);
        elapsed = (await page.evaluate(() => performance.now())) - started;
      }
      expect(outside, `${outside.length} of ${samples} samples`).toEqual([]);
      expect(samples).toBeGreaterThanOrEqual(10);
      await page.close();
      expect(errors).toEqual([]);
    },
    // Ten screenshots of a 1400×860 software-WebGL canvas on a loaded machine: a long limit.
    300_000,
  );

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

describe('the React Three Fiber app of docs/react-three.md', () => {
  it('type-checks with its own tsconfig.json and the @types of its install line', async () => {
    const app = await freshApp();
    const { stdout } = await run(
      join(app, 'node_modules/.bin/tsc'),
      ['-p', 'tsconfig.json'],
      folders.get('react-three') ?? '',
    );
    expect(stdout).toBe('');
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
