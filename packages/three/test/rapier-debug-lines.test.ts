/**
 * `RapierDebugLines` with real Rapier WASM: outlines drawn where the meshes are drawn (between the
 * last two steps at a 144 Hz display, not at the last step as `world.debugRender()` draws them),
 * teleports drawn in their frame, and the buffers rebuilt when colliders come and go.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { RapierDebugLines, RapierPhysics } from '@fixedtick/three/rapier';
import { Mesh, MeshBasicMaterial, SphereGeometry } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRapier } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

/** A ball falling with a sideways push, bound to a mesh, with outlines, at 60 Hz. */
function scene() {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const physics = new RapierPhysics(loop, world);
  const body = world.createRigidBody(
    RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 10, 0).setLinvel(3, 0, 0),
  );
  world.createCollider(RAPIER.ColliderDesc.ball(0.5), body);
  const mesh = new Mesh(new SphereGeometry(0.5), new MeshBasicMaterial());
  physics.add(mesh, body);
  const lines = new RapierDebugLines(physics);
  return { world, loop, physics, body, mesh, lines };
}

/** The mean of the outline's points from float `from` to `to` (a ball's: its centre). */
function centre(lines: RapierDebugLines, from = 0, to?: number): number[] {
  const array = lines.geometry.getAttribute('position').array as Float32Array;
  const end = to ?? array.length;
  const sum = [0, 0, 0];
  for (let i = from; i < end; i++) sum[i % 3] += array[i];
  const n = (end - from) / 3;
  return sum.map((s) => s / n);
}

describe('RapierDebugLines: outlines at the drawn pose', () => {
  it('every frame of a 144 Hz display draws the ball outline where the mesh is drawn', () => {
    const { loop, body, mesh, lines } = scene();
    let behind = 0;
    for (let i = 0; i <= 144; i++) {
      loop.frame((i * 1000) / 144);
      const [x, y, z] = centre(lines);
      expect(x).toBeCloseTo(mesh.position.x, 4);
      expect(y).toBeCloseTo(mesh.position.y, 4);
      expect(z).toBeCloseTo(mesh.position.z, 4);
      // world.debugRender() would draw the body at its last step, ahead of the mesh.
      if (body.translation().y < y - 1e-3) behind++;
    }
    expect(behind).toBeGreaterThan(100);
    lines.dispose();
  });

  it('a teleport is drawn in its frame', () => {
    const { loop, physics, mesh, lines } = scene();
    for (let i = 0; i <= 30; i++) loop.frame((i * 1000) / 144);
    physics.teleport(mesh, { x: -4, y: 2, z: 1 });
    loop.frame((31 * 1000) / 144);
    const [x, y, z] = centre(lines);
    expect([x, y, z].map((v) => Math.round(v * 1e4) / 1e4)).toEqual([-4, 2, 1]);
    lines.dispose();
  });

  it('a fixed collider is drawn where it is; a turned cuboid by its corners', () => {
    const { world, loop, lines } = scene();
    const ground = world.createRigidBody(
      RAPIER.RigidBodyDesc.fixed()
        .setTranslation(0, -1, 0)
        .setRotation({ x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 }),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(2, 0.5, 1), ground);
    loop.frame(0);
    const array = lines.geometry.getAttribute('position').array as Float32Array;
    const ballFloats = 3 * 24 * 2 * 3;
    const box = Array.from(array.subarray(ballFloats));
    const xs = box.filter((_, i) => i % 3 === 0);
    const ys = box.filter((_, i) => i % 3 === 1);
    const zs = box.filter((_, i) => i % 3 === 2);
    // Turned a quarter about Y: the 2 m half extent now lies along Z.
    expect(Math.max(...xs)).toBeCloseTo(1, 5);
    expect(Math.max(...zs)).toBeCloseTo(2, 5);
    expect(Math.min(...ys)).toBeCloseTo(-1.5, 5);
    expect(box.length).toBe(12 * 2 * 3);
  });

  it('colliders added and removed rebuild the outlines; dispose stops the updates', () => {
    const { world, loop, lines } = scene();
    loop.frame(0);
    const one = lines.geometry.getAttribute('position').count;
    const extra = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(5, 0, 0));
    const collider = world.createCollider(RAPIER.ColliderDesc.capsule(0.5, 0.25), extra);
    loop.frame(10);
    const two = lines.geometry.getAttribute('position').count;
    expect(two).toBeGreaterThan(one);
    world.removeCollider(collider, false);
    loop.frame(20);
    expect(lines.geometry.getAttribute('position').count).toBe(one);
    lines.dispose();
    const before = centre(lines);
    loop.frame(200);
    expect(centre(lines)).toEqual(before);
  });

  it('a shape outlined from Rapier’s own lines (a rounded cuboid) is drawn as Rapier draws it', () => {
    const { world, loop, lines } = scene();
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.fixed()
        .setTranslation(7, 3, -2)
        .setRotation({ x: 0.5, y: 0.5, z: 0.5, w: 0.5 }),
    );
    const collider = world.createCollider(
      RAPIER.ColliderDesc.roundCuboid(0.5, 0.4, 0.3, 0.1),
      body,
    );
    loop.frame(0);
    const drawn = lines.geometry.getAttribute('position').array as Float32Array;
    const own = world.debugRender(undefined, (c) => c.handle === collider.handle).vertices;
    const ours = drawn.subarray(3 * 24 * 2 * 3);
    expect(ours.length).toBe(own.length);
    let worst = 0;
    for (let i = 0; i < own.length; i++) worst = Math.max(worst, Math.abs(ours[i] - own[i]));
    expect(worst).toBeLessThan(1e-5);
  });
});
