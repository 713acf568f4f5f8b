/**
 * Deterministic thumbnails of the real example pages (docs/examples.md, "Thumbnails").
 *
 * The page is loaded unchanged, with a virtual clock installed before any of its scripts runs:
 * `requestAnimationFrame` callbacks receive the timestamps of a perfect 60 Hz display
 * (`origin + n × 1000 / 60`), `performance.now()` reads the same clock, and `Math.random` is a
 * seeded generator. After {@link THUMBNAIL_FRAMES} frames the clock stops calling back, so the
 * page freezes on frame N whatever the machine's speed; the stage is then captured, cut to
 * 16:9 and scaled to 480×270. The committed PNG is compared with a tolerance, not byte for
 * byte, because software WebGL may rasterise edges a little differently under another
 * Chromium build; a changed scene, layout or colour is far beyond it.
 */
import type { Page } from 'playwright-core';
import { compareImages, type ImageDifference } from './harness.ts';

/** Frames fed before the page freezes: 1.5 s of game time at 60 Hz. */
export const THUMBNAIL_FRAMES = 90;
/** Size of a thumbnail, px. */
export const THUMBNAIL_SIZE = { width: 480, height: 270 } as const;
/**
 * How far a fresh capture may be from the committed one: the fraction of pixels with a channel
 * more than 48/255 apart, and the mean absolute channel difference (0–255).
 */
export const THUMBNAIL_TOLERANCE = { channel: 48, changed: 0.03, meanError: 4 } as const;

/**
 * The virtual clock, as page source (a string: a function would be serialised with whatever
 * helpers the test's own transpiler added to it, which the page does not have).
 */
const CLOCK_SCRIPT = `(() => {
  const frames = ${THUMBNAIL_FRAMES};
  const step = 1000 / 60;
  const origin = 1000;
  let frame = 0;
  const now = () => origin + frame * step;
  performance.now = now;
  let seed = 0x9e3779b9;
  Math.random = () => {
    // mulberry32: a small seeded generator, so "random" scenes repeat exactly.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const realRaf = window.requestAnimationFrame.bind(window);
  const pending = new Map();
  let nextId = 1;
  let scheduled = false;
  const tick = () => {
    scheduled = false;
    if (frame >= frames) {
      window.__thumbnailFrozen = true;
      return;
    }
    frame++;
    const callbacks = [...pending.values()];
    pending.clear();
    for (const callback of callbacks) {
      try {
        callback(now());
      } catch (error) {
        setTimeout(() => { throw error; });
      }
    }
    if (pending.size > 0 || frame >= frames) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    realRaf(tick);
  };
  window.requestAnimationFrame = (callback) => {
    const id = nextId++;
    pending.set(id, callback);
    schedule();
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    pending.delete(id);
  };
})();`;

/** Installs the virtual clock (call before `page.goto`; see the module doc). */
export async function thumbnailClock(page: Page): Promise<void> {
  await page.addInitScript({ content: CLOCK_SCRIPT });
}

/** Waits for the frozen frame and returns the stage as a 480×270 PNG. */
export async function captureThumbnail(page: Page): Promise<Buffer> {
  await page.waitForFunction(
    () => (window as unknown as { __thumbnailFrozen?: boolean }).__thumbnailFrozen === true,
    undefined,
    // Polled on a timer: Playwright's default polling rides requestAnimationFrame, which the
    // frozen clock no longer calls back.
    { timeout: 90_000, polling: 100 },
  );
  const stage = page.locator('.stage').first();
  const box = await stage.boundingBox();
  if (box === null) throw new Error('the page has no visible .stage');
  const height = Math.min(box.height, (box.width * 9) / 16);
  const width = (height * 16) / 9;
  const shot = await page.screenshot({
    clip: {
      x: box.x + (box.width - width) / 2,
      y: box.y + (box.height - height) / 2,
      width,
      height,
    },
  });
  const png = await page.evaluate(
    async ({ base64, size }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(size.width, size.height);
      const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, size.width, size.height);
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      const out = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of out) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { base64: shot.toString('base64'), size: THUMBNAIL_SIZE },
  );
  return Buffer.from(png, 'base64');
}

/** How a fresh thumbnail differs from the committed one: see {@link THUMBNAIL_TOLERANCE}. */
export function compareThumbnails(
  page: Page,
  committed: Buffer,
  fresh: Buffer,
): Promise<ImageDifference> {
  return compareImages(page, committed, fresh, THUMBNAIL_TOLERANCE.channel);
}
