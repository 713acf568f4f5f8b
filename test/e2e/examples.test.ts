/**
 * Every browser example (examples/catalog.ts) in real Chromium: it loads with no console error,
 * draws a non-blank canvas and keeps rendering frames. Adding an example to the catalog adds it
 * here.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { examples } from '../../examples/catalog.ts';
import {
  canvasPixels,
  type ExamplesSite,
  launchChromium,
  maybeScreenshot,
  openPage,
  readState,
  startExamples,
  waitForFrames,
} from './harness.ts';

// Software WebGL on a shared 2-core machine: generous limits; every wait is still a condition.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

let site: ExamplesSite;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([startExamples(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('examples index', () => {
  it('lists every example, serves a favicon and links the docs, with no console error', async () => {
    const { page, errors } = await openPage(browser, site.url);
    await page.waitForFunction(
      (n) => document.querySelectorAll('#examples a.title').length === n,
      examples.length,
    );
    const links = await page.$$eval('#examples a.title', (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    expect(links).toEqual(examples.map((e) => `./${e.slug}/`));
    const favicon = await page.request.get(new URL('favicon.svg', site.url).href);
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toBe('image/svg+xml');
    const docs = await page.request.get(new URL('docs/', site.url).href);
    expect(docs.status()).toBe(200);
    // "Start here" names the first page; its guides link opens the guides as served.
    expect(await page.locator('.start-here a[href="./three-jump/"]').count()).toBe(1);
    const guidesLink = page.locator('.links a', { hasText: 'Guides' });
    await Promise.all([page.waitForURL('**/guides/'), guidesLink.click()]);
    expect(await page.locator('h1').textContent()).toBe('Fixedtick guides');
    await Promise.all([
      page.waitForURL('**/guides/three.md'),
      page.locator('a[href="./three.md"]').click(),
    ]);
    expect(await page.locator('h2', { hasText: 'Getting started' }).count()).toBe(1);
    expect(await page.locator('code', { hasText: 'npm run pack' }).count()).toBeGreaterThan(0);
    await maybeScreenshot(page, 'index');
    await page.close();
    expect(errors).toEqual([]);
  });
});

describe('view source', () => {
  it.each(examples)(
    'lists the source of $slug as served, each file as plain text',
    async ({ slug }) => {
      const listing = await fetch(new URL(`source/${slug}/`, site.url));
      expect(listing.status).toBe(200);
      const html = await listing.text();
      expect(html).toContain('href="./index.html"');
      const file = /href="\.\/([\w.-]+\.(?:ts|tsx|js))"/.exec(html)?.[1];
      expect(file, html).toBeDefined();
      const source = await fetch(new URL(`source/${slug}/${file}`, site.url));
      expect(source.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await source.text()).toMatch(/@fixedtick\//);
    },
  );
});

describe.each(examples)('example $slug', ({ slug }) => {
  it('loads with no console error, draws a non-blank canvas and keeps rendering', async () => {
    const { page, errors } = await openPage(browser, new URL(`${slug}/`, site.url).href);
    await waitForFrames(page, 10);
    const first = await readState<{ frames: number; example: string }>(page);
    expect(first.example).toBe(slug);
    const pixels = await canvasPixels(page);
    expect(pixels.width).toBeGreaterThan(200);
    expect(pixels.distinctColors).toBeGreaterThanOrEqual(3);
    expect(pixels.coverage).toBeGreaterThan(0.005);
    await waitForFrames(page, first.frames + 10);
    await maybeScreenshot(page, slug);
    await page.close();
    expect(errors).toEqual([]);
  });
});
