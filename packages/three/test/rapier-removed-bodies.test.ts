/**
 * A Rapier body removed from the world while a mesh is still bound to it, with real Rapier WASM:
 * found before any call on it (such a call traps Rapier's WASM, and every later `world.step`
 * fails), reported once through `onError` with its mesh, unbound, and the world steps on.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics, RemovedBodyError } from '@fixedtick/three/rapier';
import { beforeAll, describe, expect, it } from 'vitest';
import { groundWorld, loadRapier, meshes, pile } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

/** Four falling bodies bound to meshes, errors collected. */
function scene() {
  const world = groundWorld();
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const physics = new RapierPhysics(loop, world);
  const bodies = pile(world, 4).map((body) => {
    body.setTranslation({ ...body.translation(), y: body.translation().y + 5 }, true);
    return body;
  });
  const objects = meshes(4);
  objects.forEach((object, i) => {
    object.name = `crate ${i}`;
    physics.add(object, bodies[i]);
  });
  const errors: { error: unknown; source: string }[] = [];
  loop.onError((error, source) => errors.push({ error, source }));
  return { world, loop, physics, bodies, objects, errors };
}

describe('a body removed while bound', () => {
  it('between frames: reported once with its mesh, unbound, the other bodies go on falling', () => {
    const { world, loop, physics, bodies, objects, errors } = scene();
    loop.advance(0.1);
    world.removeRigidBody(bodies[1]);
    const before = objects[0].position.y;
    for (let i = 0; i < 60; i++) loop.advance(1 / 60);
    expect(errors).toHaveLength(1);
    const [{ error, source }] = errors;
    expect(source).toBe('adapter.beginFrame');
    expect(error).toBeInstanceOf(RemovedBodyError);
    expect((error as RemovedBodyError).objects).toEqual([objects[1]]);
    expect((error as Error).message).toMatch(/"crate 1".*physics\.remove\(mesh\) before/);
    expect(physics.isBound(objects[1])).toBe(false);
    expect(physics.size).toBe(3);
    expect(objects[0].position.y).toBeLessThan(before - 0.5);
    expect(bodies[0].translation().y).toBeCloseTo(objects[0].position.y, 1);
  });

  it('inside fixedUpdate: found before the world steps, before anything reads it', () => {
    const { world, loop, physics, bodies, objects, errors } = scene();
    loop.advance(0.1);
    let removed = false;
    loop.onFixedUpdate(() => {
      if (removed) return;
      removed = true;
      world.removeRigidBody(bodies[2]);
      world.removeRigidBody(bodies[3]);
    });
    for (let i = 0; i < 30; i++) loop.advance(1 / 60);
    expect(errors.map((e) => e.source)).toEqual(['adapter.physicsStep']);
    expect((errors[0].error as RemovedBodyError).objects).toEqual([objects[2], objects[3]]);
    expect((errors[0].error as Error).message).toMatch(/^fixedtick: 2 Rapier bodies were removed/);
    expect(physics.size).toBe(2);
    expect(physics.steps).toBe(36);
  });

  it('a new body in the removed one’s place is not taken for it', () => {
    const { world, loop, physics, bodies, objects, errors } = scene();
    loop.advance(0.1);
    world.removeRigidBody(bodies[0]);
    const newcomer = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
    expect(newcomer.handle).not.toBe(bodies[0].handle);
    loop.advance(1 / 60);
    expect(errors).toHaveLength(1);
    expect(physics.isBound(objects[0])).toBe(false);
    physics.add(objects[0], newcomer);
    loop.advance(1 / 60);
    expect(errors).toHaveLength(1);
  });

  it('teleport throws the error at once; remove lets go without a call on the body', () => {
    const { world, loop, physics, bodies, objects, errors } = scene();
    loop.advance(0.1);
    world.removeRigidBody(bodies[0]);
    world.removeRigidBody(bodies[1]);
    expect(() => physics.teleport(objects[0], { x: 0, y: 3, z: 0 })).toThrow(RemovedBodyError);
    objects[1].position.y = 40; // a write outside the step would move the body
    expect(physics.remove(objects[1])).toBe(true);
    for (let i = 0; i < 10; i++) loop.advance(1 / 60);
    expect(errors).toEqual([]);
    expect(physics.size).toBe(2);
    expect(physics.steps).toBe(16);
  });

  it('a collider removed from a bound body with collision events on: no error', () => {
    const world = groundWorld();
    const events = new RAPIER.EventQueue(true);
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const physics = new RapierPhysics(loop, world, { events });
    const [body] = pile(world, 1);
    const collider = body.collider(0);
    collider.setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS);
    const [mesh] = meshes(1);
    physics.add(mesh, body);
    const seen: boolean[] = [];
    physics.onCollision((event) => seen.push(event.started));
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    for (let i = 0; i < 30; i++) loop.advance(1 / 60);
    expect(seen).toContain(true);
    world.removeCollider(collider, true);
    for (let i = 0; i < 30; i++) loop.advance(1 / 60);
    expect(errors).toEqual([]);
    expect(physics.steps).toBe(60);
    events.free();
  });
});
