/**
 * The timing graph in real Chromium: a self-contained page (the debug entry bundled from source
 * with Vite's build API, served from a temp dir over node:http) drives a FixedLoop, first with synthetic
 * timestamps (144 Hz display, 60 Hz physics, one long frame, one bad timestamp), then live from
 * requestAnimationFrame. Asserts pixels change between frames and dispose removes the canvas.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './harness.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const shotDir = join(root, 'test-results');

const PAGE_SCRIPT = `
import { FixedLoop } from ${JSON.stringify(join(root, 'packages/core/src/index.ts'))};
import { createTimingGraph } from ${JSON.stringify(join(root, 'packages/core/src/entries/debug.ts'))};

const loop = new FixedLoop({ tickRate: 60, maxDeltaTime: 0.1 });
const graph = createTimingGraph(loop, { toggleKey: 'g' });
let t = 1000;
/** Runs n synthetic frames of ms each through frame(timestampMs), as a display would. */
function frames(n, ms) { for (let i = 0; i < n; i++) { t += ms; loop.frame(t); } }
/** Reads the canvas back: a cheap fingerprint of its pixels. */
function pixels() {
  const c = graph.canvas;
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let hash = 2166136261, lit = 0;
  for (let i = 0; i < data.length; i++) { hash = Math.imul(hash ^ data[i], 16777619) >>> 0; }
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) lit++;
  return { hash, lit, width: c.width, height: c.height };
}
/**
 * A second loop whose work is timed on a clock the page drives: 2 ms per fixed step and 1 ms of
 * render, drawn by a graph with the main-thread mark. Runs n frames of ms each, then disposes it.
 */
function mainThread(n, ms) {
  let clockMs = 0;
  const busy = new FixedLoop({ tickRate: 60 });
  busy.onFixedUpdate(() => { clockMs += 2; });
  busy.onPreRender(() => { clockMs += 1; });
  const g = createTimingGraph(busy, { mainThread: true, now: () => clockMs, position: 'top-right', help: false });
  let time = 0;
  for (let i = 0; i < n; i++) { time += ms; busy.frame(time); }
  const recorded = [];
  for (let age = 5; age >= 0; age--) {
    const i = g.history.indexOf(age);
    recorded.push({ steps: g.history.steps[i], mainThreadMs: g.history.mainThreadMs[i] });
  }
  const lit = g.canvas.getContext('2d').getImageData(0, 0, g.canvas.width, g.canvas.height).data
    .some((v, k) => k % 4 === 1 && v === 0xea);
  g.dispose();
  return { recorded, mean: g.history.rates.mainThreadMs, lit };
}
window.__fixedtick = { loop, graph, frames, pixels, mainThread,
  inDom: () => document.querySelectorAll('canvas.fixedtick-timing-graph').length };
`;

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>timing graph</title>
<link rel="icon" href="data:,"><style>body{margin:0;background:#1e293b}</style></head>
<body><script type="module" src="/page.js"></script></body></html>`;

let dir: string;
let server: Server;
let browser: Browser;
let page: Page;
let url: string;
const consoleErrors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fixedtick-graph-'));
  writeFileSync(join(dir, 'entry.js'), PAGE_SCRIPT);
  await build({
    configFile: false,
    logLevel: 'silent',
    root: dir,
    build: {
      outDir: dir,
      emptyOutDir: false,
      minify: false,
      target: 'es2022',
      lib: { entry: join(dir, 'entry.js'), formats: ['es'], fileName: () => 'page.js' },
    },
  });
  writeFileSync(join(dir, 'index.html'), HTML);
  server = createServer((req, res) => {
    const file = req.url === '/page.js' ? 'page.js' : req.url === '/' ? 'index.html' : undefined;
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html',
    });
    res.end(readFileSync(join(dir, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 360, height: 150 }, deviceScaleFactor: 2 });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(
    () => 'loop' in ((window as { __fixedtick?: object }).__fixedtick ?? {}),
  );
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Pixels = { hash: number; lit: number; width: number; height: number };
type PageApi = {
  loop: { frameCount: number; tick: number; frame(ms: number): void; start(): void; stop(): void };
  graph: {
    visible: boolean;
    dispose(): void;
    canvas: HTMLCanvasElement;
    history: { ratesVersion: number };
  };
  frames(n: number, ms: number): void;
  pixels(): Pixels;
  mainThread(
    n: number,
    ms: number,
  ): { recorded: { steps: number; mainThreadMs: number }[]; mean: number; lit: boolean };
  inDom(): number;
};
/** Runs `fn` in the page with the page's `window.__fixedtick`. */
const run = <T>(fn: (w: PageApi) => T): Promise<T> =>
  page.evaluate(`(${fn.toString()})(window.__fixedtick)`) as Promise<T>;

