/**
 * A physics worker module as a user writes one: worker-scene.ts's pile, published by index, with
 * test hooks chosen by `workerData` — `throwAt` (fixedUpdate throws at that tick), `exitAt`
 * (`process.exit(3)` at that tick), `noWaitAsync` (no `Atomics.waitAsync`) — and messages: `'echo'` (answered with the tick), `'block'`
 * (waits on a shared flag until the test sets it: a hung worker, released by the test, no timer). Run by the worker tests under worker_threads.
 */
import { workerData } from 'node:worker_threads';
import RAPIER from '@dimforge/rapier3d-compat';
import { runPhysicsWorker } from '../../src/entries/rapier/worker.ts';
import { makeScene } from './worker-scene.ts';

const {
  count,
  throwAt = -1,
  exitAt = -1,
} = workerData as {
  count: number;
  throwAt?: number;
  exitAt?: number;
};

runPhysicsWorker(async (scope) => {
  await RAPIER.init();
  const scene = makeScene(RAPIER, count);
  scene.bodies.forEach((body, id) => {
    scope.add(id, body);
  });
  return {
    world: scene.world,
    fixedUpdate: ({ tick, input }) => {
      if (tick === throwAt) throw new RangeError(`thrown on purpose at tick ${tick}`);
      if (tick === exitAt) process.exit(3);
      scene.fixedUpdate(input);
    },
    onMessage: (data) => {
      const message = data as { kind: string; flag?: SharedArrayBuffer };
      if (message.kind === 'echo') scope.post({ kind: 'echoed', tick: scope.tick });
      if (message.kind === 'block' && message.flag !== undefined) {
        Atomics.wait(new Int32Array(message.flag), 0, 0);
      }
    },
  };
});
