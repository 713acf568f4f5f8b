/**
 * `RapierPhysics` and the bodies it drives, with real Rapier WASM: teleports (no streak, the body
 * continues from there), writes to a bound mesh outside the step (each component moves the body
 * on its own), sleeping bodies (not read, meshes not written, counted), extrapolation from
 * Rapier's velocities, and kinematic bodies moved in `fixedUpdate`.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics } from '@fixedtick/three/rapier';
import { Quaternion, Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  angleBetween,
  bodyPose,
  groundWorld,
  loadRapier,
  meshes,
  node,
  pile,
} from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

/** A ball in free fall (no ground), bound to a mesh, at 60 Hz. */
function fallingBall(gravity = -9.81) {
  const world = new RAPIER.World({ x: 0, y: gravity, z: 0 });
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 10, 0));
  world.createCollider(RAPIER.ColliderDesc.ball(0.5), body);
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const physics = new RapierPhysics(loop, world);
  const mesh = node();
  physics.add(mesh, body);
  return { world, body, loop, physics, mesh };
}

describe('the rule: the body is the simulation, the mesh its picture', () => {
  it('inside fixedUpdate the body holds the simulation and the mesh keeps its drawn pose', () => {
    const { body, loop, mesh } = fallingBall();
    for (let i = 0; i < 30; i++) loop.advance(1 / 144);
    const drawn = mesh.position.y;
    const seen: number[][] = [];
    loop.onFixedUpdate(() => seen.push([mesh.position.y, body.translation().y]));
    loop.onPostSimulation(() => seen.push([mesh.position.y, body.translation().y]));
    loop.advance(1 / 60);
    expect(seen.length).toBe(2);
    expect(seen[0][0]).toBe(drawn);
    expect(seen[1][0]).toBe(drawn);
    // the body fell one step between fixedUpdate and postSimulation
    expect(seen[1][1]).toBeLessThan(seen[0][1]);
    expect(drawn).toBeGreaterThan(seen[0][1]); // drawn one step behind the simulation
  });
});

describe('teleport', () => {
  it('shows the new pose in the same frame, with no streak, and the body continues from there', () => {
    const { body, loop, physics, mesh } = fallingBall();
    for (let i = 0; i < 30; i++) loop.advance(1 / 144);
    const before = body.translation();
    const turn = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 1.2);
    const tickAtTeleport = loop.tick;
    physics.teleport(mesh, { x: 40, y: 20, z: -5 }, turn);
    // the very same frame: drawn on the target, and the body is there, awake
    expect(mesh.position.toArray()).toEqual([40, 20, -5]);
    expect(mesh.quaternion.angleTo(turn)).toBeLessThan(1e-7);
    expect(body.translation()).toEqual({ x: 40, y: 20, z: -5 });
    expect(body.isSleeping()).toBe(false);
    const vy = body.linvel().y; // kept: a teleport moves, it does not stop
    // every frame after it lies between the target and the body's later steps: never back
    // towards the pose before the teleport (139.7 m away is what a streak would look like)
    let lastY = 20;
    for (let i = 0; i < 20; i++) {
      loop.advance(1 / 144);
      expect(mesh.position.x).toBe(40);
      expect(mesh.position.z).toBe(-5);
      expect(mesh.position.y).toBeLessThanOrEqual(lastY);
      expect(mesh.position.y).toBeGreaterThan(before.y + 5);
      lastY = mesh.position.y;
    }
    // it fell from the target under gravity, as a body that started there would
    const steps = loop.tick - tickAtTeleport;
    expect(steps).toBe(8);
    const t = body.translation();
    expect(t.y).toBeLessThan(20 + vy * (steps / 60));
    expect(t.y).toBeGreaterThan(20 + vy * (steps / 60) - 9.81 * (steps / 60) ** 2);
  });

  it('inside fixedUpdate moves the body at once; the step starts from there', () => {
    const { body, loop, physics, mesh } = fallingBall(0);
    let teleported = false;
    loop.onFixedUpdate(() => {
      if (loop.tick !== 3 || teleported) return;
      physics.teleport(mesh, { x: -7, y: 1, z: 2 });
      teleported = true;
      expect(body.translation()).toEqual({ x: -7, y: 1, z: 2 });
    });
    for (let i = 0; i < 10; i++) loop.advance(1 / 60);
    expect(teleported).toBe(true);
    expect(body.translation()).toEqual({ x: -7, y: 1, z: 2 });
    expect(mesh.position.toArray()).toEqual([-7, 1, 2]);
  });

  it('rejects a mesh that is not bound and a position that is not finite', () => {
    const { physics, mesh } = fallingBall();
    expect(() => physics.teleport(node(), { x: 0, y: 0, z: 0 })).toThrow(RangeError);
    expect(() => physics.teleport(node(), { x: 0, y: 0, z: 0 })).toThrow(/bound with physics.add/);
    expect(() => physics.teleport(mesh, { x: Number.NaN, y: 0, z: 0 })).toThrow(/position/);
  });
});

