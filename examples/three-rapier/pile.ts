/**
 * The pile of examples/three-rapier: a ground, a wall of boxes, each a Rapier body with its own
 * three.js mesh bound with `physics.add`, and a heap of spheres dropped beside it, drawn as one
 * `InstancedMesh` whose instances are bound to their bodies with `physics.addInstance` (three.js's
 * `physics_rapier_instancing` example).
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { RapierPhysics } from '@fixedtick/three/rapier';
import {
  BoxGeometry,
  Color,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  Quaternion,
  type Scene,
  SphereGeometry,
  Vector3,
} from 'three';

/** Edge of a box, m. */
const BOX = 0.5;
/** Radius of a sphere, m. */
const RADIUS = 0.26;
const WALL = { wide: 8, high: 6, deep: 3 };
const HEAP = { wide: 6, deep: 6, layers: 4 };

/** One body of the pile and where the teleport puts it back. */
export interface PileBody {
  readonly body: RAPIER.RigidBody;
  readonly start: Vector3;
  /** Where the body is drawn now (its mesh, or its instance), into `target`. */
  drawn(target: Vector3): Vector3;
  /** Puts the body back at its start with no streak (a teleport of its mesh or instance). */
  teleport(physics: RapierPhysics, rotation: Quaternion): void;
}

const instanceMatrix = new Matrix4();

/** A 40 m ground whose top is at y = 0. */
export function addGround(R: typeof RAPIER, world: RAPIER.World, scene: Scene): void {
  const ground = new Mesh(
    new BoxGeometry(40, 1, 40),
    new MeshLambertMaterial({ color: new Color(0.2, 0.23, 0.3) }),
  );
  ground.position.y = -0.5;
  scene.add(ground);
  const body = world.createRigidBody(R.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  world.createCollider(R.ColliderDesc.cuboid(20, 0.5, 20).setFriction(0.8), body);
}

/** The wall of boxes and the heap of spheres, bound to `physics`. */
export function buildPile(
  R: typeof RAPIER,
  world: RAPIER.World,
  scene: Scene,
  physics: RapierPhysics,
): PileBody[] {
  const pile: PileBody[] = [];
  const boxGeometry = new BoxGeometry(BOX, BOX, BOX);
  const sphereGeometry = new SphereGeometry(RADIUS, 14, 10);
  const boxMaterials = [0.55, 0.78, 1].map(
    (shade) => new MeshLambertMaterial({ color: new Color(0.95 * shade, 0.55 * shade, 0.3) }),
  );
  const sphereColors = [0.6, 0.85, 1].map((shade) => new Color(0.35, 0.8 * shade, 0.72 * shade));
  const add = (mesh: Mesh, desc: RAPIER.RigidBodyDesc, collider: RAPIER.ColliderDesc) => {
    scene.add(mesh);
    const body = world.createRigidBody(desc);
    world.createCollider(collider, body);
    physics.add(mesh, body); // places the mesh on its body
    const start = mesh.position.clone();
    pile.push({
      body,
      start,
      drawn: (target) => target.copy(mesh.position),
      teleport: (p, rotation) => p.teleport(mesh, start, rotation),
    });
  };
  for (let y = 0; y < WALL.high; y++) {
    for (let x = 0; x < WALL.wide; x++) {
      for (let z = 0; z < WALL.deep; z++) {
        const desc = R.RigidBodyDesc.dynamic().setTranslation(
          (x - (WALL.wide - 1) / 2) * (BOX + 0.01),
          BOX / 2 + y * (BOX + 0.01),
          z * (BOX + 0.01),
        );
        const material = boxMaterials[(x + y + z) % 3];
        add(
          new Mesh(boxGeometry, material),
          desc,
          R.ColliderDesc.cuboid(BOX / 2, BOX / 2, BOX / 2).setFriction(0.7),
        );
      }
    }
  }
  // The heap: one InstancedMesh, an instance per body (one draw call for all of them).
  const spheres = new InstancedMesh(
    sphereGeometry,
    new MeshLambertMaterial(),
    HEAP.layers * HEAP.wide * HEAP.deep,
  );
  scene.add(spheres);
  let index = 0;
  for (let layer = 0; layer < HEAP.layers; layer++) {
    for (let x = 0; x < HEAP.wide; x++) {
      for (let z = 0; z < HEAP.deep; z++) {
        const start = new Vector3(5 + x * 0.6 + (layer % 2) * 0.2, 0.4 + layer * 0.6, -1 + z * 0.6);
        const body = world.createRigidBody(
          R.RigidBodyDesc.dynamic()
            .setTranslation(start.x, start.y, start.z)
            .setAngularDamping(1.5)
            .setLinearDamping(0.2),
        );
        world.createCollider(R.ColliderDesc.ball(RADIUS).setFriction(0.6), body);
        spheres.setColorAt(index, sphereColors[(x + z + layer) % 3]);
        physics.addInstance(spheres, index, body); // places the instance on its body
        const i = index;
        pile.push({
          body,
          start,
          drawn: (target) => {
            spheres.getMatrixAt(i, instanceMatrix);
            return target.setFromMatrixPosition(instanceMatrix);
          },
          teleport: (p, rotation) => p.teleportInstance(spheres, i, start, rotation),
        });
        index++;
      }
    }
  }
  return pile;
}

const IDENTITY = new Quaternion();
const STILL = { x: 0, y: 0, z: 0 };

/** Puts every body of the pile back where it started, at rest, with no streak. */
export function teleportPile(pile: readonly PileBody[], physics: RapierPhysics): void {
  for (const body of pile) {
    body.teleport(physics, IDENTITY);
    body.body.setLinvel(STILL, true);
    body.body.setAngvel(STILL, true);
  }
}

const drawnAt = new Vector3();

/** How many bodies are farther than `distance` (m) from where the pile put them. */
export function movedCount(pile: readonly PileBody[], distance: number): number {
  let moved = 0;
  for (const body of pile) if (body.drawn(drawnAt).distanceTo(body.start) > distance) moved++;
  return moved;
}

/**
 * How far each body of the pile got from its start in the steps after a teleport, to tell a
 * frame drawn between those steps (no streak) from one drawn on the way back from before it.
 */
export class TeleportReach {
  readonly #pile: readonly PileBody[];
  readonly #reach: Float64Array;
  readonly #at = new Vector3();

  constructor(pile: readonly PileBody[]) {
    this.#pile = pile;
    this.#reach = new Float64Array(pile.length);
  }

  /** The teleport put every body on its start: nothing reached yet. */
  reset(): void {
    this.#reach.fill(0);
  }

  /** After a world step: each body's simulated distance from its start extends its reach. */
  record(): void {
    this.#pile.forEach(({ body, start }, i) => {
      body.translation(this.#at);
      this.#reach[i] = Math.max(this.#reach[i], this.#at.distanceTo(start));
    });
  }

  /**
   * The most any drawn body lies beyond the farthest of its own poses since the teleport (m).
   * A pose lerped between two of those poses lies within that distance of the start (≤ 0 up to
   * rounding); a streak, drawn from where the body was before, lies up to metres beyond it.
   */
  excess(): number {
    let excess = Number.NEGATIVE_INFINITY;
    this.#pile.forEach((body, i) => {
      excess = Math.max(excess, body.drawn(drawnAt).distanceTo(body.start) - this.#reach[i]);
    });
    return excess;
  }
}

