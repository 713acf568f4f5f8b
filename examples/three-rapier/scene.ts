/**
 * The world of examples/three-rapier, in Rapier alone (no three.js, no DOM): the ground, the pile
 * of `count` bodies (a wall of boxes and a heap of spheres), the projectile and the walker's
 * capsule, created in one fixed order. The page builds it on the main thread (RapierPhysics) and
 * the worker module builds it in the worker: the same calls in the same order make the same
 * world, bit for bit, so both modes step the same simulation.
 */
import type RAPIER from '@dimforge/rapier3d-compat';

/** Edge of a box, m. */
export const BOX = 0.5;
/** Radius of a sphere, m. */
export const RADIUS = 0.26;
/** The wall of boxes: 8 wide, 6 high, 3 deep (144 boxes, whatever the count). */
const WALL = { wide: 8, high: 6, deep: 3 };
/** Columns of the heap at its smallest; it widens so that it stays about 8 layers high. */
const HEAP_SIDE = 6;
const HEAP_LAYERS = 8;
/** Spacing of the heap's spheres, m. */
const HEAP_GAP = 0.6;
/** Bodies in the pile: the default, the fewest and the most the page offers. */
export const PILE_DEFAULT = 288;
export const PILE_MIN = WALL.wide * WALL.high * WALL.deep + 1;
export const PILE_MAX = 10_000;
/** Half the ground's edge at the default pile, m; it grows with a wider heap. */
const GROUND_HALF = 20;
/** The walker's capsule. */
export const CAPSULE = { halfHeight: 0.45, radius: 0.35 };
/** Where the walker starts, m. */
export const WALKER_START = { x: -7, y: CAPSULE.halfHeight + CAPSULE.radius + 0.05, z: 0.5 };
/** Where the projectile waits before the first shot and after a teleport: below the ground. */
export const PARKED = { x: 0, y: -10, z: 0 };
export const PROJECTILE_RADIUS = 0.35;

/** A body of the pile: its shape and where it starts. */
export interface PileSpot {
  readonly shape: 'box' | 'sphere';
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Which of three shades it is drawn in (0–2), a checkerboard over the wall and the heap. */
  readonly shade: number;
}

/** `count` clamped to the pile sizes the page offers, as a whole number. */
export function pileCount(count: number): number {
  if (!Number.isFinite(count)) return PILE_DEFAULT;
  return Math.min(PILE_MAX, Math.max(PILE_MIN, Math.round(count)));
}

/** Columns (and rows) of the heap of a pile of `count`: 6, or more to stay about 8 layers high. */
function heapSide(count: number): number {
  const spheres = pileCount(count) - WALL.wide * WALL.high * WALL.deep;
  return Math.max(HEAP_SIDE, Math.ceil(Math.sqrt(spheres / HEAP_LAYERS)));
}

/**
 * Where the `count` bodies of the pile start: the wall of 144 boxes, then the heap of spheres,
 * layer by layer (a 6×6 heap of 4 layers at the default 288; wider for more, about 8 layers).
 */
export function pileLayout(count: number): PileSpot[] {
  const spots: PileSpot[] = [];
  for (let y = 0; y < WALL.high; y++) {
    for (let x = 0; x < WALL.wide; x++) {
      for (let z = 0; z < WALL.deep; z++) {
        spots.push({
          shape: 'box',
          x: (x - (WALL.wide - 1) / 2) * (BOX + 0.01),
          y: BOX / 2 + y * (BOX + 0.01),
          z: z * (BOX + 0.01),
          shade: (x + y + z) % 3,
        });
      }
    }
  }
  const spheres = pileCount(count) - spots.length;
  const side = heapSide(count);
  const z0 = 0.5 - ((side - 1) * HEAP_GAP) / 2;
  for (let i = 0; i < spheres; i++) {
    const layer = Math.floor(i / (side * side));
    const x = Math.floor(i / side) % side;
    const z = i % side;
    spots.push({
      shape: 'sphere',
      x: 5 + x * HEAP_GAP + (layer % 2) * 0.2,
      y: 0.4 + layer * HEAP_GAP,
      z: z0 + z * HEAP_GAP,
      shade: (x + z + layer) % 3,
    });
  }
  return spots;
}

/** Half the ground's edge for a pile of `count` (m): 20, or wider than the heap with room around. */
export function groundHalf(count: number): number {
  return Math.max(GROUND_HALF, Math.ceil(5 + heapSide(count) * HEAP_GAP + 4));
}

/** The bodies of the scene, in the order they were made. */
export interface SceneBodies {
  /** The pile, in {@link pileLayout}'s order. */
  readonly pile: RAPIER.RigidBody[];
  readonly ball: RAPIER.RigidBody;
  readonly walker: RAPIER.RigidBody;
  readonly walkerCollider: RAPIER.Collider;
}

/**
 * Builds the scene into `world`: the ground, the pile of `count` bodies, the projectile (parked,
 * disabled) and the walker's kinematic capsule, always in this order.
 */
export function buildScene(R: typeof RAPIER, world: RAPIER.World, count: number): SceneBodies {
  const ground = world.createRigidBody(R.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  const half = groundHalf(count);
  world.createCollider(R.ColliderDesc.cuboid(half, 0.5, half).setFriction(0.8), ground);
  const pile = pileLayout(count).map((spot) => {
    const desc = R.RigidBodyDesc.dynamic().setTranslation(spot.x, spot.y, spot.z);
    if (spot.shape === 'sphere') desc.setAngularDamping(1.5).setLinearDamping(0.2);
    const body = world.createRigidBody(desc);
    world.createCollider(
      spot.shape === 'box'
        ? R.ColliderDesc.cuboid(BOX / 2, BOX / 2, BOX / 2).setFriction(0.7)
        : R.ColliderDesc.ball(RADIUS).setFriction(0.6),
      body,
    );
    return body;
  });
  const ball = world.createRigidBody(
    R.RigidBodyDesc.dynamic()
      .setTranslation(PARKED.x, PARKED.y, PARKED.z)
      .setCcdEnabled(true)
      .setEnabled(false),
  );
  world.createCollider(
    R.ColliderDesc.ball(PROJECTILE_RADIUS)
      .setDensity(12)
      .setActiveEvents(R.ActiveEvents.COLLISION_EVENTS),
    ball,
  );
  const walker = world.createRigidBody(
    R.RigidBodyDesc.kinematicPositionBased().setTranslation(
      WALKER_START.x,
      WALKER_START.y,
      WALKER_START.z,
    ),
  );
  const walkerCollider = world.createCollider(
    R.ColliderDesc.capsule(CAPSULE.halfHeight, CAPSULE.radius),
    walker,
  );
  return { pile, ball, walker, walkerCollider };
}

/** The pile's bodies, the projectile and the walker, in one list (the order of their ids). */
export function sceneBodyList(bodies: SceneBodies): RAPIER.RigidBody[] {
  return [...bodies.pile, bodies.ball, bodies.walker];
}
