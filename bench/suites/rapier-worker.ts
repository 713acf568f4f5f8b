/**
 * What physics in a worker saves the main thread: `WorkerPhysics` (Rapier stepped in a
 * `worker_threads` worker, poses over a SharedArrayBuffer, drawn through the loop's PoseStream)
 * next to `RapierPhysics` (Rapier stepped on the main thread), at 1 000, 5 000 and 10 000 bodies
 * of bench/rapier/worlds.ts's tumbling pile, 60 Hz ticks, 144 fps frames, real Rapier WASM.
 *
 * - **Timing** (interleaved frame by frame, so machine load hits both alike): the main thread's
 *   milliseconds per display frame in each mode — main-thread mode's whole `loop.advance`
 *   (Rapier's step included), worker mode's whole `loop.advance` (reading the ring, feeding the
 *   stream, drawing every mesh, writing the step). Before each worker-mode frame the bench waits
 *   (untimed) for the worker to publish the ticks sent so far, so each frame takes the frames a
 *   worker that keeps up would hand it. Per round (one simulated second) the robust cost of each
 *   side (per kind of frame, with or without a step, the median × that kind's count, as in
 *   bench/suites/rapier.ts) and `ratio` = worker mode / main-thread mode, min / median / max over
 *   the measured rounds. Budget at 5 000 bodies: ≤ 0.1.
 * - **Allocation**: young-generation bytes per frame of worker mode's main thread (see
 *   `allocation` below). Budget: 0.
 * - **Latency**: worker mode alone at the real pace (a frame every 1/144 s of the real clock):
 *   after each frame, how many ticks the newest published frame is behind the loop, and how many
 *   frames had to hold (the render tick, two steps behind the loop, was past the newest frame:
 *   the picture later than the latency model). Main-thread mode draws one step behind the loop,
 *   worker mode two: one tick more, by design.
 *
 * Each body count runs in child processes of its own: `node --expose-gc --max-semi-space-size=512
 * --import tsx bench/suites/rapier-worker.ts timing 5000` (or `allocation`, with
 * `--min-semi-space-size=512` as well). `BENCH_RAPIER_WORKER_BODIES=1000,5000` picks the counts.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import RAPIER from '@dimforge/rapier3d-compat';
import { Object3D } from 'three';
import { WorkerPhysics } from '../../packages/three/src/entries/rapier.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';
import {
  addFrameCost,
  allocationWithoutGc,
  type FrameCosts,
  inChildProcess,
  median,
  robustCost,
  round,
  spread,
} from '../lib.ts';
import { bindingSide, TICK_RATE } from '../rapier/sides.ts';
import { tumblingPile } from '../rapier/worlds.ts';

const FPS = 144;
/** Simulated seconds (rounds) of the timing; the first is warm-up. */
const SECONDS = 5;
/** Real seconds of the latency run. */
const LATENCY_SECONDS = 3;

function timed(loop: ThreeFixedLoop, costs: FrameCosts): void {
  const t0 = performance.now();
  const steps = loop.advance(1 / FPS).steps;
  addFrameCost(costs, steps, performance.now() - t0);
}

