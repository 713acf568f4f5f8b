/**
 * The gallery and what every page of examples/catalog.ts promises, data-driven from the catalog
 * (a new entry is covered with no change here): the index shows each example's thumbnail,
 * "what to look at" and "view source"; each page shows the timing graph, fits 1400×860 and a
 * 390 px phone with nothing clipped, keeps its keys working after a control was used, and its
 * committed thumbnail is what the page draws today (docs/examples.md, "Thumbnails").
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { examples, sourceUrl } from '../../examples/catalog.ts';
import {
  type ExamplesSite,
  launchChromium,
  openPage,
  startExamples,
  waitForFrames,
} from './harness.ts';
import {
  captureThumbnail,
  compareThumbnails,
  THUMBNAIL_TOLERANCE,
  thumbnailClock,
} from './thumbnails.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const thumbnails = fileURLToPath(new URL('../../examples/public/thumbnails/', import.meta.url));
/** `UPDATE_THUMBNAILS=1 npm run e2e -- gallery` rewrites the committed thumbnails. */
const UPDATE = process.env.UPDATE_THUMBNAILS === '1';

/** The two layouts every page must fit. */
const VIEWPORTS = [
  { name: 'a 1400×860 desktop', width: 1400, height: 860 },
  { name: 'a 390 px phone', width: 390, height: 844 },
] as const;

let site: ExamplesSite;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([startExamples(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Everything on the page that is cut off or pushes it sideways, described for a failure. */
function clipping(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
    const width = innerWidth;
    if (document.documentElement.scrollWidth > width) {
      problems.push(
        `the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`,
      );
    }
    const panel = document.querySelector('.panel');
    if (panel !== null) {
      const box = panel.getBoundingClientRect();
      if (panel.scrollWidth > panel.clientWidth + 1) problems.push('the panel scrolls sideways');
      for (const el of panel.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.right > box.right + 1 || r.left < box.left - 1) {
          problems.push(`${name(el)} sticks out of the panel (${r.left}–${r.right})`);
        }
      }
      // On a desktop the panel's content fits the window: nothing hides below the fold.
      if (width >= 1000 && panel.scrollHeight > innerHeight + 1) {
        problems.push(`the panel needs ${panel.scrollHeight} px of a ${innerHeight} px window`);
      }
      // On a phone the controls follow the view within the first screen: no scrolling past
      // empty stage to reach them.
      if (width < 800 && box.top > innerHeight * 0.65) {
        problems.push(`the panel starts ${box.top} px down a ${innerHeight} px screen`);
      }
    }
    const stage = document.querySelector('.stage');
    if (stage !== null) {
      const r = stage.getBoundingClientRect();
      if (r.width < Math.min(width, 320) || r.height < 240) {
        problems.push(`the stage is ${r.width}×${r.height}`);
      }
      const canvas = stage.querySelector('canvas');
      const c = canvas?.getBoundingClientRect();
      if (c === undefined || c.width < r.width - 1 || c.height < r.height - 1) {
        problems.push('the canvas does not fill the stage');
      }
    }
    return problems;
  });
}

/**
 * What covers what: the timing graph (its canvas and its help line) over any text of the page,
 * and the labels drawn over the view over each other. A text element is a shown element with a
 * text node of its own; boxes are compared as the browser lays them out.
 */
function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const meets = (a: Box, b: Box) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden';
    };
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const graphParts = [
      ...document.querySelectorAll('.fixedtick-timing-graph, .fixedtick-timing-graph-help'),
    ].filter(shown);
    const inGraph = (el: Element) => graphParts.some((part) => part.contains(el));
    const texts = [...document.body.querySelectorAll('*')].filter(
      (el) =>
        !inGraph(el) &&
        shown(el) &&
        [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== ''),
    );
    const problems: string[] = [];
    for (const part of graphParts) {
      const box = part.getBoundingClientRect();
      for (const text of texts) {
        if (meets(box, text.getBoundingClientRect())) {
          problems.push(`the timing graph (${part.className}) covers ${describe(text)}`);
        }
      }
    }
    const labels = [...document.querySelectorAll('.lane-labels span, .view-labels span')];
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        if (meets(labels[i].getBoundingClientRect(), labels[j].getBoundingClientRect())) {
          problems.push(`${describe(labels[i])} overlaps ${describe(labels[j])}`);
        }
      }
    }
    return problems;
  });
}

