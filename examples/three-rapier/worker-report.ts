/**
 * What the worker module of examples/three-rapier posts to the page after each tick: the counts
 * the panel shows, the walker's status and, after the step of the hash tick, the hash of every
 * body's state.
 */
import type { SceneCounts } from './scene-step.ts';
import type { WalkerStatus } from './walker.ts';

/** One tick's report, from worker.ts's `postSimulation` to the page's `onMessage`. */
export interface WorkerReport {
  readonly kind: 'three-rapier report';
  /** The tick just stepped. */
  readonly tick: number;
  readonly counts: SceneCounts;
  readonly walker: WalkerStatus;
  /** Collisions of the projectile so far (started). */
  readonly hits: number;
  /** Bodies asleep after the step. */
  readonly sleeping: number;
  /** `world.timestep` of the step (a 32-bit float, as Rapier keeps it). */
  readonly timestep: number;
  /** The hash of every body's state, after the step of the hash tick only. */
  readonly hash?: string | undefined;
}

/** True for a {@link WorkerReport}. */
export function isWorkerReport(data: unknown): data is WorkerReport {
  return (data as WorkerReport | null)?.kind === 'three-rapier report';
}
