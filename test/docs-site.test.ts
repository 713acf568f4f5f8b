/**
 * The generated docs site (scripts/docs.ts, built here into a temporary folder): its favicon is
 * linked and shipped, so the browser logs no 404; the title carries the release; the header
 * links the examples and the repository; an adapter's module page lists its own symbols first
 * and the re-exported core ones after them, each linking to its core page. Opened in Chromium
 * at /docs/ as `npm start` serves it: no console error, no failed request.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveExamples } from '../examples/serve.ts';
import { buildDocs } from '../scripts/docs.ts';
import { launchChromium, openPage } from './e2e/harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'fixedtick-docs-'));
const html = (path: string) => readFileSync(join(out, path), 'utf8');
const version = (
  JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')) as {
    version: string;
  }
).version;

beforeAll(async () => {
  expect(await buildDocs(out)).toBe(0);
}, 180_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the docs site', () => {
  it('links and ships a favicon, names the release, links the examples and the repository', () => {
    const index = html('index.html');
    expect(index).toContain('<link rel="icon" href="assets/favicon.svg" type="image/svg+xml"/>');
    expect(existsSync(join(out, 'assets/favicon.svg'))).toBe(true);
    expect(index).toContain(`<title>Fixedtick ${version}`);
    const links = [...index.matchAll(/<a href="([^"]+)"[^>]*>(Examples|Repository)<\/a>/g)].map(
      (m) => [m[2], m[1]],
    );
    expect(links).toEqual(
      expect.arrayContaining([
        ['Examples', '/'],
        ['Repository', 'https://github.com/fixedtick/fixedtick'],
      ]),
    );
  });

  it.each([
    ['three', 'ThreeFixedLoop', /_fixedtick_core(_[a-z]+)?\./],
    ['babylon', 'BabylonFixedLoop', /_fixedtick_core(_[a-z]+)?\./],
    // the R3F bindings re-export the three.js adapter, which re-exports the core
    ['react-three', 'FixedTick', /_fixedtick_(core|three)(_[a-z]+)?\./],
  ])(
    '@fixedtick/%s: own symbols first, then the re-exported ones as links to theirs',
    (pkg, own, linked) => {
      const page = html(`modules/_fixedtick_${pkg}.html`);
      const groups = [...page.matchAll(/<h2 class="tsd-anchor-link" id="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(groups.at(-1)).toBe('references');
      expect(groups.length).toBeGreaterThan(1);
      const references = page.slice(page.indexOf('id="references"'));
      const ownPart = page.slice(0, page.indexOf('id="references"'));
      expect(ownPart).toContain(`>${own}<`);
      const targets = [...references.matchAll(/<span>\s→\s<\/span><a href="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(targets.length).toBeGreaterThan(20); // FixedLoop, presets, InputLatch, …
      for (const target of targets) expect(target).toMatch(linked);
      expect(targets).toContain('../classes/_fixedtick_core.FixedLoop.html');
    },
  );

  it('opens at /docs/ in Chromium with no console error and no failed request', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'fixedtick-no-examples-'));
    const [server, browser] = await Promise.all([
      serveExamples({ root: empty, docsRoot: out }),
      launchChromium(),
    ]);
    try {
      for (const path of ['docs/', 'docs/modules/_fixedtick_three.html']) {
        const { page, errors } = await openPage(browser, new URL(path, server.url).href);
        await page.waitForFunction(() => document.querySelector('.tsd-page-title') !== null);
        const icon = await page.request.get(new URL('docs/assets/favicon.svg', server.url).href);
        expect(icon.status()).toBe(200);
        await page.close();
        expect(errors).toEqual([]);
      }
    } finally {
      await browser.close();
      await server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
