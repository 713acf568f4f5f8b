/**
 * The node driver's real tick lateness: a 60 Hz `FixedLoop` on `nodeDriver()` with the real
 * clock and real Node timers for 10 s (`BENCH_NODE_DRIVER_SECONDS` to change), light work per
 * tick. Lateness is how long after its absolute deadline each wake ran, in ms. Run twice: with
 * the default `spinMs: 1` (timer, then `setImmediate` polling for the last millisecond) and with
 * timers only (`spinMs: 0`), each with the CPU time it used. The load average is printed because
 * on a shared machine the tail (p95, worst) measures the neighbours as much as the driver.
 *
 * Also, because the headless server's tick path includes it: heap bytes the `InputLatch`
 * allocates per frame in its steady state (a key pressed and released every few frames).
 */
import os from 'node:os';
import { InputLatch } from '../../packages/core/src/entries/input.ts';
import { nodeDriver } from '../../packages/core/src/entries/node.ts';
import { FixedLoop } from '../../packages/core/src/index.ts';
import { allocationPerCall } from '../lib.ts';

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

async function lateness(seconds: number, spinMs: number): Promise<Record<string, unknown>> {
  const loop = new FixedLoop({ tickRate: 60 });
  const driver = nodeDriver({ spinMs });
  const samples = new Float64Array(Math.ceil(seconds * 60) + 64);
  let n = 0;
  const state = new Float64Array(2);
  loop.onFixedUpdate((dt) => {
    state[1] -= 1800 * dt;
    state[0] += state[1] * dt;
    if (state[0] < 0) state.fill(0);
  });
  loop.onFrameStart(() => {
    if (driver.stats.wakes > n && n < samples.length) samples[n++] = driver.stats.lastLatenessMs;
  });
  const maxSteps = new Float64Array(1);
  loop.onPostRender(() => {
    if (loop.lastFrame.steps > maxSteps[0]) maxSteps[0] = loop.lastFrame.steps;
  });
  const started = performance.now();
  const cpu = process.cpuUsage();
  loop.start(driver);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  loop.stop();
  const used = process.cpuUsage(cpu);
  const elapsed = (performance.now() - started) / 1000;
  const sorted = samples.slice(0, n).sort();
  const s = driver.stats;
  return {
    spinMs,
    seconds: round(elapsed),
    cpuPercentOfOneCore: round(((used.user + used.system) / 1e6 / elapsed) * 100),
    tickRate: 60,
    ticks: loop.tick,
    expectedTicks: Math.floor(elapsed * 60),
    medianLatenessMs: round(percentile(sorted, 0.5)),
    p95LatenessMs: round(percentile(sorted, 0.95)),
    p99LatenessMs: round(percentile(sorted, 0.99)),
    worstLatenessMs: round(s.worstLatenessMs),
    lateTicksOver1Ms: s.lateTicks,
    lateTicksOver2Ms: Array.prototype.filter.call(sorted, (x: number) => x > 2).length,
    earlyTimersRearmed: s.earlyWakes,
    skippedDeadlines: s.skippedDeadlines,
    maxStepsInOneFrame: maxSteps[0],
    droppedSeconds: round(loop.stats.droppedTime),
  };
}

/** Heap bytes per frame of a 60 Hz loop at 144 fps, with or without a busy `InputLatch`. */
function framesAllocation(withLatch: boolean): number {
  const loop = new FixedLoop({ tickRate: 60 });
  const input = withLatch ? new InputLatch(loop) : undefined;
  const sink = new Float64Array(1);
  loop.onFixedUpdate(() => {
    if (input === undefined) return;
    if (input.pressed('Space')) sink[0]++;
    if (input.held('ArrowRight')) sink[0] += 0.5;
    if (input.released('Space')) sink[0]--;
  });
  loop.onUpdate(() => {
    if (input?.pressedThisFrame('Escape')) sink[0]++;
  });
  const result = allocationPerCall((i) => {
    if (input !== undefined) {
      const phase = i % 8;
      if (phase === 0) input.press('Space');
      if (phase === 1) input.release('Space');
      if (phase === 2) input.press('ArrowRight');
      if (phase === 5) input.release('ArrowRight');
      if (phase === 3) input.move(i % 800, i % 600);
    }
    loop.advance(1 / 144);
  }, 200_000);
  return result.bytesPerCall;
}

/**
 * The latch's own allocation is the difference between a loop with a busy latch (a key pressed
 * or released every other frame, the pointer moving) and the same loop without one.
 */
function latchAllocation(): Record<string, unknown> {
  const loopOnly = framesAllocation(false);
  const withLatch = framesAllocation(true);
  return {
    loopOnlyBytesPerFrame: round(loopOnly),
    withLatchBytesPerFrame: round(withLatch),
    latchBytesPerFrame: round(Math.max(0, withLatch - loopOnly)),
    frames: 200_000,
  };
}

export default async function nodeDriverSuite(): Promise<Record<string, unknown>> {
  const seconds = Number(process.env.BENCH_NODE_DRIVER_SECONDS ?? 10);
  return {
    lateness60Hz: await lateness(seconds, 1),
    lateness60HzTimersOnly: await lateness(seconds, 0),
    loadAverage1m: round(os.loadavg()[0]),
    inputLatchAllocation: latchAllocation(),
  };
}