describe('writes to a bound mesh outside the step', () => {
  it('a rotation written every frame turns the body and leaves its position alone', () => {
    const turned = fallingBall();
    const untouched = fallingBall();
    const yaw = new Quaternion();
    for (let i = 0; i < 144; i++) {
      // mouse-look: the mesh's rotation written each frame, between frames
      yaw.setFromAxisAngle(new Vector3(0, 1, 0), i * 0.05);
      turned.mesh.quaternion.copy(yaw);
      turned.loop.advance(1 / 144);
      untouched.loop.advance(1 / 144);
      // the body took the rotation (as Rapier's 32-bit floats hold it)
      const q = turned.body.rotation();
      expect(angleBetween([q.x, q.y, q.z, q.w], yaw.toArray())).toBeLessThan(1e-6);
    }
    expect(turned.loop.tick).toBe(60);
    // the fall is the untouched ball's, bit for bit: nothing rolled the position back
    expect(turned.body.translation()).toEqual(untouched.body.translation());
    expect(turned.body.translation().y).toBeLessThan(10 - 4.5);
    expect(turned.mesh.position.y).toBe(untouched.mesh.position.y);
  });

  it('a position written to the mesh moves the body there and keeps its rotation', () => {
    const { body, loop, mesh } = fallingBall(0);
    body.setRotation(new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.5), true);
    loop.advance(1 / 60);
    const rotation = body.rotation();
    mesh.position.set(3, 4, 5);
    loop.advance(1 / 60);
    expect(body.translation()).toEqual({ x: 3, y: 4, z: 5 });
    expect(body.rotation()).toEqual(rotation);
    expect(mesh.position.toArray()).toEqual([3, 4, 5]);
  });
});

describe('sleeping bodies', () => {
  it('are not read and their meshes are not written; both are counted; a teleport wakes one', () => {
    const world = groundWorld();
    const bodies = pile(world, 20, true);
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const physics = new RapierPhysics(loop, world);
    const objects = meshes(20);
    for (const [i, body] of bodies.entries()) physics.add(objects[i], body);
    // count every pose read on the bodies
    let reads = 0;
    for (const body of bodies) {
      const translation = body.translation.bind(body);
      body.translation = (target) => {
        reads++;
        return translation(target);
      };
    }
    let frames = 0;
    while (bodies.some((b) => !b.isSleeping()) && frames < 144 * 30) {
      loop.advance(1 / 144);
      frames++;
    }
    expect(bodies.every((b) => b.isSleeping())).toBe(true);
    loop.advance(1 / 60); // one more step: captured asleep, then at rest
    loop.advance(1 / 144);
    expect(physics.sleepingCount).toBe(20);
    expect(physics.restingCount).toBe(20);
    // a second of frames: no body read, no mesh written (a write would show as a new value)
    const shown = objects.map((o) => [...o.position.toArray(), ...o.quaternion.toArray()]);
    reads = 0;
    for (let i = 0; i < 144; i++) loop.advance(1 / 144);
    expect(reads).toBe(0);
    expect(objects.map((o) => [...o.position.toArray(), ...o.quaternion.toArray()])).toEqual(shown);
    // a sleeping body's mesh shows its body's pose exactly
    for (const [i, body] of bodies.entries()) {
      expect(objects[i].position.toArray()).toEqual(bodyPose(body).slice(0, 3));
    }
    physics.teleport(objects[0], { x: 0, y: 6, z: 0 });
    expect(bodies[0].isSleeping()).toBe(false);
    reads = 0;
    loop.advance(1 / 60);
    // one step: every awake body read once (waking one also wakes what it touched)
    const awake = bodies.filter((b) => !b.isSleeping()).length;
    expect(awake).toBeGreaterThanOrEqual(1);
    expect(physics.sleepingCount).toBe(20 - awake);
    expect(reads).toBe(awake);
    expect(objects[0].position.y).toBeLessThan(6);
  });
});

