/**
 * The worlds of the Rapier benchmarks: a real Rapier pile that tumbles for seconds (the worker
 * suite's), a real Rapier cloud of bodies that fall, drift and spin (the binding's at scale), and a
 * stand-in world that moves its bodies in plain JavaScript through the same API, for measuring
 * what the binding itself allocates (Rapier's own calls allocate; see the suite's doc).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import type {
  RapierCollider,
  RapierRigidBody,
  RapierRotation,
  RapierVector,
  RapierWorld,
} from '../../packages/three/src/entries/rapier.ts';

/** A deterministic pseudo-random number in [-1, 1) (same scene every run). */
export function noise(i: number, k: number): number {
  const x = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
  return (x - Math.floor(x)) * 2 - 1;
}

/**
 * Body `i` of a benchmark world, at `at` moving with `velocity`, spinning (up to ±4 rad/s per
 * axis): a box for even `i`, a sphere for odd, each 1 m across.
 */
function spinningBody(
  world: RAPIER.World,
  i: number,
  at: RapierVector,
  velocity: RapierVector,
): RAPIER.RigidBody {
  const desc = RAPIER.RigidBodyDesc.dynamic()
    .setTranslation(at.x, at.y, at.z)
    .setAngvel({ x: 4 * noise(i, 1), y: 4 * noise(i, 2), z: 4 * noise(i, 3) })
    .setLinvel(velocity.x, velocity.y, velocity.z);
  const body = world.createRigidBody(desc);
  const shape =
    i % 2 === 0 ? RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5) : RAPIER.ColliderDesc.ball(0.5);
  world.createCollider(shape, body);
  return body;
}

/**
 * `count` bodies, boxes and spheres alternating, in 10 layers 2.5 m apart (a grid of 1.6 m
 * cells, 10 × 10 a layer for 1 000 bodies, 23 × 22 for 5 000: the same pile, wider), each
 * spinning (up to ±4 rad/s per axis) and drifting, over a 120 m ground: the lower layers land
 * and tumble while the upper ones still fall onto them.
 */
export function tumblingPile(count: number): { world: RAPIER.World; bodies: RAPIER.RigidBody[] } {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  world.createCollider(RAPIER.ColliderDesc.cuboid(60, 0.5, 60), ground);
  const perLayer = Math.ceil(count / 10);
  const wide = Math.ceil(Math.sqrt(perLayer));
  const bodies: RAPIER.RigidBody[] = [];
  for (let i = 0; i < count; i++) {
    const cell = i % perLayer;
    const at = {
      x: (cell % wide) * 1.6 - wide * 0.8,
      y: 2 + Math.floor(i / perLayer) * 2.5,
      z: Math.floor(cell / wide) * 1.6 - wide * 0.8,
    };
    bodies.push(spinningBody(world, i, at, { x: noise(i, 4), y: 0, z: noise(i, 5) }));
  }
  return { world, bodies };
}

/**
 * `count` bodies, boxes and spheres alternating, on a cubic grid of 3 m cells, each falling,
 * spinning (up to ±4 rad/s per axis) and drifting (up to ±0.2 m/s per axis): every pose
 * component of every body changes at every step and no body sleeps, while no two ever touch
 * over the measured seconds (a drift of 0.4 m/s at most between neighbours 2 m apart) — so that
 * Rapier's own step stays affordable at 50 000 bodies (about 1.5–2 µs per body; a pile whose
 * bodies collide costs it 30 µs per body and more once it lands). What the binding does per
 * body does not depend on contacts.
 */
export function fallingCloud(count: number): { world: RAPIER.World; bodies: RAPIER.RigidBody[] } {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const bodies: RAPIER.RigidBody[] = [];
  for (let i = 0; i < count; i++) {
    const [x, y, z] = cloudCell(i, count);
    const drift = { x: 0.2 * noise(i, 4), y: 0.2 * noise(i, 5), z: 0.2 * noise(i, 6) };
    bodies.push(spinningBody(world, i, { x, y, z }, drift));
  }
  return { world, bodies };
}

/** Where body `i` of a cloud of `count` starts: a cell of a cubic grid of 3 m cells. */
export function cloudCell(i: number, count: number): [number, number, number] {
  const wide = Math.ceil(Math.cbrt(count));
  return [(i % wide) * 3, Math.floor(i / (wide * wide)) * 3, (Math.floor(i / wide) % wide) * 3];
}

/** A body of the stand-in world: its pose and velocity in a typed array. */
class StandInBody implements RapierRigidBody {
  readonly handle: number;
  /** Position x y z, quaternion x y z w, linear velocity x y z, spin rate about y (rad/s). */
  readonly state = new Float64Array(11);

  constructor(handle: number) {
    this.handle = handle;
    const s = this.state;
    s[0] = (handle % 10) * 1.6 - 8.3;
    s[1] = 2.7 + Math.floor(handle / 100) * 2.5;
    s[2] = (Math.floor(handle / 10) % 10) * 1.6 - 8.1;
    s[6] = 1;
    s[7] = noise(handle, 4);
    s[8] = 0.5 + noise(handle, 1);
    s[9] = noise(handle, 5);
    s[10] = 4 * noise(handle, 2);
  }
  translation(target: RapierVector): RapierVector {
    const s = this.state;
    target.x = s[0];
    target.y = s[1];
    target.z = s[2];
    return target;
  }
  rotation(target: RapierRotation): RapierRotation {
    const s = this.state;
    target.x = s[3];
    target.y = s[4];
    target.z = s[5];
    target.w = s[6];
    return target;
  }
  linvel(target: RapierVector): RapierVector {
    const s = this.state;
    target.x = s[7];
    target.y = s[8];
    target.z = s[9];
    return target;
  }
  angvel(target: RapierVector): RapierVector {
    target.x = 0;
    target.y = this.state[10];
    target.z = 0;
    return target;
  }
  isSleeping(): boolean {
    return false;
  }
  setTranslation(translation: RapierVector): void {
    const s = this.state;
    s[0] = translation.x;
    s[1] = translation.y;
    s[2] = translation.z;
  }
  setRotation(rotation: RapierRotation): void {
    const s = this.state;
    s[3] = rotation.x;
    s[4] = rotation.y;
    s[5] = rotation.z;
    s[6] = rotation.w;
  }
  /** One step: drift along the velocity, turn about y. */
  advance(dt: number, time: number): void {
    const s = this.state;
    s[0] += s[7] * dt;
    s[1] += s[8] * dt;
    s[2] += s[9] * dt;
    const half = (s[10] * time) / 2;
    s[4] = Math.sin(half);
    s[6] = Math.cos(half);
  }
}

/**
 * A world of `count` stand-in bodies moved by plain JavaScript (every pose component changes
 * at every step, none is a small integer): `RapierPhysics` runs on it as on Rapier, while the
 * world itself allocates nothing.
 */
export class StandInWorld implements RapierWorld {
  timestep = 1 / 60;
  readonly bodies: StandInBody[];
  #time = 0;

  constructor(count: number) {
    this.bodies = Array.from({ length: count }, (_, i) => new StandInBody(i));
  }
  step(): void {
    this.#time += this.timestep;
    const bodies = this.bodies;
    for (let i = 0; i < bodies.length; i++) bodies[i].advance(this.timestep, this.#time);
  }
  getCollider(): RapierCollider | null {
    return null;
  }
  getRigidBody(handle: number): RapierRigidBody | null {
    return this.bodies[handle] ?? null;
  }
}
