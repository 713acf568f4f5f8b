import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FixedLoop } from '@fixedtick/core';
import { InputRecording } from '@fixedtick/core/input';
import { type NodeScheduler, nodeDriver } from '@fixedtick/core/node';
import { describe, expect, it } from 'vitest';
import { inputScript, World } from '../../../examples/node-server/world.ts';

/** Virtual clock and timers (the driver's and the "network's"), run only when asked. */
class FakeTime implements NodeScheduler {
  now = 0;
  #timers: { id: number; due: number; fn: () => void }[] = [];
  #id = 0;
  readonly clock = (): number => this.now;
  setTimeout(fn: () => void, delayMs: number): unknown {
    this.#timers.push({ id: ++this.#id, due: this.now + Math.max(delayMs, 0), fn });
    return this.#id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }
  runUntil(t: number): void {
    for (;;) {
      this.#timers.sort((a, b) => a.due - b.due || a.id - b.id);
      const next = this.#timers[0];
      if (!next || next.due > t) break;
      this.#timers.shift();
      this.now = Math.max(this.now, next.due);
      next.fn();
    }
    this.now = t;
  }
}

describe('examples/node-server', () => {
  it('a 30 Hz authoritative world fed by timed messages: 300 ticks in 10 s, replays identically', () => {
    const time = new FakeTime();
    const loop = new FixedLoop({ tickRate: 30 });
    const world = new World(loop, 4);
    const recordings = world.inputs.map((latch) => {
      const rec = new InputRecording();
      rec.record(latch);
      return rec;
    });
    const script = inputScript(4, 10);
    loop.start(nodeDriver({ now: time.clock, scheduler: time }));
    for (const msg of script) {
      // Messages arrive 0.3 ms after a whole millisecond, between ticks, like network packets.
      time.setTimeout(() => {
        const latch = world.inputs[msg.player];
        if (msg.kind === 'press') latch.press(msg.key);
        else latch.release(msg.key);
      }, msg.atMs + 0.3);
    }
    time.runUntil(10_000);
    loop.stop();
    for (const rec of recordings) rec.stop();
    expect(loop.tick).toBe(300);
    // Every message was delivered to a tick: a press and a release per scripted pair.
    expect(recordings.reduce((n, r) => n + r.eventCount, 0)).toBe(script.length);
    const jumps = world.players.reduce((n, p) => n + p.jumps, 0);
    expect(jumps).toBeGreaterThan(0);

    const replayLoop = new FixedLoop({ tickRate: 30 });
    const replayWorld = new World(replayLoop, 4);
    recordings.forEach((rec, i) => {
      InputRecording.fromJSON(JSON.stringify(rec)).replay(replayWorld.inputs[i]);
    });
    while (replayLoop.tick < 300) replayLoop.advance(1 / 7);
    expect(replayWorld.checksum()).toBe(world.checksum());
    expect(replayWorld.players).toEqual(world.players);
  });

  it('`npm run server` runs and prints its tick statistics (short real run)', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'examples/node-server/main.ts', '--seconds', '1'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out).toMatch(/30 Hz authoritative tick for 1 s/);
    expect(out).toMatch(/ticks run\s+\d+/);
    expect(out).toMatch(/late ticks\s+\d+/);
    expect(out).toMatch(/lateness\s+median [\d.]+ ms, worst [\d.]+ ms/);
    expect(out).toMatch(/replay at 7 fps\s+[0-9a-f]{8} \(identical\)/);
    const ticks = Number(/ticks run\s+(\d+)/.exec(out)?.[1]);
    // Real time on a shared machine: a stalled process drops ticks through the clamps, so only
    // the bounds are checked here; the exact counts are checked under the fake clock above.
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(ticks).toBeLessThanOrEqual(32);
  });
});
