import { execFileSync } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Shared benchmark helpers. Benchmarks are not tests: they print machine-readable JSON and are
 * run by `npm run bench` (never by `npm test`). Run under `node --expose-gc` (the npm script does).
 */

/** Bytes in use in V8's young generation. */
function youngBytes(): number {
  let total = 0;
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space' || space.space_name === 'new_large_object_space') {
      total += space.space_used_size;
    }
  }
  return total;
}

/** Calls `gc()` when the process runs with `--expose-gc`. */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

/**
 * Heap bytes allocated per call of `body`, over `iterations` calls after `warmup` calls.
 *
 * What is measured is the growth of V8's young generation (`new_space` and
 * `new_large_object_space`), where every short-lived object a frame could allocate lands. The
 * young generation is made large by `--max-semi-space-size` in the npm script, so no scavenge
 * runs during a measurement. The code and old spaces are left out on purpose: V8 keeps
 * (re)compiling hot functions in the background and puts that machine code and its metadata
 * there, which is not something the body allocates. The measurement is repeated `rounds` times
 * and the smallest total is kept. Anything at or below `noiseBytes` in total (the measurement's
 * own bookkeeping) reports 0.
 */
export function allocationPerCall(
  body: (i: number) => void,
  iterations: number,
  warmup = Math.max(iterations, 100_000),
  noiseBytes = 4096,
  rounds = 3,
): { bytesPerCall: number; totalBytes: number; iterations: number; rounds: number[] } {
  for (let i = 0; i < warmup; i++) body(i);
  const totals: number[] = [];
  for (let r = 0; r < rounds; r++) {
    collect();
    const before = youngBytes();
    for (let i = 0; i < iterations; i++) body(i);
    const after = youngBytes();
    totals.push(Math.max(0, after - before));
  }
  const total = Math.min(...totals);
  return {
    bytesPerCall: total <= noiseBytes ? 0 : total / iterations,
    totalBytes: total,
    iterations,
    rounds: totals,
  };
}

/**
 * Median time per call of `body` in nanoseconds, over `rounds` rounds of `iterations` calls
 * (after one warm-up round). Use it for both sides of a comparison in the same run.
 */
export function timePerCall(
  body: (i: number) => void,
  iterations: number,
  rounds = 7,
): { nsPerCall: number; rounds: number[] } {
  for (let i = 0; i < iterations; i++) body(i);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) body(i);
    const t1 = process.hrtime.bigint();
    samples.push(Number(t1 - t0) / iterations);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { nsPerCall: sorted[Math.floor(sorted.length / 2)], rounds: samples };
}

/**
 * Times two bodies interleaved round by round (A, B, A, B, …) so that machine noise hits both
 * alike; returns each median and `ratio = a / b`.
 */
export function compare(
  a: (i: number) => void,
  b: (i: number) => void,
  iterations: number,
  rounds = 9,
): { aNs: number; bNs: number; ratio: number } {
  for (let i = 0; i < iterations; i++) a(i);
  for (let i = 0; i < iterations; i++) b(i);
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) a(i);
    as.push(Number(process.hrtime.bigint() - t0) / iterations);
    t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) b(i);
    bs.push(Number(process.hrtime.bigint() - t0) / iterations);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const aNs = median(as);
  const bNs = median(bs);
  return { aNs, bNs, ratio: aNs / bNs };
}

/** A benchmark suite: `bench/suites/<name>.ts` default-exports one. */
export type Suite = () => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * Times two bodies interleaved round by round (A, B, A, B, …) and reports the ratio `a / b` of
 * every round as min / median / max, with each side's median: a single pair proves nothing on a
 * shared machine, the spread says how much to trust the median.
 */
export function compareRounds(
  a: (i: number) => void,
  b: (i: number) => void,
  iterations: number,
  rounds = 15,
): { aNs: number; bNs: number; ratio: { min: number; median: number; max: number } } {
  for (let i = 0; i < iterations; i++) a(i);
  for (let i = 0; i < iterations; i++) b(i);
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) a(i);
    const aNs = Number(process.hrtime.bigint() - t0) / iterations;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) b(i);
    const bNs = Number(process.hrtime.bigint() - t0) / iterations;
    as.push(aNs);
    bs.push(bNs);
    ratios.push(aNs / bNs);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    aNs: median(as),
    bNs: median(bs),
    ratio: {
      min: round3(Math.min(...ratios)),
      median: round3(median(ratios)),
      max: round3(Math.max(...ratios)),
    },
  };
}

/**
 * The cost `a` adds to its baseline `aBase` as a share of the cost `b` adds to `bBase`,
 * `(a - aBase) / (b - bBase)` per round, timed interleaved like {@link compareRounds} and
 * reported as min / median / max: what an adapter itself costs in a scene next to another scene,
 * with the user's own per-step code (the same on both sides of each pair) taken out.
 */