/** Worker mode: a loop, the pile in a worker, an Object3D bound to each body. */
async function workerMode(count: number) {
  const loop = new ThreeFixedLoop({ tickRate: TICK_RATE });
  // a worker does not inherit the loader hooks of `--import tsx`: it registers tsx itself
  const module = new URL('../rapier/pile-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); });`;
  const worker = new Worker(boot, { eval: true, workerData: { count } });
  // the bench paces the worker itself; a slow machine is not a hung worker
  const physics = new WorkerPhysics(loop, worker, { hangTicks: 1e9 });
  for (let id = 0; id < count; id++) physics.bind(id, new Object3D());
  await physics.ready;
  return { loop, physics };
}

/**
 * Young-generation bytes per frame of worker mode's main thread: windows of 1 440 frames (10 s)
 * after 1 500 warm-up frames, the worker stepping alongside and caught up before each window
 * (a window runs faster than the real pace; the step ring holds what the worker is behind); the
 * least of three. A window's total within 4 kB is the measurement's bookkeeping.
 */
async function allocation(count: number) {
  const { loop, physics } = await workerMode(count);
  for (let f = 0; f < 1500; f++) {
    loop.advance(1 / FPS);
    if (physics.newestTick < loop.tick) await physics.synced();
  }
  const windows: number[] = [];
  let discarded = 0;
  for (let w = 0; w < 3; w++) {
    await physics.synced();
    const window = await allocationWithoutGc(
      () => {
        loop.advance(1 / FPS);
      },
      10 * FPS,
      1,
    );
    discarded += window.discarded;
    if (!Number.isNaN(window.totalBytes)) windows.push(window.bytesPerCall);
  }
  physics.dispose();
  return {
    workerModeBytesPerFrame: windows.length === 0 ? null : round(Math.min(...windows), 1),
    allocationWindows: windows.map((b) => round(b, 1)),
    allocationWindowsDiscardedForGc: discarded,
  };
}

async function timing(count: number) {
  await RAPIER.init();
  const pile = tumblingPile(count);
  const main = bindingSide(pile.world, pile.bodies);
  const mainLoop = main.loop as ThreeFixedLoop;
  const { loop, physics } = await workerMode(count);
  const rounds = [];
  const behindAtFrameStart: number[] = [];
  for (let second = 0; second < SECONDS; second++) {
    const a: FrameCosts = new Map();
    const b: FrameCosts = new Map();
    for (let f = 0; f < FPS; f++) {
      timed(mainLoop, a);
      behindAtFrameStart.push(loop.tick - physics.newestTick);
      if (physics.newestTick < loop.tick) await physics.synced();
      timed(loop, b);
    }
    const mainMs = robustCost(a);
    const workerMs = robustCost(b);
    rounds.push({
      second,
      ratio: round(workerMs / mainMs, 4),
      mainThreadModeMsPerFrame: round(mainMs / FPS),
      workerModeMsPerFrame: round(workerMs / FPS),
    });
  }
  const measured = rounds.slice(1);

  // latency at the real pace, from a worker caught up
  await physics.synced();
  const behind: number[] = [];
  let held = 0;
  let frames = 0;
  const start = performance.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  while (frames < LATENCY_SECONDS * FPS) {
    await sleep(start + ((frames + 1) * 1000) / FPS - performance.now());
    loop.advance(1 / FPS);
    frames++;
    behind.push(loop.tick - physics.newestTick);
    if (loop.tick + loop.alpha - 2 > physics.newestTick) held++;
    // let the worker's messages in (none are expected: errors only)
    if (frames % FPS === 0) await sleep(0);
  }
  physics.dispose();
  return {
    bodies: count,
    ratio: spread(
      measured.map((r) => r.ratio),
      4,
    ),
    mainThreadModeMsPerFrame: median(measured.map((r) => r.mainThreadModeMsPerFrame)),
    workerModeMsPerFrame: median(measured.map((r) => r.workerModeMsPerFrame)),
    interleavedTicksBehindAtFrameStart: spread(behindAtFrameStart, 0),
    realPace: {
      ticksBehindAfterFrame: spread(behind, 0),
      framesHeld: held,
      frames,
    },
    rounds,
  };
}

const MEASURES = { timing, allocation };
type MeasureName = keyof typeof MEASURES;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, count] = process.argv.slice(2) as [MeasureName, string];
  process.stdout.write(JSON.stringify(await MEASURES[what](Number(count))));
  process.exit(0);
}

export default function rapierWorker(): Record<string, unknown> {
  const sizes = (process.env.BENCH_RAPIER_WORKER_BODIES ?? '1000,5000,10000')
    .split(',')
    .map(Number);
  // each body count in fresh Node processes of its own
  const file = fileURLToPath(import.meta.url);
  const results = sizes.map((bodies) => ({
    ...(inChildProcess(file, 'timing', bodies) as Awaited<ReturnType<typeof timing>>),
    ...(inChildProcess(file, 'allocation', bodies) as Awaited<ReturnType<typeof allocation>>),
  }));
  const at5000 = results.find((r) => r.bodies === 5000);
  return {
    scenario: `tumbling pile of boxes and spheres, ${TICK_RATE} Hz ticks, ${FPS} fps frames, real Rapier WASM, worker over SharedArrayBuffer`,
    budgetRatioAt5000: 0.1,
    withinBudget:
      at5000 === undefined
        ? null
        : at5000.ratio.median <= 0.1 && results.every((r) => r.workerModeBytesPerFrame === 0),
    latencyModel:
      'drawn two steps behind the loop (main-thread mode: one): one tick more than main-thread mode',
    results,
  };
}
