/**
 * The sides of the Rapier benchmark, each a loop driving its own world: the binding
 * (`RapierPhysics` on a `ThreeFixedLoop`), the same tracker over plain `Object3D`s that a step
 * moves (no Rapier), and the step-and-copy loop a user writes by hand; and the pass of Rapier
 * reads the binding makes per step, on its own. Each side times its simulation's steps (while
 * `timing.on`), so that a frame's own cost is its time minus its steps'.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import { Object3D, Quaternion } from 'three';
import { FixedLoop } from '../../packages/core/src/index.ts';
import { RapierPhysics, type RapierWorld } from '../../packages/three/src/entries/rapier.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';
// the binding's own target classes: Rapier's getters then store into one kind of target, as in
// an app
import { RotationTarget, VectorTarget } from '../../packages/three/src/rapier/rapier-platform.ts';
import { cloudCell, noise } from './worlds.ts';

export { RotationTarget, VectorTarget };

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
    record(timing, performance.now() - t0);
  };
}

/** Timing that starts on, with nothing recorded. */
function newTiming(): Side['timing'] {
  return { on: true, frameStepMs: 0, stepMs: [] };
}

/** Records one step of `ms` milliseconds (while `timing.on`). */
function record(timing: Side['timing'], ms: number): void {
  timing.frameStepMs += ms;
  timing.stepMs.push(ms);
}

/** `RapierPhysics` on a `ThreeFixedLoop`, a plain `Object3D` bound to each body. */
export function bindingSide(world: RapierWorld, bodies: readonly Body[]): Side {
  const timing = newTiming();
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
  const timing = newTiming();
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

/**
 * The tracker with no Rapier: a `ThreeFixedLoop` tracking `count` plain `Object3D`s that the
 * user's step moves as Rapier moves the cloud's bodies — each falls, drifts and spins about an
 * axis of its own (`'tumbling'`), written with `position.set` and `quaternion.set` — so every
 * pose component changes at every step. `'turning'`: each spins about the vertical instead (a
 * character turning), whose Euler angles three derives with no trigonometry; otherwise alike.
 * The step (the user's simulation, as `world.step` is on the binding's side) is timed and left
 * out of the side's own cost.
 */
export function plainSide(count: number, motion: 'tumbling' | 'turning' = 'tumbling'): Side {
  const timing = newTiming();
  const loop = new ThreeFixedLoop({ tickRate: TICK_RATE });
  // per body: position x y z, velocity x y z, spin axis x y z (unit), spin rate (rad/s)
  const state = new Float64Array(count * 10);
  const meshes: Object3D[] = [];
  for (let i = 0; i < count; i++) {
    const k = i * 10;
    state.set(cloudCell(i, count), k);
    state[k + 3] = 0.2 * noise(i, 4);
    state[k + 4] = 0.2 * noise(i, 5);
    state[k + 5] = 0.2 * noise(i, 6);
    const ax = noise(i, 1);
    const ay = noise(i, 2);
    const az = noise(i, 3);
    const length = Math.hypot(ax, ay, az);
    const tumbling = motion === 'tumbling';
    state[k + 6] = tumbling ? ax / length : 0;
    state[k + 7] = tumbling ? ay / length : 1;
    state[k + 8] = tumbling ? az / length : 0;
    state[k + 9] = 4 * length;
    const mesh = new Object3D();
    mesh.position.set(state[k], state[k + 1], state[k + 2]);
    loop.track(mesh);
    meshes.push(mesh);
  }
  let time = 0;
  loop.onFixedUpdate((dt) => {
    const t0 = timing.on ? performance.now() : 0;
    time += dt;
    for (let i = 0; i < count; i++) {
      const k = i * 10;
      state[k + 4] -= 9.81 * dt;
      state[k] += state[k + 3] * dt;
      state[k + 1] += state[k + 4] * dt;
      state[k + 2] += state[k + 5] * dt;
      const half = (state[k + 9] * time) / 2;
      const sin = Math.sin(half);
      meshes[i].position.set(state[k], state[k + 1], state[k + 2]);
      meshes[i].quaternion.set(
        state[k + 6] * sin,
        state[k + 7] * sin,
        state[k + 8] * sin,
        Math.cos(half),
      );
    }
    if (timing.on) record(timing, performance.now() - t0);
  });
  return { loop, bodies: [], meshes, timing };
}

/**
 * Rapier's part of the binding's reads, on its own: per body the calls the binding makes after
 * each step — `isSleeping()`, then `translation(target)` and `rotation(target)` of an awake body
 * (reused targets) — and nothing else. Returns the milliseconds of one such pass over `bodies`.
 */
export function rapierReads(bodies: readonly RAPIER.RigidBody[]): () => number {
  const v = new VectorTarget();
  const q = new RotationTarget();
  return () => {
    const t0 = performance.now();
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      if (body.isSleeping()) continue;
      // calls into Rapier's WASM: V8 cannot drop them
      body.translation(v);
      body.rotation(q);
    }
    return performance.now() - t0;
  };
}
