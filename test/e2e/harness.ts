/**
 * End-to-end harness: builds the examples app, serves it on a free localhost port, drives
 * Chromium (chromium-path.ts finds it) through playwright-core, and reads what the pages publish.
 *
 * Every check waits for a condition (`page.waitForFunction`), never for a fixed time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, type UserConfig } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { examples } from '../../examples/catalog.ts';
import { type RunningServer, type ServeOptions, serveExamples } from '../../examples/serve.ts';
import viteConfig from '../../examples/vite.config.ts';
import { ensureBuilt, PACKAGES } from '../support/packages.ts';
import { onceInRun, sharedRunDir } from '../support/run-once.ts';
import { findChromium } from './chromium-path.ts';

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));

/** The flags Chromium needs in this container (no GPU, no sandbox, no network chatter). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A built and served copy of the examples. */
export interface ExamplesSite {
  /** Base URL, ending in `/`. */
  readonly url: string;
  /**
   * Serves the same build once more on a port of its own, closed with the site: e.g. without the
   * cross-origin isolation headers (`{ crossOriginIsolated: false }`), as a host that does not
   * set them. Resolves to its base URL.
   */
  serveAgain(options: Pick<ServeOptions, 'crossOriginIsolated'>): Promise<string>;
  close(): Promise<void>;
}

/** Every page of examples/catalog.ts. */
const allSlugs = (): string[] => examples.map((e) => e.slug);

/** Builds the index and the pages `slugs` into `outDir`. */
async function buildInto(outDir: string, slugs: readonly string[]): Promise<void> {
  const config = viteConfig as UserConfig;
  const input: Record<string, string> = { index: join(examplesDir, 'index.html') };
  for (const slug of slugs) {
    if (examples.find((e) => e.slug === slug)?.bundled !== false) {
      input[slug] = join(examplesDir, slug, 'index.html');
    }
  }
  // The import-map page loads the built packages.
  for (const pkg of PACKAGES) ensureBuilt(pkg);
  await build({
    ...config,
    configFile: false,
    // 'error': Rolldown's plugin-timing notes on a loaded machine are not failures.
    logLevel: 'error',
    build: { ...config.build, outDir, emptyOutDir: true, rolldownOptions: { input } },
  });
}

/**
 * Builds the examples and serves them on a free localhost port, cross-origin isolated (as
 * `npm start` serves them; {@link ExamplesSite.serveAgain} serves them without). Under the e2e global setup every
 * example is built once per test run and shared by all e2e files; otherwise the index and the
 * pages named in `only` (default: all of examples/catalog.ts) are built into a fresh temporary
 * folder of this file's own.
 */
export async function startExamples(only?: readonly string[]): Promise<ExamplesSite> {
  let root: string;
  let ownDir: string | undefined;
  if (sharedRunDir() !== undefined) {
    root = await onceInRun(
      'examples',
      (out) => buildInto(out, allSlugs()),
      'building every example with Vite, once for all e2e files (1–3 min)',
    );
  } else {
    ownDir = await mkdtemp(join(tmpdir(), 'fixedtick-examples-'));
    root = ownDir;
    await buildInto(root, only ?? allSlugs());
  }
  let server: RunningServer;
  try {
    server = await serveExamples({ root });
  } catch (error) {
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
    throw error;
  }
  const servers = [server];
  return {
    url: server.url,
    async serveAgain(options) {
      const again = await serveExamples({ ...options, root });
      servers.push(again);
      return again.url;
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
}

/**
 * Launches Chromium: `CHROMIUM_PATH`, else the usual install paths (chromium-path.ts); without
 * one it rejects with one line saying how to install it.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
}

/** A page and every console error, uncaught exception and failed request it produced. */
export interface OpenedPage {
  readonly page: Page;
  readonly errors: string[];
}

/** Options of {@link openPage}. */
export interface OpenPageOptions {
  /** @defaultValue 960×540 */
  viewport?: { width: number; height: number };
  /** Runs on the new page before it loads `url` (init scripts, listeners). */
  beforeLoad?: (page: Page) => Promise<void>;
}

/**
 * Opens `url` in a new page (960×540 unless told otherwise) that records console errors, page
 * errors and failed requests.
 */
export async function openPage(
  browser: Browser,
  url: string,
  options: OpenPageOptions = {},
): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 960, height: 540 } });
  await options.beforeLoad?.(page);
  // Software WebGL on a loaded machine is slow; every wait is a condition, so a long limit costs
  // nothing when things are fast.
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) =>
    errors.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors };
}

/** Waits until the example reports `ready` and has rendered at least `frames` frames. */
export async function waitForFrames(page: Page, frames: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const state = window.__fixedtick as { ready?: boolean; frames?: number } | undefined;
      return state?.ready === true && (state.frames ?? 0) >= n;
    },
    frames,
    { timeout },
  );
}

/** Reads `window.__fixedtick` (a JSON copy). */
export function readState<T>(page: Page): Promise<T> {
  return page.evaluate(() => JSON.parse(JSON.stringify(window.__fixedtick ?? null)));
}

/** What a screenshot of a canvas contains. */
export interface CanvasPixels {
  readonly width: number;
  readonly height: number;
  /** Distinct colours among the sampled pixels (quantised to 5 bits a channel). */
  readonly distinctColors: number;
  /** Fraction of sampled pixels that differ from the most common (background) colour. */
  readonly coverage: number;
}

