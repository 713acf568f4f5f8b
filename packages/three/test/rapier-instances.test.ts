/**
 * Rapier bodies bound to instances of an `InstancedMesh` (`physics.addInstance`), with real
 * Rapier WASM, as in three.js's `physics_rapier_instancing` example: every frame of a 144 Hz
 * display draws each instance between its body's last two steps, teleports land in their frame
 * with no streak, a matrix written outside the step moves the body, sleeping bodies are skipped,
 * and what cannot be bound is refused.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics, type RemovedBodyError } from '@fixedtick/three/rapier';
import {
  Group,
  InstancedMesh,
  Matrix4,
  MeshBasicMaterial,
  Quaternion,
  SphereGeometry,
  Vector3,
} from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { groundWorld, loadRapier } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

const matrix = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();

/** Instance `index`'s drawn position. */
function drawn(mesh: InstancedMesh, index: number): Vector3 {
  mesh.getMatrixAt(index, matrix);
  matrix.decompose(position, rotation, scale);
  return position.clone();
}

/** `count` balls falling onto the ground, one instance each, at 60 Hz. */
function balls(count: number) {
  const world = groundWorld();
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const physics = new RapierPhysics(loop, world);
  const mesh = new InstancedMesh(new SphereGeometry(0.25), new MeshBasicMaterial(), count);
  const bodies: RAPIER.RigidBody[] = [];
  for (let i = 0; i < count; i++) {
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.dynamic().setTranslation(
        (i % 10) - 4.5,
        1 + Math.floor(i / 10) * 0.6,
        0,
      ),
    );
    world.createCollider(RAPIER.ColliderDesc.ball(0.25), body);
    physics.addInstance(mesh, i, body);
    bodies.push(body);
  }
  return { world, loop, physics, mesh, bodies };
}

describe('instances driven by bodies', () => {
  it('each is placed on its body at once and keeps its scale', () => {
    const world = groundWorld();
    const physics = new RapierPhysics(new ThreeFixedLoop({ tickRate: 60 }), world);
    const mesh = new InstancedMesh(new SphereGeometry(0.25), new MeshBasicMaterial(), 2);
    mesh.setMatrixAt(1, new Matrix4().makeScale(2, 2, 2));
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(3, 4, 5));
    physics.addInstance(mesh, 1, body);
    mesh.getMatrixAt(1, matrix);
    matrix.decompose(position, rotation, scale);
    expect(position.toArray()).toEqual([3, 4, 5]);
    expect(scale.toArray()).toEqual([2, 2, 2]);
    expect(physics.size).toBe(1);
    expect(physics.instanceBodyOf(mesh, 1)).toBe(body);
    expect(physics.instanceOf(body)).toEqual({ mesh, index: 1 });
  });

  it('at a 144 Hz display every frame draws the lerp of the body’s last two steps', () => {
    const { loop, mesh, bodies } = balls(30);
    const previous = bodies.map((b) => new Vector3().copy(b.translation()));
    const current = bodies.map((b) => new Vector3().copy(b.translation()));
    loop.onPostSimulation(() => {
      bodies.forEach((b, i) => {
        previous[i].copy(current[i]);
        current[i].copy(b.translation());
      });
    });
    let repeated = 0;
    let last = drawn(mesh, 29);
    for (let frame = 1; frame <= 144; frame++) {
      loop.frame((frame * 1000) / 144);
      if (frame < 2) continue;
      for (const i of [0, 15, 29]) {
        const expected = new Vector3().lerpVectors(previous[i], current[i], loop.alpha);
        expect(drawn(mesh, i).distanceTo(expected)).toBeLessThan(1e-5);
      }
      const now = drawn(mesh, 29);
      if (frame > 3 && frame < 60 && now.equals(last)) repeated++;
      last = now;
    }
    // falling for the first 60 frames: no frame repeats the one before
    expect(repeated).toBe(0);
  });

  it('teleportInstance lands in its frame with no streak, and the body is there', () => {
    const { loop, physics, mesh, bodies } = balls(10);
    for (let frame = 0; frame <= 20; frame++) loop.frame((frame * 1000) / 144);
    physics.teleportInstance(mesh, 3, { x: 8, y: 6, z: -2 });
    loop.frame((21 * 1000) / 144);
    expect(drawn(mesh, 3).distanceTo(new Vector3(8, 6, -2))).toBeLessThan(0.15);
    const t = bodies[3].translation();
    expect(Math.abs(t.x - 8) + Math.abs(t.z + 2)).toBeLessThan(1e-5);
    // the frame after: between the teleported pose and the next step, no streak from the pile
    loop.frame((22 * 1000) / 144);
    expect(drawn(mesh, 3).x).toBeCloseTo(8, 4);
  });

  it('a matrix written outside the step moves the body there', () => {
    const { loop, mesh, bodies } = balls(10);
    for (let frame = 0; frame <= 10; frame++) loop.frame((frame * 1000) / 144);
    mesh.setMatrixAt(5, new Matrix4().makeTranslation(-7, 9, 1));
    mesh.instanceMatrix.needsUpdate = true;
    loop.frame((11 * 1000) / 144);
    const t = bodies[5].translation();
    expect(t.x).toBeCloseTo(-7, 4);
    expect(t.z).toBeCloseTo(1, 4);
    expect(t.y).toBeLessThanOrEqual(9);
    expect(t.y).toBeGreaterThan(8.9);
  });

  it('sleeping bodies are not read and their instances rest', () => {
    const { loop, physics } = balls(20);
    for (let frame = 0; frame <= 144 * 6; frame++) loop.frame((frame * 1000) / 144);
    expect(physics.sleepingCount).toBe(20);
    expect(physics.restingCount).toBe(20);
  });

  it('a body removed while bound: its instance is let go of and reported once', () => {
    const { world, loop, physics, mesh, bodies } = balls(5);
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    loop.advance(0.1);
    world.removeRigidBody(bodies[2]);
    for (let i = 0; i < 20; i++) loop.advance(1 / 60);
    expect(errors).toHaveLength(1);
    expect((errors[0] as RemovedBodyError).instances).toEqual([{ mesh, index: 2 }]);
    expect(physics.size).toBe(4);
    expect(() => physics.teleportInstance(mesh, 2, { x: 0, y: 0, z: 0 })).toThrow(RangeError);
  });

  it('removeInstance leaves the instance where its body was at the last step; the body stays', () => {
    const { world, loop, physics, mesh, bodies } = balls(5);
    loop.advance(0.2);
    const body = bodies[1].translation();
    expect(physics.removeInstance(mesh, 1)).toBe(true);
    expect(physics.removeInstance(mesh, 1)).toBe(false);
    const left = drawn(mesh, 1);
    expect(left.x).toBeCloseTo(body.x, 5);
    expect(left.y).toBeCloseTo(body.y, 5);
    loop.advance(0.2);
    expect(drawn(mesh, 1).toArray()).toEqual(left.toArray());
    expect(world.getRigidBody(bodies[1].handle)).toBe(bodies[1]);
    expect(physics.size).toBe(4);
  });
});

