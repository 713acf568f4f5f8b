/**
 * The pile of examples/three-rapier as three.js draws it: the ground, a mesh per box of the wall
 * and one `InstancedMesh` for the heap of spheres (an instance per body, three.js's
 * `physics_rapier_instancing` example), laid out by scene.ts — and what the page measures on
 * them: how far bodies moved, whether a teleport streaked, whether a moving body was drawn twice
 * in one place. The meshes are bound to their bodies by the mode that steps them (RapierPhysics
 * on the main thread, WorkerPhysics in a worker).
 */
import {
  BoxGeometry,
  Color,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  type Scene,
  SphereGeometry,
  Vector3,
} from 'three';
import { BOX, type PileSpot, PROJECTILE_RADIUS, RADIUS } from './scene.ts';

/** Above this many bodies the spheres get fewer triangles (the heap is drawn from afar). */
const DETAILED_UP_TO = 1000;

/** Where the simulation has a body, as each mode reads it (the world, or the published poses). */
export interface BodyReadout {
  /** Steps the positions and speeds reflect: the state after that many steps. */
  readonly steps: number;
  /** Body `id`'s position after the last step, into `target`. */
  position(id: number, target: Vector3): Vector3;
  /**
   * Body `id`'s position in the state after `steps` steps, into `target`, if this side still
   * has it (the newest, or one of the few before it); false if not.
   */
  positionAt(steps: number, id: number, target: Vector3): boolean;
  /** Body `id`'s speed after the last step (m/s). */
  speed(id: number): number;
}

/** One body of the pile: where it starts and where it is drawn. */
export interface PileBody {
  readonly id: number;
  readonly start: Vector3;
  /** Where the body is drawn now (its mesh, or its instance), into `target`. */
  drawn(target: Vector3): Vector3;
}

/** The meshes of the pile, in the order of the layout (ids 0, 1, …). */
export interface PileMeshes {
  readonly bodies: PileBody[];
  /** A mesh per box, with the box's id. */
  readonly boxes: { id: number; mesh: Mesh }[];
  /** The heap: one InstancedMesh, and the id of each instance. */
  readonly spheres: InstancedMesh;
  readonly sphereIds: number[];
}

const instanceMatrix = new Matrix4();

/** The ground, as wide as scene.ts makes it, its top at y = 0. */
export function addGroundMesh(scene: Scene, half: number): void {
  const ground = new Mesh(
    new BoxGeometry(2 * half, 1, 2 * half),
    new MeshLambertMaterial({ color: new Color(0.2, 0.23, 0.3) }),
  );
  ground.position.y = -0.5;
  scene.add(ground);
}

/** The meshes of the pile laid out by `layout`, placed at their starts and added to `scene`. */
export function buildPileMeshes(scene: Scene, layout: readonly PileSpot[]): PileMeshes {
  const boxGeometry = new BoxGeometry(BOX, BOX, BOX);
  const detailed = layout.length <= DETAILED_UP_TO;
  const sphereGeometry = new SphereGeometry(RADIUS, detailed ? 14 : 8, detailed ? 10 : 6);
  const boxMaterials = [0.55, 0.78, 1].map(
    (shade) => new MeshLambertMaterial({ color: new Color(0.95 * shade, 0.55 * shade, 0.3) }),
  );
  const sphereColors = [0.6, 0.85, 1].map((shade) => new Color(0.35, 0.8 * shade, 0.72 * shade));
  const sphereCount = layout.filter((spot) => spot.shape === 'sphere').length;
  const spheres = new InstancedMesh(sphereGeometry, new MeshLambertMaterial(), sphereCount);
  scene.add(spheres);
  const bodies: PileBody[] = [];
  const boxes: { id: number; mesh: Mesh }[] = [];
  const sphereIds: number[] = [];
  layout.forEach((spot, id) => {
    const start = new Vector3(spot.x, spot.y, spot.z);
    if (spot.shape === 'box') {
      const mesh = new Mesh(boxGeometry, boxMaterials[spot.shade]);
      mesh.position.copy(start);
      scene.add(mesh);
      boxes.push({ id, mesh });
      bodies.push({ id, start, drawn: (target) => target.copy(mesh.position) });
    } else {
      const index = sphereIds.length;
      sphereIds.push(id);
      spheres.setColorAt(index, sphereColors[spot.shade]);
      spheres.setMatrixAt(index, instanceMatrix.makeTranslation(start));
      bodies.push({
        id,
        start,
        drawn: (target) => {
          spheres.getMatrixAt(index, instanceMatrix);
          return target.setFromMatrixPosition(instanceMatrix);
        },
      });
    }
  });
  return { bodies, boxes, spheres, sphereIds };
}

