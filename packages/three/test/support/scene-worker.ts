/**
 * A physics worker module as a user writes one: worker-scene.ts's pile, published by index, with
 * test hooks chosen by `workerData` — `throwAt` (fixedUpdate throws at that tick), `exitAt`
 * (`process.exit(3)` at that tick), `noWaitAsync` (no `Atomics.waitAsync`) — and messages: `'echo'` (answered with the tick), `'spawn'` (a new body, published as the next id), `'block'`
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
  let spawned = 0;
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
      if (message.kind === 'spawn') {
        // a box high above the pile, published as the next free id
        const id = count + spawned++;
        const body = scene.world.createRigidBody(
          RAPIER.RigidBodyDesc.dynamic().setTranslation(id * 2, 20, 0),
        );
        scene.world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
        scope.add(id, body);
      }
      if (message.kind === 'block' && message.flag !== undefined) {
        Atomics.wait(new Int32Array(message.flag), 0, 0);
      }
    },
  };
});
