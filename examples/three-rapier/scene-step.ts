/**
 * The fixed-step code of examples/three-rapier, in Rapier alone: F fires the projectile from the
 * walker's chest at the wall, T puts the pile back where it started (and parks the projectile),
 * the walker walks. Written against the input latch's queries and a `teleport(id, …)`, so the
 * same code runs in `fixedUpdate` on the main thread (RapierPhysics) and in the worker's step
 * code (WorkerPhysics): both modes step the same simulation.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import { PARKED, pileLayout, type SceneBodies } from './scene.ts';
import { createWalker, type WalkerStatus, type WalkInput } from './walker.ts';

const SHOT_SPEED = 24;
/** Where the shot aims: the middle of the wall of boxes. */
const WALL_CENTRE = { x: 0, y: 1.2, z: 0.5 };
const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };
const STILL = { x: 0, y: 0, z: 0 };

/** A body's position (and rotation) as `teleport` takes them. */
export interface Point {
  x: number;
  y: number;
  z: number;
}

/** Moves body `id` (its index in `sceneBodyList`) with no streak: each mode's own teleport. */
export type Teleport = (id: number, position: Point, rotation: Point & { w: number }) => void;

/** What the step code counts, for the page. */
export interface SceneCounts {
  shots: number;
  teleports: number;
  /** The tick of the last teleport (-1: none yet). */
  teleportTick: number;
}

/** The scene's fixed-step code and what it publishes. */
export interface SceneStep {
  /** Runs one tick's rules before the world steps. */
  fixedUpdate(dt: number, tick: number, input: WalkInput): void;
  readonly counts: SceneCounts;
  readonly walker: WalkerStatus;
}

/** The fixed-step code of the scene built by `buildScene(R, world, count)`. */
export function createSceneStep(
  world: RAPIER.World,
  bodies: SceneBodies,
  count: number,
  teleport: Teleport,
): SceneStep {
  const starts = pileLayout(count);
  const ballId = bodies.pile.length;
  const walker = createWalker(world, bodies);
  const counts: SceneCounts = { shots: 0, teleports: 0, teleportTick: -1 };
  const muzzle = { x: 0, y: 0, z: 0 };
  const aim = { x: 0, y: 0, z: 0 };

  const fire = (): void => {
    // from the capsule's chest at the middle of the wall
    const chest = bodies.walker.translation();
    muzzle.x = chest.x;
    muzzle.y = chest.y + 0.5;
    muzzle.z = chest.z;
    aim.x = WALL_CENTRE.x - muzzle.x;
    aim.y = WALL_CENTRE.y - muzzle.y;
    aim.z = WALL_CENTRE.z - muzzle.z;
    const length = Math.hypot(aim.x, aim.y, aim.z);
    aim.x /= length;
    aim.y /= length;
    aim.z /= length;
    muzzle.x += aim.x * 0.9;
    muzzle.y += aim.y * 0.9;
    muzzle.z += aim.z * 0.9;
    bodies.ball.setEnabled(true);
    teleport(ballId, muzzle, IDENTITY);
    aim.x *= SHOT_SPEED;
    aim.y *= SHOT_SPEED;
    aim.z *= SHOT_SPEED;
    bodies.ball.setLinvel(aim, true);
    bodies.ball.setAngvel(STILL, true);
    counts.shots++;
  };

  const sendHome = (tick: number): void => {
    // the projectile leaves too: it waits, disabled, below the ground
    teleport(ballId, PARKED, IDENTITY);
    bodies.ball.setEnabled(false);
    bodies.pile.forEach((body, id) => {
      teleport(id, starts[id], IDENTITY);
      body.setLinvel(STILL, true);
      body.setAngvel(STILL, true);
    });
    counts.teleports++;
    counts.teleportTick = tick;
  };

  return {
    counts,
    walker: walker.status,
    fixedUpdate(dt, tick, input) {
      if (input.pressed('KeyF')) fire();
      if (input.pressed('KeyT')) sendHome(tick);
      walker.step(dt, input);
    },
  };
}

/**
 * A hash of every body's state (position, rotation, linear and angular velocity, as the 32-bit
 * floats Rapier keeps), FNV-1a over their bits: two worlds with the same hash at the same tick
 * hold the same bodies, bit for bit (to a 1-in-4-billion chance).
 */
export function hashBodies(list: readonly RAPIER.RigidBody[]): string {
  const floats = new Float32Array(13);
  const words = new Uint32Array(floats.buffer);
  let hash = 0x811c9dc5;
  for (const body of list) {
    const p = body.translation();
    const q = body.rotation();
    const v = body.linvel();
    const w = body.angvel();
    floats.set([p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z]);
    for (const word of words) {
      hash = Math.imul(hash ^ word, 0x01000193) >>> 0;
    }
  }
  return hash.toString(16).padStart(8, '0');
}
