/**
 * `npm run server`: a headless authoritative simulation on Node. A 30 Hz fixed tick driven by
 * `nodeDriver` (deadlines on absolute time), players fed by scripted client messages that arrive
 * on Node timers at arbitrary moments and go through one `InputLatch` each, and tick statistics
 * printed every second. At the end the inputs, recorded with the tick they were delivered in,
 * are replayed into a fresh world without waiting, and the two worlds are compared bit for bit.
 *
 * Options: `--seconds N` (default 10), `--hz N` (default 30), `--players N` (default 4).
 */

import { InputRecording } from '../../packages/core/src/entries/input.ts';
import { nodeDriver } from '../../packages/core/src/entries/node.ts';
import { FixedLoop } from '../../packages/core/src/index.ts';
import { inputScript, World } from './world.ts';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `node-server: --${name} must be a number > 0, got ${process.argv[at + 1]}`,
    );
  }
  return value;
}

const seconds = arg('seconds', 10);
const hz = arg('hz', 30);
const playerCount = Math.round(arg('players', 4));

const loop = new FixedLoop({ tickRate: hz });
const world = new World(loop, playerCount);
const recordings = world.inputs.map((latch) => {
  const rec = new InputRecording();
  rec.record(latch);
  return rec;
});
const driver = nodeDriver();
const script = inputScript(playerCount, seconds);

const ms = (x: number): string => `${x.toFixed(2)} ms`;
const lateness: number[] = [];
loop.onFrameStart(() => {
  if (driver.stats.wakes > lateness.length) lateness.push(driver.stats.lastLatenessMs);
});

console.log(
  `node-server: ${playerCount} players, ${hz} Hz authoritative tick for ${seconds} s, ` +
    `${script.length} scripted input messages\n`,
);
const started = performance.now();
loop.start(driver);
// The "network": each message arrives on its own timer, whenever Node gets to it.
for (const msg of script) {
  setTimeout(() => {
    const latch = world.inputs[msg.player];
    if (msg.kind === 'press') latch.press(msg.key);
    else latch.release(msg.key);
  }, msg.atMs);
}
let reported = 0;
const report = setInterval(() => {
  const s = driver.stats;
  reported++;
  console.log(
    `t=${String(reported).padStart(3)} s  ticks ${String(loop.tick).padStart(5)}  ` +
      `late ${String(s.lateTicks).padStart(3)}  worst ${ms(s.worstLatenessMs)}  ` +
      `jumps ${world.players.reduce((n, p) => n + p.jumps, 0)}`,
  );
}, 1000);

setTimeout(
  () => {
    loop.stop();
    clearInterval(report);
    const elapsed = (performance.now() - started) / 1000;
    for (const rec of recordings) rec.stop();
    const s = driver.stats;
    const sorted = [...lateness].sort((x, y) => x - y);
    const median = sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
    const liveSum = world.checksum();

    // Replay: a fresh world, the recorded inputs, frames as fast as the CPU goes (no waiting).
    // No step cap: 1/7 s frames hold more than the default cap's 2/15 s, and a replay must run
    // every tick; the last frame is cut so the replay stops on the live tick.
    const replayLoop = new FixedLoop({ tickRate: hz, maxStepsPerFrame: Number.POSITIVE_INFINITY });
    const replayWorld = new World(replayLoop, playerCount);
    recordings.forEach((rec, i) => {
      InputRecording.fromJSON(JSON.stringify(rec)).replay(replayWorld.inputs[i]);
    });
    while (replayLoop.tick < loop.tick) {
      replayLoop.advance(Math.min(1 / 7, (loop.tick - replayLoop.tick) / hz));
    }
    const replaySum = replayWorld.checksum();

    console.log('\nsummary');
    console.log(`  wall time          ${elapsed.toFixed(3)} s`);
    console.log(
      `  ticks run          ${loop.tick} (expected ${Math.floor(elapsed * hz)} for the wall time)`,
    );
    console.log(`  late ticks         ${s.lateTicks} (woke > 1 ms after the deadline)`);
    console.log(`  lateness           median ${ms(median)}, worst ${ms(s.worstLatenessMs)}`);
    console.log(
      `  skipped deadlines  ${s.skippedDeadlines}, early timers re-armed ${s.earlyWakes}, clock anomalies ${s.clockAnomalies}`,
    );
    console.log(`  dropped time       ${loop.stats.droppedTime.toFixed(3)} s`);
    console.log(`  inputs delivered   ${recordings.reduce((n, r) => n + r.eventCount, 0)}`);
    console.log(`  world checksum     ${liveSum}`);
    console.log(
      `  replay at 7 fps    ${replaySum} ${replaySum === liveSum ? '(identical)' : '(DIFFERENT)'}`,
    );
    if (replaySum !== liveSum) process.exitCode = 1;
  },
  seconds * 1000 + 5,
);
