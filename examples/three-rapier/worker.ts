/**
 * The worker module of examples/three-rapier: the world, built by the same scene code as on the
 * main thread (scene.ts), and the same fixed-step code (scene-step.ts), run by
 * `runPhysicsWorker`. Every body is published by its index in `sceneBodyList` — the id the page
 * binds its mesh (or instance) to. After each tick it posts the counts the page shows, and after
 * the hash tick the hash of every body's state.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { runPhysicsWorker } from '@fixedtick/three/rapier/worker';
import { buildScene, sceneBodyList } from './scene.ts';
import { createSceneStep, hashBodies } from './scene-step.ts';
import { readWorkerName } from './worker-config.ts';
import type { WorkerReport } from './worker-report.ts';

runPhysicsWorker(async (scope) => {
  const { count, hashTick } = readWorkerName(self.name);
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const events = new RAPIER.EventQueue(true);
  const bodies = buildScene(RAPIER, world, count);
  const list = sceneBodyList(bodies);
  list.forEach((body, id) => {
    scope.add(id, body);
  });
  const step = createSceneStep(world, bodies, count, (id, position, rotation) =>
    scope.teleport(id, position, rotation),
  );
  const ballCollider = bodies.ball.collider(0).handle;
  let hits = 0;
  return {
    world,
    events,
    fixedUpdate: (s) => step.fixedUpdate(s.fixedDelta, s.tick, s.input),
    postSimulation: (s) => {
      events.drainCollisionEvents((one, two, started) => {
        if (started && (one === ballCollider || two === ballCollider)) hits++;
      });
      let sleeping = 0;
      for (const body of list) if (body.isSleeping()) sleeping++;
      const report: WorkerReport = {
        kind: 'three-rapier report',
        tick: s.tick,
        counts: step.counts,
        walker: step.walker,
        hits,
        sleeping,
        timestep: world.timestep,
        hash: s.tick === hashTick ? hashBodies(list) : undefined,
      };
      s.post(report);
    },
  };
});
