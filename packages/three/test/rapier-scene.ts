/**
 * Real Rapier worlds for the `@fixedtick/three/rapier` tests: the WASM module (the compat build
 * inlines it, so it loads in Node as in a browser), a pile of boxes and spheres on a ground, and
 * frames fed at a simulated display rate.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import type { FixedLoop } from '@fixedtick/core';
import { Mesh, MeshBasicMaterial, Object3D, SphereGeometry } from 'three';

let ready: Promise<typeof RAPIER> | undefined;

/** Rapier, initialised once per test file. */
export function loadRapier(): Promise<typeof RAPIER> {
  ready ??= RAPIER.init().then(() => RAPIER);
  return ready;
}

/** A world with Earth's gravity and a 40 m ground whose top is at y = 0. */
export function groundWorld(): RAPIER.World {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  world.createCollider(RAPIER.ColliderDesc.cuboid(20, 0.5, 20), ground);
  return world;
}

/**
 * `count` dynamic bodies in a 5-wide, 2-deep stack of layers 1.2 m apart: boxes and spheres
 * alternating, each given its own spin so that the pile tumbles as it falls and lands; with
 * `settles`, boxes only and no spin (a pile that comes to rest and falls asleep: spheres would
 * roll on).
 */
export function pile(world: RAPIER.World, count: number, settles = false): RAPIER.RigidBody[] {
  const bodies: RAPIER.RigidBody[] = [];
  for (let i = 0; i < count; i++) {
    const layer = Math.floor(i / 10);
    const desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(
      (i % 5) * 1.2 - 2.4,
      0.6 + layer * 1.2,
      (Math.floor(i / 5) % 2) * 1.2,
    );
    if (!settles) desc.setAngvel({ x: Math.sin(i), y: Math.cos(i * 1.3), z: Math.sin(i * 0.7) });
    const body = world.createRigidBody(desc);
    const sphere = i % 2 === 1 && !settles;
    const shape = sphere
      ? RAPIER.ColliderDesc.ball(0.5)
      : RAPIER.ColliderDesc.cuboid(0.45, 0.45, 0.45);
    world.createCollider(shape, body);
    bodies.push(body);
  }
  return bodies;
}

/** A plain mesh per body (a sphere: its geometry does not matter to the tracking). */
export function meshes(count: number): Object3D[] {
  const geometry = new SphereGeometry(0.5);
  const material = new MeshBasicMaterial();
  return Array.from({ length: count }, () => new Mesh(geometry, material));
}

/** A body's world pose as plain numbers: translation then rotation quaternion. */
export function bodyPose(body: RAPIER.RigidBody): number[] {
  const t = body.translation();
  const q = body.rotation();
  return [t.x, t.y, t.z, q.x, q.y, q.z, q.w];
}

/**
 * Feeds `loop` `seconds` of frames of a `rate` Hz display through `loop.frame(timestampMs)` (the
 * first frame sets the origin), timestamps computed from the frame index; `each` runs after each
 * frame. Returns the frames fed.
 */
export function display(
  loop: FixedLoop,
  rate: number,
  seconds: number,
  each?: (frame: number) => void,
): number {
  const frames = Math.round(rate * seconds);
  for (let i = 0; i <= frames; i++) {
    loop.frame((i * 1000) / rate);
    each?.(i);
  }
  return frames + 1;
}

/**
 * The angle (rad) between two rotation quaternions `[x, y, z, w]`, accurate for tiny angles and
 * for quaternions normalised in 32-bit floats (as Rapier's are): `2·atan2(|v|, |w|)` of the
 * relative rotation `conj(a)·b`.
 */
export function angleBetween(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [ax, ay, az, aw] = [-a[0], -a[1], -a[2], a[3]];
  const [bx, by, bz, bw] = [b[0], b[1], b[2], b[3]];
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  return 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
}

/** A fresh empty Object3D (for parents and plain bound nodes). */
export function node(): Object3D {
  return new Object3D();
}
