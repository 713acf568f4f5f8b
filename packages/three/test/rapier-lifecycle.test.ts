/**
 * `RapierPhysics`'s API with real Rapier WASM: bad input gets a clear error and changes nothing;
 * `add` places the mesh on its body, a second `add` changes the mode or the body; `remove`,
 * `getSimulationPose`, `defaultInterpolation`, `dispose` and the loop's own `dispose`.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { FixedLoop, ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics } from '@fixedtick/three/rapier';
import { Quaternion, Scene, Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRapier, node } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

function ball(world: RAPIER.World, x: number, y: number): RAPIER.RigidBody {
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, y, 0));
  world.createCollider(RAPIER.ColliderDesc.ball(0.5), body);
  return body;
}

function setup() {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const physics = new RapierPhysics(loop, world);
  return { world, loop, physics };
}

describe('new RapierPhysics(loop, world, options)', () => {
  it('names what is wrong with a bad loop, world or option', () => {
    const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
    const loop = new FixedLoop();
    expect(() => new RapierPhysics({} as never, world)).toThrow(TypeError);
    expect(() => new RapierPhysics({} as never, world)).toThrow(
      'fixedtick: option "loop" must be a FixedLoop (ThreeFixedLoop), got [object Object]',
    );
    expect(() => new RapierPhysics(loop, {} as never)).toThrow(
      'fixedtick: option "world" must be a Rapier World, got [object Object]',
    );
    expect(() => new RapierPhysics(loop, world, null as never)).toThrow(RangeError);
    expect(() => new RapierPhysics(loop, world, { tickRate: 60 } as never)).toThrow(
      'fixedtick: unknown option "tickRate" (known: defaultInterpolation, events)',
    );
    expect(() => new RapierPhysics(loop, world, { events: {} as never })).toThrow(TypeError);
    expect(
      () => new RapierPhysics(loop, world, { defaultInterpolation: 'smooth' as never }),
    ).toThrow(RangeError);
  });

  it('works on a plain FixedLoop too (no ThreeFixedLoop needed)', () => {
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const loop = new FixedLoop({ tickRate: 50 });
    const physics = new RapierPhysics(loop, world);
    const mesh = node();
    physics.add(mesh, ball(world, 0, 5));
    for (let i = 0; i < 25; i++) loop.advance(1 / 50);
    expect(physics.steps).toBe(25);
    expect(mesh.position.y).toBeLessThan(5);
  });
});

describe('add', () => {
  it('places the mesh on its body (position and rotation) and keeps the mesh’s scale', () => {
    const { world, physics } = setup();
    const body = ball(world, 3, 4);
    const turn = new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.3);
    body.setRotation(turn, true);
    const mesh = node();
    mesh.scale.set(2, 3, 4);
    physics.add(mesh, body);
    expect(mesh.position.toArray()).toEqual([3, 4, 0]);
    const q = body.rotation();
    expect(mesh.quaternion.toArray()).toEqual([q.x, q.y, q.z, q.w]);
    expect(mesh.scale.toArray()).toEqual([2, 3, 4]);
    expect(physics.isBound(mesh)).toBe(true);
    expect(physics.bodyOf(mesh)).toBe(body);
    expect(physics.objectOf(body)).toBe(mesh);
    expect(physics.size).toBe(1);
  });

  it('rejects bad input with a clear error and binds nothing', () => {
    const { world, loop, physics } = setup();
    const other = new RAPIER.World({ x: 0, y: 0, z: 0 });
    const body = ball(world, 0, 1);
    const mesh = node();
    expect(() => physics.add({} as never, body)).toThrow(TypeError);
    expect(() => physics.add({} as never, body)).toThrow(
      'fixedtick: object3d must be a three.js Object3D, got a plain object',
    );
    expect(() => physics.add(mesh, {} as never)).toThrow(
      'fixedtick: rigidBody must be a Rapier RigidBody, got a plain object',
    );
    expect(() => physics.add(mesh, ball(other, 0, 0))).toThrow(
      /"rigidBody" must be a rigid body of this physics world/,
    );
    expect(() => physics.add(mesh, body, { interpolation: 'smooth' as never })).toThrow(RangeError);
    const tracked = node();
    loop.track(tracked);
    expect(() => physics.add(tracked, body)).toThrow(/does not track/);
    expect(physics.size).toBe(0);
    expect(mesh.position.toArray()).toEqual([0, 0, 0]); // not placed either
    physics.add(mesh, body);
    expect(() => physics.add(node(), body)).toThrow(/no other Object3D or instance is bound to/);
  });

  it('again changes the mode, or moves the mesh to another body with no streak', () => {
    const { world, loop, physics } = setup();
    const first = ball(world, 0, 10);
    const second = ball(world, 20, 10);
    const mesh = node();
    physics.add(mesh, first);
    physics.add(mesh, first, { interpolation: 'none' });
    expect(physics.tracker.modeOf(mesh)).toBe('none');
    loop.advance(1 / 60);
    physics.add(mesh, second);
    expect(physics.bodyOf(mesh)).toBe(second);
    expect(physics.objectOf(first)).toBeUndefined();
    expect(mesh.position.x).toBe(20);
    loop.advance(1 / 120);
    expect(mesh.position.x).toBe(20); // interpolated from the second body's pose, not the first's
    expect(physics.tracker.modeOf(mesh)).toBe('interpolate');
  });
});

describe('remove', () => {
  it('leaves the mesh where its body was at the last step; later steps do not move it', () => {
    const { world, loop, physics } = setup();
    const body = ball(world, 0, 10);
    const mesh = node();
    physics.add(mesh, body);
    for (let i = 0; i < 30; i++) loop.advance(1 / 144);
    expect(physics.remove(mesh)).toBe(true);
    expect(mesh.position.y).toBe(body.translation().y);
    const y = mesh.position.y;
    for (let i = 0; i < 30; i++) loop.advance(1 / 144);
    expect(mesh.position.y).toBe(y);
    expect(body.translation().y).toBeLessThan(y); // the body goes on falling in the world
    expect(physics.remove(mesh)).toBe(false);
    expect(physics.size).toBe(0);
  });

  it('first moves the body to a pose written to the mesh since the last frame', () => {
    const { world, loop, physics } = setup();
    const body = ball(world, 0, 10);
    const mesh = node();
    physics.add(mesh, body);
    loop.advance(1 / 60);
    mesh.position.set(-3, 2, 1);
    physics.remove(mesh);
    expect(body.translation()).toEqual({ x: -3, y: 2, z: 1 });
  });
});

describe('getSimulationPose and defaultInterpolation', () => {
  it('gives the body pose of the last step, in world space', () => {
    const { world, loop, physics } = setup();
    const body = ball(world, 1, 10);
    const mesh = node();
    physics.add(mesh, body);
    for (let i = 0; i < 10; i++) loop.advance(1 / 144);
    const pose = physics.getSimulationPose(mesh);
    const t = body.translation();
    expect(pose.position).toEqual([t.x, t.y, t.z]);
    expect(mesh.position.y).toBeGreaterThan(t.y); // drawn one step behind
    expect(() => physics.getSimulationPose(node())).toThrow(/bound with physics.add/);
  });

  it('switches every body added without a mode at once', () => {
    const { world, physics } = setup();
    const follows = node();
    const fixed = node();
    physics.add(follows, ball(world, 0, 1));
    physics.add(fixed, ball(world, 2, 1), { interpolation: 'interpolate' });
    physics.defaultInterpolation = 'extrapolate';
    expect(physics.defaultInterpolation).toBe('extrapolate');
    expect(physics.tracker.modeOf(follows)).toBe('extrapolate');
    expect(physics.tracker.modeOf(fixed)).toBe('interpolate');
    expect(() => {
      physics.defaultInterpolation = 'fast' as never;
    }).toThrow(RangeError);
  });
});

describe('dispose', () => {
  it('stops stepping the world and unbinds every mesh, once', () => {
    const { world, loop, physics } = setup();
    const body = ball(world, 0, 10);
    const mesh = node();
    new Scene().add(mesh);
    physics.add(mesh, body);
    loop.advance(1 / 60);
    physics.dispose();
    physics.dispose();
    const y = body.translation().y;
    for (let i = 0; i < 30; i++) loop.advance(1 / 60);
    expect(loop.tick).toBe(31);
    expect(physics.steps).toBe(1);
    expect(body.translation().y).toBe(y);
    expect(physics.size).toBe(0);
    expect(() => physics.add(mesh, body)).toThrow(/disposed/);
  });

  it('follows the loop’s dispose', () => {
    const { world, loop, physics } = setup();
    const mesh = node();
    physics.add(mesh, ball(world, 0, 3));
    loop.dispose();
    expect(physics.size).toBe(0);
    expect(() => physics.add(node(), ball(world, 1, 1))).toThrow(/disposed/);
  });
});