describe('timing graph in Chromium', () => {
  it('draws frames as they run: the pixels change from one frame to the next', async () => {
    const before = await run((w) => w.pixels());
    expect(before.width).toBeGreaterThanOrEqual(300);
    const after = await run((w) => {
      // 144 Hz display on 60 Hz physics, then a 250 ms hitch (clamped to 100 ms), then a NaN.
      w.frames(60, 1000 / 144);
      w.frames(1, 250);
      w.frames(20, 1000 / 144);
      w.loop.frame(Number.NaN);
      w.frames(20, 1000 / 144);
      const a = w.pixels();
      w.frames(1, 1000 / 144);
      return { a, b: w.pixels(), ticks: w.loop.tick };
    });
    expect(after.a.hash).not.toBe(before.hash);
    expect(after.b.hash).not.toBe(after.a.hash);
    expect(after.a.lit).toBeGreaterThan(0);
    expect(after.ticks).toBeGreaterThan(40);
    mkdirSync(shotDir, { recursive: true });
    await page.screenshot({ path: join(shotDir, 'timing-graph-synthetic.png') });
  });

  it('follows a live requestAnimationFrame loop', async () => {
    const start = await run((w) => {
      w.loop.start();
      return w.loop.frameCount;
    });
    await page.waitForFunction(
      (n) => (window as unknown as { __fixedtick: PageApi }).__fixedtick.loop.frameCount >= n + 3,
      start,
    );
    const a = await run((w) => w.pixels());
    const seen = await run((w) => w.loop.frameCount);
    await page.waitForFunction(
      (n) => (window as unknown as { __fixedtick: PageApi }).__fixedtick.loop.frameCount >= n + 2,
      seen,
    );
    const b = await run((w) => w.pixels());
    expect(b.hash).not.toBe(a.hash);
    await page.screenshot({ path: join(shotDir, 'timing-graph-live.png') });
  });

  it('allocates nothing per frame once warm (V8 sampling heap profiler, 20 000 frames)', async () => {
    await run((w) => {
      w.loop.stop();
      w.frames(20_000, 1000 / 144); // warm up: let V8 optimise the draw path
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.startSampling', {
      samplingInterval: 16,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const FRAMES = 20_000;
    await page.evaluate(`window.__fixedtick.frames(${FRAMES}, 1000 / 144)`);
    const { profile } = await cdp.send('HeapProfiler.getSamplingProfile');
    await cdp.send('HeapProfiler.stopSampling');
    await cdp.detach();
    type Node = { callFrame: { functionName: string }; selfSize: number; children: Node[] };
    const bytes = new Map<string, number>();
    const walk = (node: Node): void => {
      const name = node.callFrame.functionName;
      bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child);
    };
    walk(profile.head as Node);
    // The per-frame path of the graph: the listener, recording, scaling and drawing the bars.
    const perFrame = ['onFrame', 'record', 'heightOf', 'draw'].reduce(
      (sum, name) => sum + (bytes.get(name) ?? 0),
      0,
    );
    expect(perFrame / FRAMES).toBeLessThan(1);
    // The text line is rebuilt 4 times a second (a few strings), not per frame.
    expect((bytes.get('drawText') ?? 0) / FRAMES).toBeLessThan(32);
  }, 120_000);

  it('with mainThread, measures each frame from its start to its render on the given clock', async () => {
    // 144 Hz display on 60 Hz physics: frames of 0 and 1 step, 1 ms and 3 ms of work
    const measured = await run((w) => w.mainThread(72, 1000 / 144));
    for (const { steps, mainThreadMs } of measured.recorded) {
      expect(mainThreadMs).toBe(2 * steps + 1);
    }
    // 60 steps a second over 144 frames: 1 + 2 × 60 / 144 ms a frame on average
    expect(measured.mean).toBeCloseTo(1 + (2 * 60) / 144, 1);
    // the cyan mark (#5eead4: green 0xea) is drawn
    expect(measured.lit).toBe(true);
  });

  it('hides and shows with its toggle key', async () => {
    await page.keyboard.press('g');
    expect(await run((w) => w.graph.visible)).toBe(false);
    expect(await run((w) => getComputedStyle(w.graph.canvas).display)).toBe('none');
    await page.keyboard.press('G');
    expect(await run((w) => w.graph.visible)).toBe(true);
  });

  it('dispose removes the canvas, unsubscribes from the loop and stops drawing', async () => {
    expect(await run((w) => w.inDom())).toBe(1);
    await run((w) => w.graph.dispose());
    expect(await run((w) => w.inDom())).toBe(0);
    const frozen = await run((w) => {
      w.loop.stop();
      const p = w.pixels();
      const version = w.graph.history.ratesVersion;
      w.frames(288, 1000 / 144); // 2 s: 8 rate periods, had it still been listening
      return { p, q: w.pixels(), version, after: w.graph.history.ratesVersion };
    });
    expect(frozen.q.hash).toBe(frozen.p.hash);
    expect(frozen.after).toBe(frozen.version);
    expect(consoleErrors).toEqual([]);
  });
});
