/**
 * Shared benchmark helpers. Benchmarks are not tests: they print machine-readable JSON and are
 * run by `npm run bench` (never by `npm test`). Run under `node --expose-gc` (the npm script does).
 */

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
 * The young generation is made large by `--max-semi-space-size` in the npm script, so no
 * scavenge runs during the measurement and the growth of `heapUsed` is what was allocated.
 * Anything at or below `noiseBytes` in total (the measurement's own bookkeeping) reports 0.
 */
export function allocationPerCall(
  body: (i: number) => void,
  iterations: number,
  warmup = Math.min(iterations, 20_000),
  noiseBytes = 4096,
): { bytesPerCall: number; totalBytes: number; iterations: number } {
  for (let i = 0; i < warmup; i++) body(i);
  collect();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < iterations; i++) body(i);
  const after = process.memoryUsage().heapUsed;
  const total = Math.max(0, after - before);
  return {
    bytesPerCall: total <= noiseBytes ? 0 : total / iterations,
    totalBytes: total,
    iterations,
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
