/**
 * The import-map page (examples/importmap/): no bundler, `three` and `@fixedtick/*` resolved by
 * the page's import map to the built ES modules. It runs in Chromium (the loop ticks, the cube
 * moves, the timing graph is there, no console error, every module comes from the mapped
 * files), and docs/three.md shows the same map as it works today (the files `npm start` serves)
 * and with the CDN addresses for after publishing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { docSnippet } from '../support/doc-snippets.ts';
import { pinned } from '../support/packages.ts';
import { readState, useExample, waitForFrames } from './harness.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

const root = fileURLToPath(new URL('../../', import.meta.url));
const CDN = 'https://cdn.jsdelivr.net/npm/';

/** The `imports` of the first `<script type="importmap">` in `html`. */
function importMap(html: string): Record<string, string> {
  const json = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error('no import map');
  return (JSON.parse(json) as { imports: Record<string, string> }).imports;
}

const page = importMap(readFileSync(`${root}examples/importmap/index.html`, 'utf8'));
const docs = importMap(docSnippet('three.md', 'importmap.html'));

describe('the import map of docs/three.md', () => {
  it('is the page map with CDN addresses of the versions the repository ships', () => {
    const version = (pkg: string) =>
      (
        JSON.parse(readFileSync(`${root}packages/${pkg}/package.json`, 'utf8')) as {
          version: string;
        }
      ).version;
    const local = Object.fromEntries(
      Object.entries(docs).map(([name, url]) => [
        name,
        url
          .replace(`${CDN}three@${pinned('three')}/`, '/lib/three/')
          .replace(`${CDN}@fixedtick/core@${version('core')}/`, '/lib/@fixedtick/core/')
          .replace(`${CDN}@fixedtick/three@${version('three')}/`, '/lib/@fixedtick/three/'),
      ]),
    );
    expect(local).toEqual(page);
  });

  it('is, in its form for today, exactly the map of the page `npm start` serves', () => {
    expect(importMap(docSnippet('three.md', 'importmap-local.html'))).toEqual(page);
  });
});

describe('examples/importmap in Chromium', () => {
  const requested: string[] = [];
  const session = useExample('importmap', 10, async (p) => {
    p.on('request', (request) => {
      if (request.resourceType() === 'script') requested.push(new URL(request.url()).pathname);
    });
  });

  it('ticks and moves the cube through the mapped modules, with the graph and no error', async () => {
    const first = await readState<{ ticks: number; x: number; frames: number }>(session.page);
    await waitForFrames(session.page, first.frames + 20);
    const later = await readState<{ ticks: number; x: number }>(session.page);
    expect(later.ticks).toBeGreaterThan(first.ticks);
    expect(later.x).not.toBe(first.x);
    expect(Math.abs(later.x)).toBeLessThanOrEqual(2.5);
    expect(await session.page.locator('canvas.fixedtick-timing-graph').count()).toBe(1);
    // Reloaded with the listener on: every module is a mapped dist file or the page's own.
    await session.page.reload({ waitUntil: 'load' });
    await waitForFrames(session.page, 3);
    expect(requested.length).toBeGreaterThan(3);
    for (const path of requested) expect(path).toMatch(/^\/(lib\/|importmap\/main\.js$)/);
    for (const url of Object.values(page)) expect(requested).toContain(url);
    expect(session.opened.errors).toEqual([]);
  });
});
