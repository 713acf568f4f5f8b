/**
 * Starts a test worker module under worker_threads. A worker does not inherit vitest's TypeScript
 * loading: tsx is registered in it first (as packages/core/test/pose-ring.test.ts does), and its
 * `@fixedtick/*` imports resolve through tsconfig.json's paths to the sources.
 */
import { Worker } from 'node:worker_threads';

/** A worker running `module` (a file next to this one) with `workerData`. */
export function startWorker(module: string, workerData: unknown): Worker {
  const url = new URL(module, import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** Resolves with the worker's exit code. */
export function exited(worker: Worker): Promise<number> {
  return new Promise((resolve) => worker.once('exit', resolve));
}
