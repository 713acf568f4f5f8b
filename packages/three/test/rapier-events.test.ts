/**
 * Collision and contact force events with real Rapier WASM: drained once per step from the
 * `EventQueue` the world is stepped with, handed to the listeners inside that step (after the
 * world's step, before `postSimulation`), with the bound meshes; a throwing listener loses no
 * event and reaches the loop's `onError`.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { type CollisionEvent, RapierPhysics } from '@fixedtick/three/rapier';
import type { Object3D } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRapier, node } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

/** A ball dropped from 1.5 m onto a static ground, both reporting collision events. */
function drop(withEvents = true) {
  const events = withEvents ? new RAPIER.EventQueue(true) : undefined;
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  const groundCollider = world.createCollider(
    RAPIER.ColliderDesc.cuboid(10, 0.5, 10).setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS),
    ground,
  );
  const ball = world.createRigidBody(
    RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 1.5, 0).setLinvel(0, 0, 0),
  );
  const ballCollider = world.createCollider(
    RAPIER.ColliderDesc.ball(0.5)
      .setRestitution(0.9)
      .setActiveEvents(
        RAPIER.ActiveEvents.COLLISION_EVENTS | RAPIER.ActiveEvents.CONTACT_FORCE_EVENTS,
      )
      .setContactForceEventThreshold(0),
    ball,
  );
  const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
  const physics = new RapierPhysics(loop, world, events === undefined ? {} : { events });
  const ballMesh = node();
  physics.add(ballMesh, ball);
  return { world, loop, physics, ball, ballMesh, ballCollider, groundCollider, events };
}

interface Seen {
  tick: number;
  inStep: boolean;
  started: boolean;
  objects: (Object3D | null)[];
  handles: number[];
}

describe('onCollision', () => {
  it('hands each collision event to the listeners inside its step, with the bound meshes', () => {
    const { loop, physics, ballMesh, ballCollider, groundCollider } = drop();
    const log: string[] = [];
    const seen: Seen[] = [];
    loop.onFixedUpdate((_dt, tick) => log.push(`fixedUpdate ${tick}`));
    loop.onPostSimulation((_dt, tick) => log.push(`postSimulation ${tick}`));
    physics.onCollision((event) => {
      log.push(`collision ${loop.tick}`);
      seen.push({
        tick: loop.tick,
        inStep: loop.inFixedStep,
        started: event.started,
        objects: [event.object1, event.object2],
        handles: [event.collider1.handle, event.collider2.handle].sort(),
      });
    });
    for (let i = 0; i < 144 * 2; i++) loop.advance(1 / 144);
    // the ball bounces: touches the ground, leaves it, touches it again
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.map((s) => s.started).slice(0, 3)).toEqual([true, false, true]);
    for (const s of seen) {
      expect(s.inStep).toBe(true);
      expect(s.handles).toEqual([ballCollider.handle, groundCollider.handle].sort());
      // the ground has no mesh bound, the ball has
      expect(s.objects.filter((o) => o !== null)).toEqual([ballMesh]);
      // delivered after the world's step and before postSimulation of the same tick
      const at = log.indexOf(`collision ${s.tick}`);
      expect(log[at - 1]).toMatch(new RegExp(`^(fixedUpdate|collision) ${s.tick}$`));
      expect(log.slice(at).find((l) => !l.startsWith('collision'))).toBe(
        `postSimulation ${s.tick}`,
      );
    }
    // the first contact happens when the ball reaches the ground: about 0.45 s of fall
    expect(seen[0].tick).toBeGreaterThan(20);
    expect(seen[0].tick).toBeLessThan(35);
  });

  it('delivers every event to every listener even when one throws, then reports the error', () => {
    const { loop, physics } = drop();
    const calm: boolean[] = [];
    const errors: unknown[] = [];
    physics.onCollision(() => {
      throw new Error('listener failed');
    });
    physics.onCollision((event: CollisionEvent) => calm.push(event.started));
    loop.errorPolicy = 'report';
    loop.onError((error, source) => errors.push([source, (error as Error).message]));
    for (let i = 0; i < 144 * 2; i++) loop.advance(1 / 144);
    expect(calm.length).toBeGreaterThanOrEqual(3);
    expect(errors.length).toBe(calm.length);
    expect(errors[0]).toEqual(['adapter.physicsStep', 'listener failed']);
  });

  it('stops calling a listener once unsubscribed', () => {
    const { loop, physics } = drop();
    let calls = 0;
    const off = physics.onCollision(() => calls++);
    while (calls === 0 && loop.tick < 120) loop.advance(1 / 60);
    expect(calls).toBe(1);
    off();
    for (let i = 0; i < 120; i++) loop.advance(1 / 60);
    expect(calls).toBe(1);
  });

  it('needs the events option, and a function', () => {
    const { physics } = drop(false);
    expect(() => physics.onCollision(() => {})).toThrow(/events option/);
    const withQueue = drop();
    expect(() => withQueue.physics.onCollision(42 as never)).toThrow(TypeError);
    expect(() => withQueue.physics.onCollision(42 as never)).toThrow(
      /"onCollision" must be a function, got 42/,
    );
  });

  it('without listeners steps the world with the queue and leaves its events to drain', () => {
    const { loop, events } = drop();
    const drained: boolean[] = [];
    loop.onPostSimulation(() => {
      events?.drainCollisionEvents((_h1, _h2, started) => drained.push(started));
    });
    for (let i = 0; i < 60; i++) loop.advance(1 / 60);
    expect(drained[0]).toBe(true);
  });
});

describe('onContactForce', () => {
  it('hands the contact force events of each step to the listeners, inside the step', () => {
    const { loop, physics, ballMesh } = drop();
    const forces: { tick: number; inStep: boolean; force: number; ball: boolean }[] = [];
    physics.onContactForce((event) => {
      forces.push({
        tick: loop.tick,
        inStep: loop.inFixedStep,
        force: event.raw.totalForceMagnitude(),
        ball: event.object1 === ballMesh || event.object2 === ballMesh,
      });
    });
    for (let i = 0; i < 60; i++) loop.advance(1 / 60);
    expect(forces.length).toBeGreaterThan(0);
    for (const f of forces) {
      expect(f.inStep).toBe(true);
      expect(f.ball).toBe(true);
      expect(f.force).toBeGreaterThan(0);
    }
  });
});