describe('what cannot be bound', () => {
  it('a whole InstancedMesh given to add: TypeError pointing at addInstance', () => {
    const world = groundWorld();
    const physics = new RapierPhysics(new ThreeFixedLoop(), world);
    const mesh = new InstancedMesh(new SphereGeometry(), new MeshBasicMaterial(), 4);
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
    expect(() => physics.add(mesh, body)).toThrow(TypeError);
    expect(() => physics.add(mesh, body)).toThrow(/physics\.addInstance\(mesh, index, body\)/);
  });

  it('bad meshes, indices and bodies', () => {
    const world = groundWorld();
    const physics = new RapierPhysics(new ThreeFixedLoop(), world);
    const mesh = new InstancedMesh(new SphereGeometry(), new MeshBasicMaterial(), 4);
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
    expect(() => physics.addInstance(new Group() as never, 0, body)).toThrow(TypeError);
    expect(() => physics.addInstance(mesh, 4, body)).toThrow(
      /"index" must be a whole number from 0 to 3, got 4/,
    );
    expect(() => physics.addInstance(mesh, 0, {} as never)).toThrow(TypeError);
    physics.addInstance(mesh, 0, body);
    expect(() => physics.addInstance(mesh, 1, body)).toThrow(/no other Object3D or instance/);
    const moved = new InstancedMesh(new SphereGeometry(), new MeshBasicMaterial(), 4);
    moved.position.x = 1;
    const other = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
    expect(() => physics.addInstance(moved, 0, other)).toThrow(/untransformed in the world/);
    const parent = new Group();
    parent.rotation.y = 1;
    const child = new InstancedMesh(new SphereGeometry(), new MeshBasicMaterial(), 4);
    parent.add(child);
    expect(() => physics.addInstance(child, 0, other)).toThrow(RangeError);
  });
});
