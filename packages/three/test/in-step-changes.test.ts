/**
 * What may change inside the fixed step, and what a scene removal does, as docs/rapier.md and
 * docs/three.md say: bodies may be created, bound, unbound and removed inside `onFixedUpdate`
 * (the world steps after the listeners, with what they left); an object removed from its scene
 * stays tracked until `untrack` (three.js re-parents by removing and adding, so a `removed` event
 * is no sign that an object is gone).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics } from '@fixedtick/three/rapier';
import { Group, Object3D, Scene } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRapier } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

const STEP = 1 / 60;

describe('bodies added and removed inside the step', () => {
  it('a body created and bound in onFixedUpdate falls from that step on; one unbound and removed there is gone', () => {
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const physics = new RapierPhysics(loop, world);
    const scene = new Scene();
    const mesh = new Object3D();
    scene.add(mesh);
    let body: RAPIER.RigidBody | undefined;
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    loop.onFixedUpdate((_dt, tick) => {
      if (tick === 5) {
        body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 10, 0));
        world.createCollider(RAPIER.ColliderDesc.ball(0.5), body);
        physics.add(mesh, body);
      }
      if (tick === 20 && body !== undefined) {
        physics.remove(mesh);
        world.removeRigidBody(body);
      }
    });
    for (let i = 0; i < 5; i++) loop.advance(STEP);
    expect(world.bodies.len()).toBe(0);
    loop.advance(STEP); // tick 5: created, bound, and stepped in the same step
    expect(world.bodies.len()).toBe(1);
    expect(physics.getSimulationPose(mesh).position[1]).toBeLessThan(10);
    for (let i = 0; i < 14; i++) loop.advance(STEP);
    const y = mesh.position.y;
    expect(y).toBeLessThan(10);
    loop.advance(STEP); // tick 20: unbound and removed before the world steps
    expect(world.bodies.len()).toBe(0);
    expect(physics.isBound(mesh)).toBe(false);
    expect(physics.size).toBe(0);
    for (let i = 0; i < 10; i++) loop.advance(STEP);
    // unbound: left where its body was at the last step it drove, and no error since
    expect(Math.abs(mesh.position.y - y)).toBeLessThan(0.2);
    expect(errors).toEqual([]);
  });
});

describe('an object removed from its scene', () => {
  it('stays tracked, keeps its simulation, and is drawn again where it is when added back', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const scene = new Scene();
    const other = new Group();
    scene.add(other);
    const crate = new Object3D();
    scene.add(crate);
    loop.track(crate);
    loop.onFixedUpdate(() => {
      crate.position.x += 1;
    });
    for (let i = 0; i < 3; i++) loop.advance(STEP);
    scene.remove(crate); // three dispatches 'removed'
    for (let i = 0; i < 3; i++) loop.advance(STEP);
    expect(loop.isTracked(crate)).toBe(true);
    expect(loop.getSimulationPose(crate).position[0]).toBe(6);
    // re-parenting is a 'removed' then an 'added' in three: tracking must survive it
    other.add(crate);
    loop.advance(STEP);
    expect(loop.isTracked(crate)).toBe(true);
    expect(loop.getSimulationPose(crate).position[0]).toBe(7);
    expect(crate.position.x).toBe(6); // drawn interpolated, one step behind, in its new parent
    loop.untrack(crate);
    expect(loop.isTracked(crate)).toBe(false);
  });
});