/**
 * Frames in which a moving body of the pile was drawn exactly where the frame before drew it: at
 * a display faster than the tick (144 Hz on 60 Hz steps) interpolation draws a moving body
 * somewhere new every frame, steps or not; a repeated pose is the stutter it exists to remove.
 */
export class RepeatWatch {
  readonly #pile: readonly PileBody[];
  readonly #last: Float64Array;
  readonly #at = new Vector3();
  /** Moving bodies looked at, frame after frame. */
  checked = 0;
  /** Of those, drawn where the frame before drew them. */
  repeated = 0;

  constructor(pile: readonly PileBody[]) {
    this.#pile = pile;
    this.#last = new Float64Array(pile.length * 3).fill(Number.NaN);
  }

  /** After a frame is drawn: compares each body faster than 1 m/s with the frame before. */
  record(): void {
    const last = this.#last;
    this.#pile.forEach((body, i) => {
      const at = body.drawn(this.#at);
      const v = body.body.linvel();
      if (Math.hypot(v.x, v.y, v.z) > 1 && !Number.isNaN(last[i * 3])) {
        this.checked++;
        if (at.x === last[i * 3] && at.y === last[i * 3 + 1] && at.z === last[i * 3 + 2]) {
          this.repeated++;
        }
      }
      at.toArray(last, i * 3);
    });
  }

  /** Starts counting afresh. */
  reset(): void {
    this.checked = 0;
    this.repeated = 0;
    this.#last.fill(Number.NaN);
  }
}

/** The largest distance (m) between a body's drawn pose and its start. */
export function farthestFromStart(pile: readonly PileBody[]): number {
  let farthest = 0;
  for (const body of pile)
    farthest = Math.max(farthest, body.drawn(drawnAt).distanceTo(body.start));
  return farthest;
}

/** A sphere of the pile's kind and size, for the projectile. */
export function projectileMesh(): Mesh {
  return new Mesh(
    new SphereGeometry(0.35, 18, 12),
    new MeshLambertMaterial({
      color: new Color(0.9, 0.9, 0.95),
      emissive: new Color(0.15, 0.2, 0.25),
    }),
  );
}

/** World-space direction `yaw` radians about +y from -z (three's forward). */
export function forward(yaw: number, target: Vector3): Vector3 {
  return target.set(-Math.sin(yaw), 0, -Math.cos(yaw));
}
