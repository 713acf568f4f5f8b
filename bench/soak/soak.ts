/**
 * `npm run soak`: the loop under a long, hostile run. Not a test (it takes minutes); prints one
 * JSON object and exits non-zero if a check fails.
 *
 * 10 million frames of jittered 144 fps (±0.5 ms around vsync, integer-microsecond timestamps
 * fed through `loop.frame`) drive `ThreeFixedLoop`s at 60 Hz, each with 1 000 tracked three.js
 * objects that move every step, with random teleports (poses written outside the step), mode
 * changes and untrack/track churn. Every 100 000 frames an anomaly is injected: a NaN timestamp,
 * a clock that jumps back an hour, a 400 ms hitch, a page hidden for 10 minutes.
 *
 * The frames run in `--shards` loops (default 2, one per core of the 2-core reference machine,
 * each in its own worker thread with its own seed: 2 × 5 M frames, about 9.6 game hours each):
 * one loop costs ~63 µs of CPU per frame with 1 000 tracked objects (measured: 627 CPU-seconds
 * for the 10 M frames), so a single 10 M-frame loop would need over 10 minutes on one core.
 * `--shards 1` runs all frames in one loop.
 *
 * Checks:
 * - **drift**: an integer model of the loop (time in 1/60 µs units, so a 60 Hz step is exactly
 *   10⁶ units, with the same clamp and step cap) predicts the tick count; `loop.tick` must equal
 *   it exactly after 10 million frames (about 19 hours of game time).
 * - **heap**: `heapUsed` after a forced GC, sampled every million frames after warm-up, must not
 *   grow (growth under 1 MiB, which is noise, not a per-frame leak: 1 byte per frame would be
 *   10 MB).
 * - **anomalies**: every injected anomaly is counted once in `stats.anomalies`; nothing becomes
 *   NaN; alpha stays within [0, 1] every frame.
 *
 * Flags: `--frames N` (total, default 10 000 000), `--bodies N` (per loop, default 1 000),
 * `--shards N` (default 2), `--seed N`.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ThreeFixedLoop } from '@fixedtick/three';
import { Group } from 'three';
import { mulberry32 } from '../../test/support/random.ts';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`soak: --${name} needs a number`);
  return value;
}

interface ShardConfig {
  frames: number;
  bodies: number;
  seed: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** One loop's soak; returns its report. */
