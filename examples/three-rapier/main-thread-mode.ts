/**
 * examples/three-rapier with its world on the main thread: `RapierPhysics` steps it once per tick
 * between `fixedUpdate` (where the scene's step code runs) and `postSimulation`, and draws every
 * bound mesh interpolated.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { RapierPhysics } from '@fixedtick/three/rapier';
import { Vector3 } from 'three';
import type { BodiesHash, Mode, ModeSetup } from './mode.ts';
import { buildScene, sceneBodyList } from './scene.ts';
import { createSceneStep, hashBodies, type Teleport } from './scene-step.ts';

/** Builds the world on this thread, binds the meshes and runs the scene's step code. */
export async function startMainThreadMode(setup: ModeSetup): Promise<Mode> {
  const { loop, input, pile, ball, capsule, count, hashTick } = setup;
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const events = new RAPIER.EventQueue(true);
  const physics = new RapierPhysics(loop, world, { events });
  const bodies = buildScene(RAPIER, world, count);
  const list = sceneBodyList(bodies);

  // Bind each mesh (or instance) to its body; the teleport of an id is its mesh's.
  const teleports: Teleport[] = [];
  for (const { id, mesh } of pile.boxes) {
    physics.add(mesh, list[id]);
    teleports[id] = (_, position, rotation) => physics.teleport(mesh, position, rotation);
  }
  pile.sphereIds.forEach((id, index) => {
    physics.addInstance(pile.spheres, index, list[id]);
    teleports[id] = (_, position, rotation) =>
      physics.teleportInstance(pile.spheres, index, position, rotation);
  });
  physics.add(ball, bodies.ball);
  teleports[bodies.pile.length] = (_, position, rotation) =>
    physics.teleport(ball, position, rotation);
  physics.add(capsule, bodies.walker);

  const step = createSceneStep(world, bodies, count, (id, position, rotation) =>
    teleports[id](id, position, rotation),
  );
  loop.onFixedUpdate((dt, tick) => step.fixedUpdate(dt, tick, input));
  let hits = 0;
  physics.onCollision((event) => {
    if (event.started && (event.object1 === ball || event.object2 === ball)) hits++;
  });
  let hash: BodiesHash | null = null;
  loop.onPostSimulation((_, tick) => {
    if (tick === hashTick) hash = { tick, value: hashBodies(list) };
  });

  const at = new Vector3();
  return {
    name: 'main',
    transport: 'none',
    drawLag: 0,
    readout: {
      get steps() {
        return loop.tick;
      },
      position: (id, target) => target.copy(list[id].translation()),
      // the world holds its present state only
      positionAt: (steps, id, target) => {
        if (steps !== loop.tick) return false;
        target.copy(list[id].translation());
        return true;
      },
      speed: (id) => at.copy(list[id].linvel()).length(),
    },
    counts: step.counts,
    walker: step.walker,
    walkerPosition: (target) => target.copy(bodies.walker.translation()),
    get hits() {
      return hits;
    },
    get sleeping() {
      return physics.sleepingCount;
    },
    get resting() {
      return physics.restingCount;
    },
    get steps() {
      return physics.steps;
    },
    get timestep() {
      return world.timestep;
    },
    get bound() {
      return physics.size;
    },
    get hash() {
      return hash;
    },
    streamDrawn: null,
    get interpolation() {
      return physics.defaultInterpolation;
    },
    set interpolation(mode) {
      physics.defaultInterpolation = mode;
    },
  };
}
