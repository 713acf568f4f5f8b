/**
 * The multiplayer example end to end (docs/multiplayer.md): the Colyseus server (attached to the
 * examples' own server, in this process) and two Chromium clients connected through a loopback
 * proxy that adds 80 ± 20 ms of latency and 2 % loss, as TCP shows loss (lossy-proxy.ts: a lost
 * segment arrives a retransmission timeout later and holds up what follows it). Each client
 * holds its keys steadily, so both players drive in circles, for a 20 s run measured by the
 * server against its own clock. Asserted:
 * - each client draws the other player with no repeated or skipped pose between snapshots at a
 *   simulated 144 Hz display, each one the two snapshots' interpolation at the render tick;
 * - each client's predicted player matches the server's state for the same tick within 1e-6
 *   every time that state arrives (after each correction);
 * - the server ran exactly 60 × seconds ticks (±1).
 * Every wait is a condition: a page's published numbers, or the server's own ticks.
 */
import { matchMaker } from '@colyseus/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArenaRoom } from '../../examples/multiplayer/server.ts';
import { type ExamplesSite, launchChromium, openPage, startExamples } from './harness.ts';
import { type LossyProxy, startLossyProxy } from './lossy-proxy.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

/** The run the server is measured over (s). */
const RUN_SECONDS = 20;

let site: ExamplesSite;
let browser: Browser;
let proxy: LossyProxy;

beforeAll(async () => {
  site = await startExamples(['multiplayer']);
  browser = await launchChromium();
  const port = Number(new URL(site.url).port);
  proxy = await startLossyProxy(port, { latencyMs: 80, jitterMs: 20, loss: 0.02 });
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await site?.close();
});

/** What the test reads of a page (examples/multiplayer/main.ts and checks.ts publish it). */
interface Result {
  other: Record<string, number>;
  errors: { compared: number; maxError: number; over: number };
  drawn: Record<string, number>;
  clock: Record<string, number>;
  prediction: Record<string, number>;
}

/** Reads `expression` of the page's published numbers (`p`). */
const read = <T>(page: Page, expression: string): Promise<T> =>
  page.evaluate(`(() => { const p = window.__fixedtick; return ${expression}; })()`) as Promise<T>;

/** Waits until `condition` of the page's published numbers (`p`) holds. */
async function until(page: Page, condition: string): Promise<void> {
  await page.waitForFunction(
    `(() => { const p = window.__fixedtick; return p !== undefined && (${condition}); })()`,
    undefined,
    { timeout: 120_000, polling: 250 },
  );
}

/**
 * The server's ticks over `seconds` of its own clock: sampled after a frame's steps (the ticks
 * due by then have run, however late the process woke), from the first frame on.
 */
function serverRun(room: ArenaRoom, seconds: number): Promise<{ ticks: number; elapsed: number }> {
  return new Promise((resolve) => {
    let first: { tick: number; ms: number } | undefined;
    const stop = room.loop.onUpdate(() => {
      const now = { tick: room.loop.tick, ms: performance.now() };
      first ??= now;
      if (now.ms - first.ms < seconds * 1000) return;
      stop();
      resolve({ ticks: now.tick - first.tick, elapsed: (now.ms - first.ms) / 1000 });
    });
  });
}

describe('the multiplayer example over a lossy link', () => {
  it('draws the other player smoothly, predicts its own exactly, and ticks 60 times a second', async () => {
    const url = `${site.url}multiplayer/?display=144&server=ws://127.0.0.1:${proxy.port}`;
    const pages: Page[] = [];
    const errors: string[][] = [];
    for (const keys of [
      ['ArrowUp', 'ArrowRight'],
      ['ArrowUp', 'ArrowLeft'],
    ]) {
      // a small view: two software-rendered pages on a shared machine
      const opened = await openPage(browser, url, { viewport: { width: 640, height: 400 } });
      pages.push(opened.page);
      errors.push(opened.errors);
      await until(opened.page, 'p.connected && p.predicting()');
      // steady inputs from here on: each player drives in a circle
      for (const key of keys) await opened.page.keyboard.down(key);
    }
    const [a, b] = pages;
    const roomId = await read<string>(a, 'p.roomId');
    expect(await read<string>(b, 'p.roomId')).toBe(roomId);
    const room = matchMaker.getLocalRoomById(roomId) as ArenaRoom;
    // warm-up: both see the other and have been corrected since their keys went down
    for (const page of pages) {
      await until(page, 'p.other.key !== undefined && p.prediction().reconciles > 240');
      await read(page, 'p.resetChecks()');
    }
    const run = await serverRun(room, RUN_SECONDS);
    const results = await Promise.all(
      pages.map((page) =>
        read<Result>(
          page,
          '({ other: { ...p.other }, errors: { ...p.predictionErrors }, drawn: p.drawn(), clock: p.clock(), prediction: p.prediction() })',
        ),
      ),
    );
    console.log(JSON.stringify({ run, retransmissions: proxy.retransmissions, results }));
    // the server: 60 ticks per second of its own clock, none dropped or added
    expect(run.elapsed).toBeGreaterThanOrEqual(RUN_SECONDS);
    expect(Math.abs(run.ticks - 60 * run.elapsed)).toBeLessThanOrEqual(1);
    expect(proxy.retransmissions).toBeGreaterThan(0); // the loss was there
    for (const { other, errors: prediction } of results) {
      // at 144 Hz for 20 s: thousands of frames, most of them between snapshots (the others
      // past the newest: extrapolated while a resent segment holds the stream up), and every
      // one between snapshots a new pose
      expect(other.frames).toBeGreaterThan(1000);
      expect(other.interpolated).toBeGreaterThan(0.5 * other.frames);
      expect(other.repeated).toBe(0);
      expect(other.skipped).toBe(0);
      expect(other.snapFrames).toBeLessThanOrEqual(2); // the clock corrected a stall at once
      expect(other.repeatedPoses).toBe(0);
      expect(other.mismatched).toBe(0);
      // steady input: every prediction the server's state for its tick within 1e-6
      expect(prediction.compared).toBeGreaterThan(600);
      expect(prediction.maxError).toBeLessThanOrEqual(1e-6);
    }
    for (const page of pages) await page.close();
    expect(errors).toEqual([[], []]);
  });
});
