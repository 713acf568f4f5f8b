/**
 * The worker tests' common set-up: a ThreeFixedLoop, scene-worker.ts's pile in a worker thread,
 * WorkerPhysics between them with an Object3D bound to every body; and a driver that runs ticks
 * one at a time, each followed by the worker's frame of it.
 */

import type { Worker } from 'node:worker_threads';
import { Object3D } from 'three';
import { WorkerPhysics, type WorkerPhysicsOptions } from '../../src/entries/rapier.ts';
import { ThreeFixedLoop } from '../../src/index.ts';
import { startWorker } from './start-worker.ts';

/** Seconds per tick of the tests' loops. */
export const DT = 1 / 60;

/** Everything set up; `dispose` it (or let the test's afterEach do it). */
export interface WorkerSetUp {
  loop: ThreeFixedLoop;
  worker: Worker;
  physics: WorkerPhysics;
  meshes: Object3D[];
}

/** The set-ups of the running test, disposed after it. */
export const openSetUps: WorkerPhysics[] = [];

/** A loop, a worker running the pile of `count` boxes (with `hooks`), and WorkerPhysics. */
export async function setUpWorker(
  count: number,
  options: WorkerPhysicsOptions = {},
  hooks: { throwAt?: number; exitAt?: number; noWaitAsync?: boolean } = {},
  loop = new ThreeFixedLoop({ tickRate: 60 }),
): Promise<WorkerSetUp> {
  const worker = startWorker('./scene-worker.ts', { count, ...hooks });
  const physics = new WorkerPhysics(loop, worker, options);
  openSetUps.push(physics);
  const meshes = Array.from({ length: count }, () => new Object3D());
  meshes.forEach((mesh, id) => {
    physics.bind(id, mesh);
  });
  await physics.ready;
  return { loop, worker, physics, meshes };
}

/** Runs `ticks` ticks, each followed by the worker's frame of it. */
export async function runTicks(
  loop: ThreeFixedLoop,
  physics: WorkerPhysics,
  ticks: number,
): Promise<void> {
  for (let i = 0; i < ticks; i++) {
    loop.advance(DT);
    await physics.synced();
  }
}
