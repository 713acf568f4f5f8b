/**
 * What the page tells the worker module before it builds the world: the pile's size and the tick
 * to hash. It travels as the worker's `name` (`new Worker(url, { name })`, read as `self.name`),
 * the one thing a worker has from the start, before any message.
 */
import { PILE_DEFAULT, pileCount } from './scene.ts';

/** The worker's settings. */
export interface WorkerConfig {
  /** Bodies in the pile. */
  readonly count: number;
  /** The tick after whose step every body's state is hashed and posted. */
  readonly hashTick: number;
}

/** `config` as a worker name. */
export function workerName(config: WorkerConfig): string {
  return `three-rapier ${JSON.stringify(config)}`;
}

/** The settings in a worker name made by {@link workerName} (the defaults for any other). */
export function readWorkerName(name: string): WorkerConfig {
  try {
    const { count, hashTick } = JSON.parse(name.slice(name.indexOf('{'))) as WorkerConfig;
    return { count: pileCount(count), hashTick: Number.isInteger(hashTick) ? hashTick : -1 };
  } catch {
    return { count: PILE_DEFAULT, hashTick: -1 };
  }
}