describe('the gallery (examples/index.html)', () => {
  it.each(VIEWPORTS)(
    'shows every example with its thumbnail, what to look at and source, fitting $name',
    async ({ width, height }) => {
      const { page, errors } = await openPage(browser, site.url, { viewport: { width, height } });
      await page.waitForFunction(
        (n) =>
          [...document.querySelectorAll<HTMLImageElement>('#examples img')].filter(
            (img) => img.complete && img.naturalWidth > 0,
          ).length === n,
        examples.length,
      );
      const cards = await page.$$eval('#examples .card', (items) =>
        items.map((item) => ({
          title: item.querySelector('.title')?.getAttribute('href'),
          thumb: item.querySelector('.thumb')?.getAttribute('href'),
          image: item.querySelector('img')?.getAttribute('src'),
          look: item.querySelector('.look')?.textContent,
          source: item.querySelector('.source')?.getAttribute('href'),
          right: item.getBoundingClientRect().right,
        })),
      );
      expect(cards.map(({ right: _, ...card }) => card)).toEqual(
        examples.map((e) => ({
          title: `./${e.slug}/`,
          thumb: `./${e.slug}/`,
          image: `./thumbnails/${e.slug}.png`,
          look: `What to look at: ${e.lookFor}`,
          source: sourceUrl(e.slug),
        })),
      );
      for (const card of cards) expect(card.right).toBeLessThanOrEqual(width);
      expect(await clipping(page)).toEqual([]);
      await page.close();
      expect(errors).toEqual([]);
    },
  );
});

describe.each(examples)('example $slug', ({ slug, thumbnailFrames }) => {
  it('shows the timing graph, explained in place, and G toggles it right after a control was used', async () => {
    const { page, errors } = await openPage(browser, new URL(`${slug}/`, site.url).href);
    await waitForFrames(page, 5);
    const graph = page.locator('canvas.fixedtick-timing-graph');
    expect(await graph.count()).toBe(1);
    expect(await graph.isVisible()).toBe(true);
    // It explains itself in place: opened, its help line names the marks and links the guide.
    const help = page.locator('details.fixedtick-timing-graph-help');
    await help.locator('summary').click();
    const explained = (await help.textContent()) ?? '';
    for (const mark of ['Bar height:', 'White line:', 'Blue lane:']) {
      expect(explained).toContain(mark);
    }
    expect(await help.locator('a').getAttribute('href')).toBe('/guides/timing-graph.md');
    await help.locator('summary').click();
    // Use a control the way a person does (the first select: pick another option), then press G.
    const select = page.locator('.panel select').first();
    if ((await select.count()) > 0) {
      await select.focus();
      const values = await select.evaluate((s: HTMLSelectElement) =>
        [...s.options].map((o) => o.value).filter((v) => v !== s.value),
      );
      await select.selectOption(values[0]);
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('SELECT');
    }
    await page.keyboard.press('g');
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('canvas.fixedtick-timing-graph');
      return c !== null && getComputedStyle(c).display === 'none';
    });
    await page.keyboard.press('g');
    expect(await graph.isVisible()).toBe(true);
    await page.close();
    expect(errors).toEqual([]);
  });

  it.each(VIEWPORTS)('fits $name with nothing clipped or covered', async ({ width, height }) => {
    const url = new URL(`${slug}/`, site.url).href;
    const { page, errors } = await openPage(browser, url, { viewport: { width, height } });
    await waitForFrames(page, 3);
    expect(await clipping(page)).toEqual([]);
    expect(await page.locator('.fixedtick-timing-graph-help').count()).toBe(1);
    expect(await overlaps(page)).toEqual([]);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('has a committed thumbnail that is what the page draws now', async () => {
    const { page, errors } = await openPage(browser, new URL(`${slug}/`, site.url).href, {
      viewport: { width: 1280, height: 720 },
      beforeLoad: (p) => thumbnailClock(p, thumbnailFrames),
    });
    const fresh = await captureThumbnail(page);
    const file = join(thumbnails, `${slug}.png`);
    if (UPDATE) {
      mkdirSync(thumbnails, { recursive: true });
      writeFileSync(file, fresh);
    }
    expect(existsSync(file), `${file} is missing: UPDATE_THUMBNAILS=1 npm run e2e -- gallery`).toBe(
      true,
    );
    const difference = await compareThumbnails(page, readFileSync(file), fresh);
    expect(
      difference.changed,
      `examples/public/thumbnails/${slug}.png is stale (${JSON.stringify(difference)}): UPDATE_THUMBNAILS=1 npm run e2e -- gallery`,
    ).toBeLessThanOrEqual(THUMBNAIL_TOLERANCE.changed);
    expect(difference.meanError).toBeLessThanOrEqual(THUMBNAIL_TOLERANCE.meanError);
    await page.close();
    expect(errors).toEqual([]);
  });
});

// After the per-page tests: with UPDATE_THUMBNAILS=1 they have just rewritten the files.
describe('the committed thumbnails', () => {
  it('are distinct: no two alike', async () => {
    const page = await browser.newPage();
    const shots = examples.map((e) => ({
      slug: e.slug,
      png: readFileSync(join(thumbnails, `${e.slug}.png`)),
    }));
    const alike: string[] = [];
    for (let i = 0; i < shots.length; i++) {
      for (let j = i + 1; j < shots.length; j++) {
        const d = await compareThumbnails(page, shots[i].png, shots[j].png);
        // Twice what a re-capture of one page may differ by.
        if (d.changed <= 2 * THUMBNAIL_TOLERANCE.changed) {
          alike.push(`${shots[i].slug} ~ ${shots[j].slug} (${JSON.stringify(d)})`);
        }
      }
    }
    await page.close();
    expect(alike).toEqual([]);
  });
});
