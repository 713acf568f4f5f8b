/**
 * A physics worker module as a user of `<FixedRapierWorker>` writes one: a ground at y = 0 and
 * `count` boxes falling from 2, 4, 6 … m, each published by its index. Run under worker_threads
 * by the React Three Fiber worker tests (started as packages/three/test/support/start-worker.ts
 * starts the three package's).
 */
import { workerData } from 'node:worker_threads';
import RAPIER from '@dimforge/rapier3d-compat';
import { runPhysicsWorker } from '@fixedtick/three/rapier/worker';

const { count } = workerData as { count: number };

runPhysicsWorker(async (scope) => {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  world.createCollider(RAPIER.ColliderDesc.cuboid(20, 0.5, 20).setTranslation(0, -0.5, 0));
  for (let id = 0; id < count; id++) {
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.dynamic().setTranslation(id * 2, 2 + 2 * id, 0),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
    scope.add(id, body);
  }
  return { world };
});
