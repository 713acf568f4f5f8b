/**
 * Deterministic thumbnails of the real example pages (docs/examples.md, "Thumbnails").
 *
 * The page is loaded unchanged, with a virtual clock installed before any of its scripts runs:
 * `requestAnimationFrame` callbacks receive the timestamps of a perfect 60 Hz display
 * (`origin + n × 1000 / 60`), `performance.now()` reads the same clock, and `Math.random` is a
 * seeded generator. After {@link THUMBNAIL_FRAMES} frames (or the catalog entry's
 * `thumbnailFrames`) the clock stops calling back, so the page freezes on frame N whatever the
 * machine's speed. The timing graph is hidden (a thumbnail shows the scene, not the graph), the
 * stage is cut to a 16:9 box around what it draws (the pixels unlike its background colour, with
 * a margin: no empty sky) and scaled to 480×270. The committed PNG is compared with a tolerance, not byte for
 * byte, because software WebGL may rasterise edges a little differently under another
 * Chromium build; a changed scene, layout or colour is far beyond it.
 */
import type { Page } from 'playwright-core';
import {
  compareImages,
  type ImageDifference,
  type PngDecoderWindow,
  withPngDecoder,
} from './harness.ts';

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
const clockScript = (frames: number): string => `(() => {
  const frames = ${frames};
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
export async function thumbnailClock(page: Page, frames = THUMBNAIL_FRAMES): Promise<void> {
  await page.addInitScript({ content: clockScript(frames) });
}

/** A box in page pixels. */
interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The 16:9 box of `stage` around what the scene draws: the pixels that differ from the most
 * common colour (the background), with a margin of a tenth of their extent, grown to 16:9 and
 * kept inside the stage. The whole stage's 16:9 middle when nothing stands out.
 */
async function sceneClip(page: Page, stage: Clip): Promise<Clip> {
  const shot = await page.screenshot({ clip: stage });
  await withPngDecoder(page);
  const found = await page.evaluate(async (base64) => {
    const decode = (window as unknown as PngDecoderWindow).__fixedtickDecodePng;
    const { width, height, data } = await decode(base64);
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4) {
      const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    let background = 0;
    let most = 0;
    for (const [key, count] of counts) if (count > most) [background, most] = [key, count];
    const [br, bg, bb] = [background >> 16, (background >> 8) & 255, background & 255];
    let [left, top, right, bottom] = [width, height, -1, -1];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const d = Math.max(
          Math.abs(data[i] - br),
          Math.abs(data[i + 1] - bg),
          Math.abs(data[i + 2] - bb),
        );
        if (d <= 24) continue;
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    return right < 0 ? null : { left, top, right, bottom };
  }, shot.toString('base64'));
  let box = { x: 0, y: 0, width: stage.width, height: stage.height };
  if (found !== null) {
    const w = found.right - found.left + 1;
    const h = found.bottom - found.top + 1;
    box = { x: found.left - w / 10, y: found.top - h / 10, width: w * 1.2, height: h * 1.2 };
  }
  // Grow the short side to 16:9 around the centre, then fit inside the stage.
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let width = Math.max(box.width, (box.height * 16) / 9);
  let height = (width * 9) / 16;
  if (height > stage.height) [height, width] = [stage.height, (stage.height * 16) / 9];
  if (width > stage.width) [width, height] = [stage.width, (stage.width * 9) / 16];
  const x = Math.min(Math.max(cx - width / 2, 0), stage.width - width);
  const y = Math.min(Math.max(cy - height / 2, 0), stage.height - height);
  return { x: stage.x + x, y: stage.y + y, width, height };
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
  // The scene, not the graph: hide the timing graph and its help line (laid over the stage).
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>(
      '.fixedtick-timing-graph, .fixedtick-timing-graph-help',
    )) {
      el.style.display = 'none';
    }
  });
  const stage = await page.locator('.stage').first().boundingBox();
  if (stage === null) throw new Error('the page has no visible .stage');
  const shot = await page.screenshot({ clip: await sceneClip(page, stage) });
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