/** The page-side PNG decoder that {@link withPngDecoder} defines. */
export interface PngDecoderWindow {
  /** The pixels of a base64 PNG. */
  __fixedtickDecodePng(base64: string): Promise<ImageData>;
}

/**
 * Defines `window.__fixedtickDecodePng` in the page (the first call; later ones keep it): the
 * one function with which every test that reads a screenshot's pixels decodes it, in the page.
 */
export async function withPngDecoder(page: Page): Promise<void> {
  await page.evaluate(`window.__fixedtickDecodePng ??= async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  }`);
}

/**
 * Screenshots the first `selector` element as the compositor shows it (so it works without
 * `preserveDrawingBuffer`) and counts its colours, decoding the PNG in the page itself.
 */
export async function canvasPixels(page: Page, selector = 'canvas'): Promise<CanvasPixels> {
  const png = await page.locator(selector).first().screenshot();
  await withPngDecoder(page);
  return page.evaluate(async (base64) => {
    const decode = (window as unknown as PngDecoderWindow).__fixedtickDecodePng;
    const { width, height, data } = await decode(base64);
    const counts = new Map<number, number>();
    let samples = 0;
    for (let i = 0; i < data.length; i += 4 * 3) {
      const key = ((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      samples++;
    }
    let background = 0;
    for (const count of counts.values()) background = Math.max(background, count);
    return {
      width,
      height,
      distinctColors: counts.size,
      coverage: samples === 0 ? 0 : 1 - background / samples,
    };
  }, png.toString('base64'));
}

/** Saves a screenshot of `page` to `$E2E_SCREENSHOTS/<name>.png` when that variable is set. */
export async function maybeScreenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** One example page for a test file; its fields are set once `beforeAll` has run. */
export interface ExampleSession {
  site: ExamplesSite;
  browser: Browser;
  /** The page and the console errors it logged. */
  opened: OpenedPage;
  page: Page;
}

/**
 * Registers the file's `beforeAll` / `afterAll`: serve `slug` alone, open it in a fresh
 * Chromium, wait for its first `frames` frames and run `ready` (page setup such as unchecking a
 * box); afterwards close both. Returns the session, filled in when `beforeAll` has run.
 */
export function useExample(
  slug: string,
  frames = 10,
  ready?: (page: Page) => Promise<void>,
): ExampleSession {
  const session = {} as ExampleSession;
  beforeAll(async () => {
    [session.site, session.browser] = await Promise.all([startExamples([slug]), launchChromium()]);
    session.opened = await openPage(session.browser, new URL(`${slug}/`, session.site.url).href);
    session.page = session.opened.page;
    await waitForFrames(session.page, frames);
    await ready?.(session.page);
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.site?.close();
  });
  return session;
}

/** A PNG screenshot of the first `selector` element, as the compositor shows it. */
export async function canvasShot(page: Page, selector = 'canvas'): Promise<Buffer> {
  return page.locator(selector).first().screenshot();
}

/** How two PNG images differ: see {@link compareImages}. */
export interface ImageDifference {
  /** Fraction of pixels with a channel more than the threshold apart (1 if the sizes differ). */
  readonly changed: number;
  /** Mean absolute channel difference, 0–255 (255 if the sizes differ). */
  readonly meanError: number;
  readonly sameSize: boolean;
}

/**
 * Compares two PNG images pixel by pixel, decoded in the page: a pixel counts as changed when a
 * colour channel differs by more than `threshold` (of 255), so compression and dithering noise
 * does not count.
 */
export async function compareImages(
  page: Page,
  before: Buffer,
  after: Buffer,
  threshold: number,
): Promise<ImageDifference> {
  await withPngDecoder(page);
  return page.evaluate(
    async ([a, b, limit]) => {
      const decode = (window as unknown as PngDecoderWindow).__fixedtickDecodePng;
      const [x, y] = await Promise.all([decode(a), decode(b)]);
      if (x.width !== y.width || x.height !== y.height) {
        return { changed: 1, meanError: 255, sameSize: false };
      }
      let changed = 0;
      let error = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        let worst = 0;
        for (let c = 0; c < 3; c++) {
          const d = Math.abs(x.data[i + c] - y.data[i + c]);
          error += d;
          worst = Math.max(worst, d);
        }
        if (worst > limit) changed++;
      }
      const pixels = x.width * x.height;
      return { changed: changed / pixels, meanError: error / (pixels * 3), sameSize: true };
    },
    [before.toString('base64'), after.toString('base64'), threshold] as const,
  );
}

/**
 * Counts the page's animation frames in `window.__rafFrames`, for pages that publish nothing
 * themselves (a snippet pasted from the docs): wraps `requestAnimationFrame` before any script
 * of the page runs. Call before `page.goto`.
 */
export async function countAnimationFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __rafFrames: number };
    w.__rafFrames = 0;
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) =>
      raf((time) => {
        w.__rafFrames++;
        callback(time);
      });
  });
}

/** Waits until the page has run `frames` animation frames (see {@link countAnimationFrames}). */
export async function waitForAnimationFrames(page: Page, frames: number): Promise<number> {
  const handle = await page.waitForFunction((n) => {
    const count = (window as unknown as { __rafFrames?: number }).__rafFrames ?? 0;
    return count >= n ? count : false;
  }, frames);
  return (await handle.jsonValue()) as number;
}