function runShard({ frames: FRAMES, bodies: BODIES, seed: SEED }: ShardConfig) {
  const HEAP_SAMPLE_EVERY = Math.max(1, Math.floor(FRAMES / 10));
  const WARMUP = Math.min(200_000, Math.floor(FRAMES / 20));
  const ANOMALY_EVERY = 100_000;

  // ---- the scene ---------------------------------------------------------------------------

  const random = mulberry32(SEED);
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const MODES = ['interpolate', 'none', 'extrapolate'] as const;
  const bodies: Group[] = [];
  const velocity = new Float64Array(BODIES);
  for (let i = 0; i < BODIES; i++) {
    const g = new Group();
    g.position.set(i, 0, 0);
    velocity[i] = random() * 20 - 10;
    bodies.push(g);
    loop.track(g, { interpolation: MODES[i % 3] });
  }
  loop.onFixedUpdate((dt) => {
    for (let i = 0; i < BODIES; i++) {
      const p = bodies[i].position;
      p.x += velocity[i] * dt;
      if (p.x > 1000 || p.x < -1000) velocity[i] = -velocity[i];
    }
  });
  let anomaliesSeen = 0;
  loop.onAnomaly(() => {
    anomaliesSeen++;
  });
  let errors = 0;
  loop.onError((error) => {
    errors++;
    if (errors <= 3) process.stderr.write(`soak: listener error ${String(error)}\n`);
  });

  // ---- the integer model (1 unit = 1/60 µs: a 60 Hz step is exactly 1e6 units) ------------

  const STEP_UNITS = 1_000_000;
  const CLAMP_UNITS = 0.25 * 60e6; // maxDeltaTime 0.25 s
  const CAP = 8; // maxStepsPerFrame
  let modelAcc = 0;
  let modelTicks = 0;
  function modelFrame(microseconds: number): void {
    modelAcc += Math.min(microseconds * 60, CLAMP_UNITS);
    const due = Math.floor(modelAcc / STEP_UNITS);
    modelAcc -= due * STEP_UNITS;
    modelTicks += Math.min(due, CAP);
  }

  // ---- the run -----------------------------------------------------------------------------

  const injected = { nan: 0, backwards: 0, hitch: 0, hidden: 0 };
  let teleports = 0;
  let churn = 0;
  let badAlpha = 0;
  const heapSamples: number[] = [];
  let clockUs = 1_000_000_000; // a performance.now() some 17 minutes after page load
  let vsyncUs = clockUs;
  const started = performance.now();
  loop.frame(clockUs / 1000);

  for (let f = 1; f <= FRAMES; f++) {
    if (f % ANOMALY_EVERY === 0) {
      const kind = (f / ANOMALY_EVERY) % 4;
      if (kind === 0) {
        injected.nan++;
        loop.frame(Number.NaN); // no time, origin unchanged
      } else if (kind === 1) {
        injected.backwards++;
        vsyncUs -= 3_600_000_000; // the clock jumps back an hour: a new origin, no time
        clockUs = vsyncUs;
        loop.frame(clockUs / 1000);
      } else if (kind === 2) {
        injected.hitch++;
        vsyncUs += 400_000; // a 400 ms stall: clamped to 0.25 s, then capped at 8 steps
        modelFrame(vsyncUs - clockUs);
        clockUs = vsyncUs;
        loop.frame(clockUs / 1000);
      } else {
        injected.hidden++;
        vsyncUs += 600_000_000; // hidden for 10 minutes: the gap is dropped, no step
        clockUs = vsyncUs;
        loop.frameAfterGap(clockUs / 1000);
      }
    }
    // vsync at 144 Hz, each frame delivered up to ±0.5 ms late or early, in whole microseconds
    vsyncUs += 1e6 / 144;
    const t = Math.round(vsyncUs + (random() - 0.5) * 1000);
    modelFrame(t - clockUs);
    clockUs = t;
    loop.frame(t / 1000);
    const alpha = loop.alpha;
    if (!(alpha >= 0 && alpha <= 1)) badAlpha++;

    // gameplay outside the step: teleports, mode changes, untrack/track churn
    const r = random();
    if (r < 0.01) {
      const i = Math.floor(random() * BODIES);
      bodies[i].position.set(random() * 200 - 100, random() * 10, 0);
      teleports++;
    } else if (r < 0.0105) {
      const i = Math.floor(random() * BODIES);
      loop.untrack(bodies[i]);
      loop.track(bodies[i], { interpolation: MODES[Math.floor(random() * 3)] });
      churn++;
    }

    if (f === WARMUP || (f > WARMUP && f % HEAP_SAMPLE_EVERY === 0) || f === FRAMES) {
      heapSamples.push(heapAfterGc());
    }
    if (f % 1_000_000 === 0) {
      const s = ((performance.now() - started) / 1000).toFixed(0);
      process.stderr.write(`soak: ${f / 1e6}M frames, ${s} s, drift ${loop.tick - modelTicks}\n`);
    }
  }

  // ---- report ------------------------------------------------------------------------------

  const seconds = (performance.now() - started) / 1000;
  let nonFinite = 0;
  for (const b of bodies) {
    for (const v of [...b.position.toArray(), ...b.quaternion.toArray(), ...b.scale.toArray()]) {
      if (!Number.isFinite(v)) nonFinite++;
    }
  }
  const injectedTotal = injected.nan + injected.backwards + injected.hitch + injected.hidden;
  const growth = heapSamples.length > 1 ? heapSamples[heapSamples.length - 1] - heapSamples[0] : 0;
  const heapFlat = growth < 1024 * 1024;
  const drift = loop.tick - modelTicks;
  const anomaliesOk =
    loop.stats.anomalies === injected.nan + injected.backwards &&
    anomaliesSeen === loop.stats.anomalies;
  const pass =
    drift === 0 &&
    heapFlat &&
    anomaliesOk &&
    nonFinite === 0 &&
    badAlpha === 0 &&
    errors === 0 &&
    loop.trackedCount === BODIES;
  const report = {
    pass,
    frames: FRAMES,
    bodies: BODIES,
    seed: SEED,
    wallSeconds: Number(seconds.toFixed(1)),
    microsecondsPerFrame: Number(((seconds * 1e6) / FRAMES).toFixed(2)),
    gameHours: Number((loop.fixedTime / 3600).toFixed(3)),
    ticks: loop.tick,
    expectedTicks: modelTicks,
    drift,
    anomalies: {
      injected: { ...injected, total: injectedTotal },
      countedByLoop: loop.stats.anomalies,
      onAnomalyCalls: anomaliesSeen,
      ok: anomaliesOk,
    },
    droppedSeconds: Number(loop.stats.droppedTime.toFixed(6)),
    teleports,
    untrackTrackChurn: churn,
    trackedAtEnd: loop.trackedCount,
    listenerErrors: errors,
    framesWithAlphaOutside01: badAlpha,
    nonFiniteValues: nonFinite,
    heap: {
      gcExposed: gc !== undefined,
      samplesMiB: heapSamples.map((b) => Number((b / 1048576).toFixed(3))),
      growthBytes: growth,
      flat: heapFlat,
    },
  };
  return report;
}

if (isMainThread) {
  const frames = flag('frames', 10_000_000);
  const shards = Math.max(1, Math.floor(flag('shards', 2)));
  const bodies = flag('bodies', 1000);
  const seed = flag('seed', 144);
  const started = performance.now();
  const configs: ShardConfig[] = [];
  for (let k = 0; k < shards; k++) {
    configs.push({
      frames: Math.floor(frames / shards) + (k < frames % shards ? 1 : 0),
      bodies,
      seed: seed + k,
    });
  }
  const reports = await Promise.all(
    configs.map(
      (config) =>
        new Promise<ReturnType<typeof runShard>>((resolve, reject) => {
          // a worker does not inherit `--import tsx`: register tsx in it, then load this file
          const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;
          const worker = new Worker(boot, { eval: true, workerData: config });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  const summary = {
    pass: reports.every((r) => r.pass),
    frames: reports.reduce((n, r) => n + r.frames, 0),
    bodiesPerLoop: bodies,
    loops: shards,
    wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    // process-wide: every worker thread together (Node 20 has no per-thread CPU clock)
    cpuSeconds: Number(((process.cpuUsage().user + process.cpuUsage().system) / 1e6).toFixed(1)),
    drift: reports.reduce((n, r) => n + Math.abs(r.drift), 0),
    anomaliesHandled: reports.reduce((n, r) => n + r.anomalies.injected.total, 0),
    heapGrowthBytes: reports.map((r) => r.heap.growthBytes),
    heapFlat: reports.every((r) => r.heap.flat),
    shards: reports,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (!summary.pass) process.exitCode = 1;
} else {
  parentPort?.postMessage(runShard(workerData as ShardConfig));
}
