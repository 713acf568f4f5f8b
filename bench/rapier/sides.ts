/**
 * The two sides of the Rapier benchmark, each a loop driving its own world: the binding
 * (`RapierPhysics` on a `ThreeFixedLoop`) and the step-and-copy loop a user writes by hand.
 * Both time their world's steps (while `timing.on`), so that a frame's own cost is its time
 * minus its steps'.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import { Object3D, Quaternion } from 'three';
import { FixedLoop } from '../../packages/core/src/index.ts';
import { RapierPhysics, type RapierWorld } from '../../packages/three/src/entries/rapier.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';

/** Steps per simulated second, on both sides. */
export const TICK_RATE = 60;

/** A body both sides can read: Rapier's, or the stand-in world's. */
type Body = ReturnType<RapierWorld['getRigidBody']> & object;

/** One world and the loop that drives it. */
export interface Side {
  readonly loop: FixedLoop;
  readonly bodies: readonly Body[];
  readonly meshes: readonly Object3D[];
  /** Milliseconds of the world's steps in the frame being run, and of each step this round. */
  readonly timing: { on: boolean; frameStepMs: number; stepMs: number[] };
}

/** A vector target whose fields V8 keeps as doubles (see rapier-platform.ts). */
export class VectorTarget {
  x = 0.5;
  y = 0.5;
  z = 0.5;
}
/** A rotation target likewise. */
export class RotationTarget {
  x = 0.5;
  y = 0.5;
  z = 0.5;
  w = 0.5;
}

/** Wraps `world.step` so that each call is timed while `timing.on`. */
function timeSteps(world: RapierWorld, timing: Side['timing']): void {
  const step = world.step.bind(world);
  world.step = (queue?: Parameters<RapierWorld['step']>[0]) => {
    if (!timing.on) {
      step(queue);
      return;
    }
    const t0 = performance.now();
    step(queue);
    const ms = performance.now() - t0;
    timing.frameStepMs += ms;
    timing.stepMs.push(ms);
  };
}

/** `RapierPhysics` on a `ThreeFixedLoop`, a plain `Object3D` bound to each body. */
export function bindingSide(world: RapierWorld, bodies: readonly Body[]): Side {
  const timing = { on: true, frameStepMs: 0, stepMs: [] as number[] };
  timeSteps(world, timing);
  const loop = new ThreeFixedLoop({ tickRate: TICK_RATE });
  const physics = new RapierPhysics(loop, world);
  const meshes = bodies.map((body) => {
    const mesh = new Object3D();
    physics.add(mesh, body);
    return mesh;
  });
  return { loop, bodies, meshes, timing };
}

/**
 * The hand-written loop: `world.step()` in `onFixedUpdate`, then per body `prev = curr` and
 * `curr = translation(target)` / `rotation(target)` (reused targets: no allocation of its own);
 * per frame a position lerp and `quaternion.slerpQuaternions` in `onUpdate`.
 */
export function handWrittenSide(world: RAPIER.World, bodies: readonly RAPIER.RigidBody[]): Side {
  const timing = { on: true, frameStepMs: 0, stepMs: [] as number[] };
  timeSteps(world, timing);
  const count = bodies.length;
  const loop = new FixedLoop({ tickRate: TICK_RATE });
  const meshes = bodies.map(() => new Object3D());
  const prevP = new Float64Array(count * 3);
  const currP = new Float64Array(count * 3);
  const prevQ = bodies.map(() => new Quaternion());
  const currQ = bodies.map(() => new Quaternion());
  const v = new VectorTarget();
  const q = new RotationTarget();
  const copy = () => {
    for (let i = 0; i < count; i++) {
      const k = i * 3;
      prevP[k] = currP[k];
      prevP[k + 1] = currP[k + 1];
      prevP[k + 2] = currP[k + 2];
      prevQ[i].copy(currQ[i]);
      bodies[i].translation(v);
      currP[k] = v.x;
      currP[k + 1] = v.y;
      currP[k + 2] = v.z;
      bodies[i].rotation(q);
      currQ[i].set(q.x, q.y, q.z, q.w);
    }
  };
  copy();
  copy();
  loop.onFixedUpdate(() => {
    world.step();
    copy();
  });
  loop.onUpdate((_dt, alpha) => {
    for (let i = 0; i < count; i++) {
      const k = i * 3;
      const p = meshes[i].position;
      p.x = prevP[k] + (currP[k] - prevP[k]) * alpha;
      p.y = prevP[k + 1] + (currP[k + 1] - prevP[k + 1]) * alpha;
      p.z = prevP[k + 2] + (currP[k + 2] - prevP[k + 2]) * alpha;
      meshes[i].quaternion.slerpQuaternions(prevQ[i], currQ[i], alpha);
    }
  });
  return { loop, bodies, meshes, timing };
}