export function costShareRounds(
  a: (i: number) => void,
  aBase: (i: number) => void,
  b: (i: number) => void,
  bBase: (i: number) => void,
  iterations: number,
  rounds = 21,
): { aNs: number; bNs: number; share: { min: number; median: number; max: number } } {
  const bodies = [a, aBase, b, bBase];
  for (const body of bodies) for (let i = 0; i < iterations; i++) body(i);
  const costs: number[][] = [[], []];
  const shares: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const ns = bodies.map((body) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) body(i);
      return Number(process.hrtime.bigint() - t0) / iterations;
    });
    costs[0].push(ns[0] - ns[1]);
    costs[1].push(ns[2] - ns[3]);
    shares.push((ns[0] - ns[1]) / (ns[2] - ns[3]));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    aNs: median(costs[0]),
    bNs: median(costs[1]),
    share: {
      min: round3(Math.min(...shares)),
      median: round3(median(shares)),
      max: round3(Math.max(...shares)),
    },
  };
}

/** Start times of the garbage collections seen so far (a `PerformanceObserver` on `gc`). */
const gcStarts: number[] = [];
let observing = false;

function observeGc(): void {
  if (observing) return;
  observing = true;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcStarts.push(entry.startTime);
  }).observe({ entryTypes: ['gc'] });
}

/** True if a garbage collection started between `from` and `to` (`performance.now()` times). */
function gcBetween(from: number, to: number): boolean {
  return gcStarts.some((t) => t >= from && t <= to);
}

/**
 * Heap bytes allocated per call of `body` over windows of `iterations` calls, like
 * {@link allocationPerCall}, except that a window during which a garbage collection ran (seen by
 * a `PerformanceObserver`) is discarded and measured again — a scavenge empties the young
 * generation and would hide what the window allocated. Returns the smallest of `rounds` clean
 * windows, and how many were discarded.
 */
export async function allocationWithoutGc(
  body: (i: number) => void,
  iterations: number,
  rounds = 3,
  noiseBytes = 4096,
): Promise<{ bytesPerCall: number; totalBytes: number; discarded: number; windows: number[] }> {
  for (let i = 0; i < iterations; i++) body(i);
  const next = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  observeGc();
  const windows: number[] = [];
  let discarded = 0;
  for (let attempt = 0; windows.length < rounds && attempt < rounds * 10; attempt++) {
    collect();
    const from = performance.now();
    const before = youngBytes();
    for (let i = 0; i < iterations; i++) body(i);
    const after = youngBytes();
    const to = performance.now();
    await next(); // the observer reports the window's collections, if any
    await next();
    if (gcBetween(from, to)) {
      discarded++;
      continue;
    }
    windows.push(Math.max(0, after - before));
  }
  const total = windows.length === 0 ? Number.NaN : Math.min(...windows);
  return {
    bytesPerCall: total <= noiseBytes ? 0 : total / iterations,
    totalBytes: total,
    discarded,
    windows,
  };
}

/**
 * Runs one measurement of a suite in a fresh Node process: `node --expose-gc <flags> --import
 * tsx <file> <what> <count>`, and returns the JSON it prints. `'collected'` (timing, by default)
 * runs with `npm run bench`'s flags: V8 collects garbage as in an app; `'kept'` (allocation) with
 * a 512 MB young generation from the start, so that its windows see no collection.
 */
export function inChildProcess(
  file: string,
  what: string,
  count: number,
  youngGeneration: 'collected' | 'kept' = what === 'timing' ? 'collected' : 'kept',
): unknown {
  const flags =
    youngGeneration === 'collected'
      ? ['--max-semi-space-size=512']
      : ['--min-semi-space-size=512', '--max-semi-space-size=512'];
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', ...flags, '--import', 'tsx', file, what, String(count)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  );
  return JSON.parse(out.slice(out.indexOf('{')));
}

/** One round's frame times (ms), by the number of steps each frame ran. */
export type FrameCosts = Map<number, number[]>;

/** Adds a frame that ran `steps` steps in `ms` to `costs`. */
export function addFrameCost(costs: FrameCosts, steps: number, ms: number): void {
  const list = costs.get(steps) ?? [];
  costs.set(steps, list);
  list.push(ms);
}

/**
 * The robust cost of a round (ms): per kind of frame (by steps run), the median × that kind's
 * count — a spike of the shared machine moves no median, frames with and without a step are
 * weighed as they came.
 */
export function robustCost(costs: FrameCosts): number {
  let ms = 0;
  for (const list of costs.values()) ms += median(list) * list.length;
  return ms;
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `x` rounded to `digits` decimals. */
export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** Min / median / max of `xs`, rounded to `digits` decimals: how much to trust the median. */
export function spread(xs: number[], digits = 3): { min: number; median: number; max: number } {
  return {
    min: round(Math.min(...xs), digits),
    median: round(median(xs), digits),
    max: round(Math.max(...xs), digits),
  };
}