const drawnAt = new Vector3();

/** How many bodies are farther than `distance` (m) from where the pile put them. */
export function movedCount(pile: readonly PileBody[], distance: number): number {
  let moved = 0;
  for (const body of pile) if (body.drawn(drawnAt).distanceTo(body.start) > distance) moved++;
  return moved;
}

/**
 * Whether a teleport of the pile was drawn with a streak. A streak is a body drawn on its way
 * back: neither near its start (within how far it got from there in the steps since the
 * teleport) nor, while the picture is still before the teleport's step, where it was just
 * before (RapierPhysics redraws a body at once on a teleport inside the step; WorkerPhysics,
 * drawing a step later, holds the old pose until its picture reaches the teleport's tick). Both
 * are streak-free; a pose lerped from the old place to the new is neither.
 */
export class TeleportReach {
  readonly #pile: readonly PileBody[];
  readonly #readout: BodyReadout;
  readonly #reach: Float64Array;
  readonly #before: Float64Array;
  readonly #at = new Vector3();
  #hasBefore = false;

  constructor(pile: readonly PileBody[], readout: BodyReadout) {
    this.#pile = pile;
    this.#readout = readout;
    this.#reach = new Float64Array(pile.length);
    this.#before = new Float64Array(pile.length * 3);
  }

  /** The teleport put every body on its start: nothing reached yet, the pose before unknown. */
  reset(): void {
    this.#reach.fill(0);
    this.#hasBefore = false;
  }

  /**
   * Keeps each body's pose in the state after `steps` steps (the one before the teleport's
   * step) once the readout has it; true when kept.
   */
  keepBefore(steps: number): boolean {
    if (this.#hasBefore) return true;
    const at = this.#at;
    for (let i = 0; i < this.#pile.length; i++) {
      if (!this.#readout.positionAt(steps, this.#pile[i].id, at)) return false;
      at.toArray(this.#before, i * 3);
    }
    this.#hasBefore = true;
    return true;
  }

  /** After a step from the teleport on: each body's distance from its start extends its reach. */
  record(): void {
    this.#pile.forEach(({ id, start }, i) => {
      this.#readout.position(id, this.#at);
      this.#reach[i] = Math.max(this.#reach[i], this.#at.distanceTo(start));
    });
  }

  /**
   * The most any drawn body lies beyond the farthest of its own poses since the teleport (m) —
   * or, with `holding` (the picture still before the teleport's step), the least of that and its
   * distance from its pose before the teleport. ≤ 0 up to rounding for a picture with no streak;
   * up to metres for a streak.
   */
  excess(holding: boolean): number {
    let excess = Number.NEGATIVE_INFINITY;
    const before = this.#at;
    this.#pile.forEach((body, i) => {
      const drawn = body.drawn(drawnAt);
      let off = drawn.distanceTo(body.start) - this.#reach[i];
      if (holding) off = Math.min(off, drawn.distanceTo(before.fromArray(this.#before, i * 3)));
      excess = Math.max(excess, off);
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
  readonly #readout: BodyReadout;
  readonly #last: Float64Array;
  readonly #at = new Vector3();
  /** Moving bodies looked at, frame after frame. */
  checked = 0;
  /** Of those, drawn where the frame before drew them. */
  repeated = 0;

  constructor(pile: readonly PileBody[], readout: BodyReadout) {
    this.#pile = pile;
    this.#readout = readout;
    this.#last = new Float64Array(pile.length * 3).fill(Number.NaN);
  }

  /** After a frame is drawn: compares each body faster than 1 m/s with the frame before. */
  record(): void {
    const last = this.#last;
    this.#pile.forEach((body, i) => {
      const at = body.drawn(this.#at);
      if (this.#readout.speed(body.id) > 1 && !Number.isNaN(last[i * 3])) {
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

/** The projectile's mesh: a sphere a little larger than the pile's. */
export function projectileMesh(): Mesh {
  return new Mesh(
    new SphereGeometry(PROJECTILE_RADIUS, 18, 12),
    new MeshLambertMaterial({
      color: new Color(0.9, 0.9, 0.95),
      emissive: new Color(0.15, 0.2, 0.25),
    }),
  );
}
