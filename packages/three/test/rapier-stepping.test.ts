/**
 * `RapierPhysics` with real Rapier WASM: the world is stepped exactly once per fixed tick with
 * `timestep = fixedDelta`, the same pile ends bit for bit the same at any display rate, and every
 * frame draws each mesh at the lerp/slerp of its body's last two step poses by alpha.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import { lerp, slerp, ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics } from '@fixedtick/three/rapier';
import type { Object3D } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  angleBetween,
  bodyPose,
  display,
  groundWorld,
  loadRapier,
  meshes,
  pile,
} from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

/** A loop, a world with a pile of `count` bodies and a mesh bound to each. */
function scene(count: number, tickRate = 60) {
  const world = groundWorld();
  const bodies = pile(world, count);
  const loop = new ThreeFixedLoop({ tickRate });
  const physics = new RapierPhysics(loop, world);
  const objects = meshes(count);
  for (const [i, body] of bodies.entries()) physics.add(objects[i], body);
  return { world, bodies, loop, physics, objects };
}

describe('stepping', () => {
  it.each([
    [64, 1 / 64],
    [60, 1 / 60],
    [144, 1 / 144],
  ])(
    'at %i Hz runs world.step once per tick, between fixedUpdate and postSimulation, with timestep fixedDelta',
    (tickRate, fixedDelta) => {
      const { world, loop, physics } = scene(4, tickRate);
      const log: string[] = [];
      const timesteps: number[] = [];
      const step = world.step.bind(world);
      world.step = (queue?: RAPIER.EventQueue) => {
        log.push(`step ${loop.tick}`);
        timesteps.push(world.timestep);
        step(queue);
      };
      loop.onFixedUpdate((_dt, tick) => log.push(`fixedUpdate ${tick}`));
      loop.onPostSimulation((_dt, tick) => log.push(`postSimulation ${tick}`));
      display(loop, 144, 1);
      expect(loop.tick).toBe(tickRate);
      expect(physics.steps).toBe(tickRate);
      const expected = Array.from({ length: tickRate }, (_, t) => [
        `fixedUpdate ${t}`,
        `step ${t}`,
        `postSimulation ${t}`,
      ]).flat();
      expect(log).toEqual(expected);
      // Rapier keeps the timestep as a 32-bit float: 1/64 exactly, 1/60 and 1/144 rounded
      expect(new Set(timesteps)).toEqual(new Set([Math.fround(fixedDelta)]));
      expect(world.timestep).toBe(Math.fround(loop.fixedDelta));
      if (tickRate === 64) expect(world.timestep).toBe(loop.fixedDelta);
    },
  );

  it('follows a tickRate changed at run time from the next step on', () => {
    const { world, loop } = scene(2, 60);
    display(loop, 60, 0.5);
    loop.tickRate = 30;
    loop.advance(1 / 30);
    expect(world.timestep).toBe(Math.fround(1 / 30));
  });
});

describe('determinism across display rates', () => {
  it('a 50-body pile fed 2 s at a simulated 30, 60 and 144 Hz display ends bit-identical', () => {
    const results = [30, 60, 144].map((rate) => {
      const { bodies, loop, physics } = scene(50);
      display(loop, rate, 2);
      return { ticks: loop.tick, steps: physics.steps, poses: bodies.map(bodyPose) };
    });
    for (const r of results) {
      expect(r.ticks).toBe(120);
      expect(r.steps).toBe(120);
    }
    // the pile really moved (fell and tumbled) before comparing it
    const start = pile(groundWorld(), 50).map(bodyPose);
    const moved = results[0].poses.filter((p, i) => Math.abs(p[1] - start[i][1]) > 0.05);
    expect(moved.length).toBeGreaterThan(20);
    expect(results[1].poses).toEqual(results[0].poses);
    expect(results[2].poses).toEqual(results[0].poses);
    expect(results[0].poses.flat().every(Number.isFinite)).toBe(true);
  });
});

describe('rendered poses', () => {
  it.each([30, 60, 144])(
    'at a %i Hz display every frame draws lerp/slerp of the last two step poses by alpha',
    (rate) => {
      const { bodies, loop, objects } = scene(20);
      let previous = bodies.map(bodyPose);
      let current = previous;
      // a step's pose is the body's after world.step, read where the step ends
      loop.onPostSimulation(() => {
        previous = current;
        current = bodies.map(bodyPose);
      });
      let checked = 0;
      let between = 0;
      display(loop, rate, 1.5, (frame) => {
        if (frame === 0) return;
        const alpha = loop.alpha;
        if (alpha > 0.05 && alpha < 0.95) between++;
        bodies.forEach((_, i) => {
          const expected = expectedPose(previous[i], current[i], alpha);
          const drawn = drawnPose(objects[i]);
          for (let k = 0; k < 3; k++) expect(drawn[k]).toBeCloseTo(expected[k], 12);
          expect(angleBetween(drawn.slice(3), expected.slice(3))).toBeLessThan(2e-6);
          checked++;
        });
      });
      expect(checked).toBe(20 * rate * 1.5);
      // 30 and 60 Hz displays run whole steps (alpha 0, the previous step drawn); 144 Hz lands
      // between steps in most frames
      if (rate === 144) expect(between).toBeGreaterThan(rate / 2);
    },
  );
});

function expectedPose(a: number[], b: number[], alpha: number): number[] {
  const out = [
    lerp(a[0], b[0], alpha),
    lerp(a[1], b[1], alpha),
    lerp(a[2], b[2], alpha),
    0,
    0,
    0,
    1,
  ];
  slerp(out, 3, a, 3, b, 3, alpha);
  return out;
}

function drawnPose(object: Object3D): number[] {
  const { position: p, quaternion: q } = object;
  return [p.x, p.y, p.z, q.x, q.y, q.z, q.w];
}
