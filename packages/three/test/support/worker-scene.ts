/**
 * One scene for both modes of the worker tests: a floor and a pile of boxes, made in the same
 * order in the main thread (RapierPhysics) and in the worker (runPhysicsWorker), with step code
 * that reads the input the same way in both (Space: an upward impulse on body 0; KeyA held: a
 * push on body 1), so the two simulations can be compared tick for tick.
 */
import type RAPIER_TYPE from '@dimforge/rapier3d-compat';

type Rapier = typeof RAPIER_TYPE;

/** What the step code reads of the input (InputLatch in main mode, scope.input in the worker). */
export interface SceneInput {
  pressed(key: string): boolean;
  held(key: string): boolean;
}

/** Body ids are their index: 0 … count − 1. */
export interface Scene {
  world: RAPIER_TYPE.World;
  bodies: RAPIER_TYPE.RigidBody[];
  /** The fixed-step code, before `world.step()`. */
  fixedUpdate(input: SceneInput): void;
}

/** A world with a floor and `count` boxes in a pile. */
export function makeScene(RAPIER: Rapier, count: number): Scene {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  world.createCollider(RAPIER.ColliderDesc.cuboid(50, 0.5, 50).setTranslation(0, -0.5, 0));
  const bodies: RAPIER_TYPE.RigidBody[] = [];
  const side = Math.ceil(Math.cbrt(count));
  for (let i = 0; i < count; i++) {
    const x = (i % side) * 1.1 - side / 2;
    const z = (Math.floor(i / side) % side) * 1.1 - side / 2;
    const y = 1 + Math.floor(i / (side * side)) * 1.2 + (i % 3) * 0.05;
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.dynamic()
        .setTranslation(x, y, z)
        .setRotation({
          x: 0,
          y: Math.sin(i) * 0.2,
          z: 0,
          w: Math.sqrt(1 - Math.sin(i) ** 2 * 0.04),
        }),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
    bodies.push(body);
  }
  return {
    world,
    bodies,
    fixedUpdate(input) {
      if (input.pressed('Space')) bodies[0].applyImpulse({ x: 0, y: 8, z: 0 }, true);
      if (bodies.length > 1 && input.held('KeyA')) {
        bodies[1].applyImpulse({ x: 0.5, y: 0, z: 0 }, true);
      }
    },
  };
}