describe("'extrapolate'", () => {
  it("draws current + Rapier's linvel × alpha × fixedDelta, rotated by its angvel", () => {
    const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.dynamic()
        .setTranslation(0, 1, 0)
        .setLinvel(6, 0, -3)
        .setAngvel({ x: 0, y: 2, z: 0 }),
    );
    world.createCollider(RAPIER.ColliderDesc.ball(0.5), body);
    const loop = new ThreeFixedLoop({ tickRate: 30 });
    const physics = new RapierPhysics(loop, world);
    const mesh = node();
    physics.add(mesh, body, { interpolation: 'extrapolate' });
    let linvelReads = 0;
    const linvel = body.linvel.bind(body);
    body.linvel = (target) => {
      linvelReads++;
      return linvel(target);
    };
    loop.advance(1 / 30); // one step
    loop.advance(1 / 60); // half a step on
    expect(loop.alpha).toBeCloseTo(0.5, 12);
    expect(linvelReads).toBe(1);
    const t = body.translation();
    const v = body.linvel();
    const seconds = 0.5 / 30;
    expect(mesh.position.x).toBeCloseTo(t.x + v.x * seconds, 6);
    expect(mesh.position.y).toBeCloseTo(t.y, 6);
    expect(mesh.position.z).toBeCloseTo(t.z + v.z * seconds, 6);
    // rotation: the body's yaw advanced by angvel × seconds
    const q = body.rotation();
    const ahead = new Quaternion()
      .setFromAxisAngle(new Vector3(0, 1, 0), 2 * seconds)
      .multiply(new Quaternion(q.x, q.y, q.z, q.w));
    expect(angleBetween(mesh.quaternion.toArray(), ahead.toArray())).toBeLessThan(1e-5);
    expect(physics.tracker.modeOf(mesh)).toBe('extrapolate');
  });
});

describe('kinematic bodies', () => {
  it('moved with setNextKinematicTranslation in fixedUpdate are drawn interpolated', () => {
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(0, 1, 0),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const physics = new RapierPhysics(loop, world);
    const mesh = node();
    physics.add(mesh, body);
    const speed = 3; // m/s along x
    const next = { x: 0, y: 1, z: 0 };
    loop.onFixedUpdate((dt) => {
      next.x = body.translation().x + speed * dt;
      body.setNextKinematicTranslation(next);
    });
    const drawn: number[] = [];
    for (let i = 0; i < 144; i++) {
      loop.advance(1 / 144);
      drawn.push(mesh.position.x);
    }
    // one step behind the body, in between steps: x = 3·(tick − 1 + alpha)/60
    expect(body.translation().x).toBeCloseTo(3, 5);
    for (let i = 1; i < drawn.length; i++) expect(drawn[i]).toBeGreaterThanOrEqual(drawn[i - 1]);
    expect(mesh.position.x).toBeCloseTo((speed * (loop.tick - 1 + loop.alpha)) / 60, 5);
    expect(new Set(drawn.map((x) => x.toFixed(6))).size).toBeGreaterThan(100); // smooth, not 60 steps
  });
});
