/**
 * A body's mesh under a moving, turned, scaled group, with real Rapier WASM: Rapier simulates
 * in world space, the mesh is stored in the group's; every frame the mesh's world pose is its
 * body's interpolated world pose, wherever the group went in the frame (fixedUpdate, update,
 * lateUpdate), and a pose written to the mesh in the group's space teleports the body to the
 * matching world pose.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { lerp, slerp, ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics } from '@fixedtick/three/rapier';
import { Group, Quaternion, Scene, Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { angleBetween, bodyPose, loadRapier, node } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

function setup() {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const body = world.createRigidBody(
    RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(2, 8, -1)
      .setAngvel({ x: 0.5, y: 3, z: 0 })
      .setLinvel(1, 2, 0),
  );
  world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
  const scene = new Scene();
  const ship = new Group();
  ship.position.set(5, 1, 3);
  ship.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.7);
  ship.scale.setScalar(2);
  scene.add(ship);
  const crate = node();
  ship.add(crate);
  const loop = new ThreeFixedLoop({ tickRate: 30 });
  const physics = new RapierPhysics(loop, world);
  physics.add(crate, body);
  return { world, body, scene, ship, crate, loop, physics };
}

function worldPose(object: ReturnType<typeof node>): number[] {
  object.updateWorldMatrix(true, false);
  const p = new Vector3();
  const q = new Quaternion();
  object.matrixWorld.decompose(p, q, new Vector3());
  return [...p.toArray(), ...q.toArray()];
}

describe('a bound mesh under a moving group', () => {
  it('is placed on its body when added, in the group’s space', () => {
    const { body, crate } = setup();
    const drawn = worldPose(crate);
    const expected = bodyPose(body);
    for (let k = 0; k < 3; k++) expect(drawn[k]).toBeCloseTo(expected[k], 5);
    expect(angleBetween(drawn.slice(3), expected.slice(3))).toBeLessThan(1e-6);
  });

  it('shows its body’s interpolated world pose every frame, wherever the group moves', () => {
    const { body, ship, crate, loop } = setup();
    let previous = bodyPose(body);
    let current = previous;
    loop.onPostSimulation(() => {
      previous = current;
      current = bodyPose(body);
    });
    // the ship sails in fixedUpdate, bobs per frame in update and yaws in lateUpdate
    loop.onFixedUpdate((dt) => {
      ship.position.x += 4 * dt;
    });
    loop.onUpdate((_delta) => {
      ship.position.y = 1 + Math.sin(loop.time * 3);
    });
    loop.onLateUpdate(() => {
      ship.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.7 + loop.time);
    });
    let frames = 0;
    for (let i = 0; i < 144; i++) {
      loop.advance(1 / 144);
      const alpha = loop.alpha;
      const expected = [
        lerp(previous[0], current[0], alpha),
        lerp(previous[1], current[1], alpha),
        lerp(previous[2], current[2], alpha),
        0,
        0,
        0,
        1,
      ];
      slerp(expected, 3, previous, 3, current, 3, alpha);
      const drawn = worldPose(crate);
      for (let k = 0; k < 3; k++) expect(drawn[k]).toBeCloseTo(expected[k], 5);
      expect(angleBetween(drawn.slice(3), expected.slice(3))).toBeLessThan(1e-5);
      frames++;
    }
    expect(frames).toBe(144);
    expect(loop.tick).toBe(30);
    // the body itself fell and spun in world space, untouched by the ship's motion
    expect(body.translation().y).toBeLessThan(8);
  });

  it('a position written to the mesh in the group’s space teleports the body to that world point', () => {
    const { body, ship, crate, loop } = setup();
    loop.advance(1 / 30);
    crate.position.set(1, 0.5, 0);
    loop.advance(1 / 30);
    // Rapier stepped the body once from the teleport target: where the group puts that point
    const target = ship.localToWorld(new Vector3(1, 0.5, 0));
    const t = body.translation();
    expect(Math.hypot(t.x - target.x, t.y - target.y, t.z - target.z)).toBeLessThan(0.2);
    // drawn at the target in the frame after the write (its interpolation restarted there)
    const drawn = worldPose(crate);
    expect(Math.hypot(drawn[0] - target.x, drawn[1] - target.y, drawn[2] - target.z)).toBeLessThan(
      1e-5,
    );
  });

  it('teleport() takes the mesh’s own (group) space, like writing its position', () => {
    const { body, ship, crate, physics } = setup();
    physics.teleport(crate, { x: -1, y: 2, z: 0.5 });
    const target = ship.localToWorld(new Vector3(-1, 2, 0.5));
    const t = body.translation();
    expect(t.x).toBeCloseTo(target.x, 5);
    expect(t.y).toBeCloseTo(target.y, 5);
    expect(t.z).toBeCloseTo(target.z, 5);
    // drawn there at once (converted to world space and back: exact to a rounding step)
    expect(crate.position.x).toBeCloseTo(-1, 12);
    expect(crate.position.y).toBeCloseTo(2, 12);
    expect(crate.position.z).toBeCloseTo(0.5, 12);
  });
});
