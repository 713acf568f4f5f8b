/**
 * The physics worker of the rapier-worker benchmark: worlds.ts's tumbling pile of
 * `workerData.count` bodies, each published as its index, with no step code of its own. Loaded
 * by a `worker_threads` Worker that registers tsx first (bench/suites/rapier-worker.ts).
 */
import { workerData } from 'node:worker_threads';
import RAPIER from '@dimforge/rapier3d-compat';
import { runPhysicsWorker } from '../../packages/three/src/entries/rapier/worker.ts';
import { tumblingPile } from './worlds.ts';

runPhysicsWorker(async (scope) => {
  await RAPIER.init();
  const { world, bodies } = tumblingPile((workerData as { count: number }).count);
  bodies.forEach((body, id) => {
    scope.add(id, body);
  });
  return { world };
});
