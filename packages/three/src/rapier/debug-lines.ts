/**
 * Collider outlines drawn where the meshes are drawn. Rapier's `world.debugRender()` (and three's
 * `RapierHelper`, which draws it) gives the colliders at the last step: one step ahead of the
 * interpolated picture, so outlines lead their meshes by up to a step's travel. These outlines
 * are placed every frame by the pose their body's mesh is drawn with (interpolated, extrapolated
 * or not, teleports included); a body bound to no mesh is drawn at its simulation pose. See
 * docs/rapier.md, "Debug outlines".
 */
import type { Unsubscribe } from '@fixedtick/core';
import {
  BufferAttribute,
  BufferGeometry,
  type ColorRepresentation,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Quaternion,
  Vector3,
} from 'three';
import type { RapierPhysics } from './rapier-physics.ts';
import type { RapierRigidBody, RapierRotation, RapierVector } from './rapier-types.ts';

/** A Rapier `Collider`: what {@link RapierDebugLines} reads of it. */
export interface RapierDebugCollider {
  /** Rapier's handle of the collider. */
  readonly handle: number;
  /** False once the collider is removed from its world. */
  isValid(): boolean;
  /** The body the collider is attached to, or `null`. */
  parent(): RapierRigidBody | null;
  /** Rapier's `ShapeType` of the collider's shape. */
  shapeType(): number;
  /** Half extents, for a cuboid. */
  halfExtents(target?: RapierVector): RapierVector | null;
  /** Radius, for a ball, capsule, cylinder or cone. */
  radius(): number;
  /** Half height, for a capsule, cylinder or cone. */
  halfHeight(): number;
  /** Vertices (x, y, z, …), for a convex polyhedron or a triangle mesh. */
  vertices(): Float32Array;
  /** Triangle indices, for a convex polyhedron or a triangle mesh. */
  indices(): Uint32Array | undefined;
  /** World-space translation. */
  translation(target?: RapierVector): RapierVector;
  /** World-space rotation. */
  rotation(target?: RapierRotation): RapierRotation;
  /** Translation relative to the parent body, or `null` without one. */
  translationWrtParent(target?: RapierVector): RapierVector | null;
  /** Rotation relative to the parent body, or `null` without one. */
  rotationWrtParent(target?: RapierRotation): RapierRotation | null;
}

/** A Rapier `World`: what {@link RapierDebugLines} reads of it. */
export interface RapierDebugWorld {
  /** Calls `f` with every collider of the world, in a stable order. */
  forEachCollider(f: (collider: RapierDebugCollider) => void): void;
  /** Rapier's own debug lines (world space, at the last step) of the colliders `filter` keeps. */
  debugRender(
    filterFlags?: number,
    filter?: (collider: RapierDebugCollider) => boolean,
  ): {
    /** Segment end points (x, y, z, …), world space. */
    vertices: Float32Array;
  };
}

/** Options of {@link RapierDebugLines}. */
export interface RapierDebugLinesOptions {
  /**
   * Colour of the outlines.
   * @defaultValue `0x00ff88`
   */
  color?: ColorRepresentation;
}

// Rapier's ShapeType values of the shapes outlined here; any other shape takes Rapier's own lines.
const BALL = 0;
const CUBOID = 1;
const CAPSULE = 2;
const TRIMESH = 6;
const CONVEX_POLYHEDRON = 9;
const CYLINDER = 10;
const CONE = 11;

/** Segments of a drawn circle. */
const CIRCLE_SEGMENTS = 24;

/** One outlined collider: its local segments and where they go in the position buffer. */
interface Outline {
  collider: RapierDebugCollider;
  /** The collider's body, or `null` for a collider fixed in the world. */
  body: RapierRigidBody | null;
  /** The collider's pose in its body's frame (or in the world, without a body). */
  inBody: Matrix4;
  /** Segment end points (x, y, z, …) in the collider's own frame. */
  local: Float32Array;
  /** First float of this outline in the position buffer. */
  offset: number;
}

const bodyMatrix = new Matrix4();
const colliderMatrix = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();
const unit = new Vector3(1, 1, 1);
const vector: RapierVector = { x: 0, y: 0, z: 0 };
const quaternion: RapierRotation = { x: 0, y: 0, z: 0, w: 1 };

/**
 * Outlines of every collider of a {@link RapierPhysics} world, drawn at the pose their meshes are
 * drawn with, not a step ahead as `world.debugRender()` is. Add it to the scene's root: it
 * updates itself before each render (`onPreRender`) and allocates nothing per frame while the
 * colliders stay the same (a collider added or removed rebuilds its buffers once).
 *
 * @example
 * ```ts
 * const outlines = new RapierDebugLines(physics);
 * scene.add(outlines);
 * // later: scene.remove(outlines); outlines.dispose();
 * ```
 */
export class RapierDebugLines extends LineSegments<BufferGeometry, LineBasicMaterial> {
  /** The physics whose colliders are outlined. */
  readonly physics: RapierPhysics;
  #outlines: Outline[] = [];
  #positions = new Float32Array(0);
  #matched = 0;
  #changed = false;
  readonly #unsubscribe: Unsubscribe;
  readonly #check = (collider: RapierDebugCollider): void => {
    if (this.#outlines[this.#matched]?.collider === collider) this.#matched++;
    else this.#changed = true;
  };

  /**
   * @param physics the `RapierPhysics` whose world's colliders are drawn.
   * @param options see {@link RapierDebugLinesOptions}.
   */
  constructor(physics: RapierPhysics, options: RapierDebugLinesOptions = {}) {
    super(new BufferGeometry(), new LineBasicMaterial({ color: options.color ?? 0x00ff88 }));
    this.physics = physics;
    this.frustumCulled = false;
    this.name = 'RapierDebugLines';
    this.#unsubscribe = physics.loop.onPreRender(() => this.update());
  }

  /** Places every outline at its body's drawn pose (called before each render). */
  update(): void {
    const world = this.physics.world as unknown as RapierDebugWorld;
    this.#matched = 0;
    this.#changed = false;
    world.forEachCollider(this.#check);
    if (this.#changed || this.#matched !== this.#outlines.length) this.#rebuild(world);
    for (const outline of this.#outlines) this.#place(outline);
    const attribute = this.geometry.getAttribute('position');
    if (attribute !== undefined) attribute.needsUpdate = true;
  }

  /**
   * Stops updating and frees the geometry and material (its own: unlike a plain three.js object,
   * nothing else shares them), then fires three's `dispose` event.
   */
  override dispose(): void {
    this.#unsubscribe();
    this.geometry.dispose();
    this.material.dispose();
    super.dispose();
  }

  #rebuild(world: RapierDebugWorld): void {
    const outlines: Outline[] = [];
    let floats = 0;
    world.forEachCollider((collider) => {
      const local = localSegments(world, collider);
      const body = collider.parent();
      const inBody = new Matrix4();
      if (body === null) {
        placeMatrix(inBody, collider.translation(vector), collider.rotation(quaternion));
      } else {
        const t = collider.translationWrtParent(vector) ?? vector;
        placeMatrix(inBody, t, collider.rotationWrtParent(quaternion) ?? quaternion);
      }
      outlines.push({ collider, body, inBody, local, offset: floats });
      floats += local.length;
    });
    this.#outlines = outlines;
    this.#positions = new Float32Array(floats);
    this.geometry.setAttribute('position', new BufferAttribute(this.#positions, 3));
  }

  #place(outline: Outline): void {
    const { body, inBody, local, offset } = outline;
    if (body === null) {
      colliderMatrix.copy(inBody);
    } else {
      drawnPose(this.physics, body);
      bodyMatrix.compose(position, rotation, unit);
      colliderMatrix.multiplyMatrices(bodyMatrix, inBody);
    }
    const e = colliderMatrix.elements;
    const out = this.#positions;
    for (let i = 0; i < local.length; i += 3) {
      const x = local[i];
      const y = local[i + 1];
      const z = local[i + 2];
      out[offset + i] = e[0] * x + e[4] * y + e[8] * z + e[12];
      out[offset + i + 1] = e[1] * x + e[5] * y + e[9] * z + e[13];
      out[offset + i + 2] = e[2] * x + e[6] * y + e[10] * z + e[14];
    }
  }
}

/**
 * Sets `position` and `rotation` to the pose `body` is drawn with: its mesh's world pose (scale
 * left out, as Rapier bodies have none), or the body's own pose when no mesh is bound to it.
 */
function drawnPose(physics: RapierPhysics, body: RapierRigidBody): void {
  const mesh = physics.objectOf(body);
  if (mesh === undefined) {
    const t = body.translation(vector);
    const q = body.rotation(quaternion);
    position.set(t.x, t.y, t.z);
    rotation.set(q.x, q.y, q.z, q.w);
    return;
  }
  mesh.updateWorldMatrix(true, false);
  mesh.matrixWorld.decompose(position, rotation, scale);
}

/** Sets `matrix` to the rigid transform of a Rapier translation and rotation. */
function placeMatrix(matrix: Matrix4, t: RapierVector, q: RapierRotation): Matrix4 {
  return matrix.compose(position.set(t.x, t.y, t.z), rotation.set(q.x, q.y, q.z, q.w), unit);
}

/** The collider's outline as segment end points in its own frame. */
function localSegments(world: RapierDebugWorld, collider: RapierDebugCollider): Float32Array {
  const points: number[] = [];
  switch (collider.shapeType()) {
    case BALL: {
      const r = collider.radius();
      for (const axis of [0, 1, 2]) circle(points, axis, r, 0);
      break;
    }
    case CUBOID: {
      const h = collider.halfExtents(vector) ?? vector;
      box(points, h.x, h.y, h.z);
      break;
    }
    case CAPSULE:
    case CYLINDER:
    case CONE: {
      const type = collider.shapeType();
      const r = collider.radius();
      const hh = collider.halfHeight();
      const topRadius = type === CONE ? 0 : r;
      if (topRadius > 0) circle(points, 1, r, hh);
      circle(points, 1, r, -hh);
      for (const [x, z] of [
        [r, 0],
        [-r, 0],
        [0, r],
        [0, -r],
      ]) {
        points.push(x, -hh, z, (x * topRadius) / r, hh, (z * topRadius) / r);
      }
      if (type === CAPSULE) {
        arc(points, 0, r, hh, 1);
        arc(points, 2, r, hh, 1);
        arc(points, 0, r, -hh, -1);
        arc(points, 2, r, -hh, -1);
      }
      break;
    }
    case TRIMESH:
    case CONVEX_POLYHEDRON:
      triangleEdges(points, collider.vertices(), collider.indices());
      break;
    default:
      return capturedLines(world, collider);
  }
  return Float32Array.from(points);
}

/** A circle of radius `r` around `axis` (0 x, 1 y, 2 z), at `height` along it. */
function circle(points: number[], axis: number, r: number, height: number): void {
  for (let i = 0; i < CIRCLE_SEGMENTS; i++) {
    const a = (i / CIRCLE_SEGMENTS) * Math.PI * 2;
    const b = ((i + 1) / CIRCLE_SEGMENTS) * Math.PI * 2;
    pushOnAxis(points, axis, r * Math.cos(a), r * Math.sin(a), height);
    pushOnAxis(points, axis, r * Math.cos(b), r * Math.sin(b), height);
  }
}

/** A half circle of radius `r` capping a capsule at `height`, in the plane of Y and `side`. */
function arc(points: number[], side: number, r: number, height: number, up: number): void {
  const half = CIRCLE_SEGMENTS / 2;
  for (let i = 0; i < half; i++) {
    const a = (i / half) * Math.PI;
    const b = ((i + 1) / half) * Math.PI;
    for (const t of [a, b]) {
      const across = r * Math.cos(t);
      const y = height + up * r * Math.sin(t);
      points.push(side === 0 ? across : 0, y, side === 2 ? across : 0);
    }
  }
}

/** Pushes a point of a circle around `axis`: `(u, v)` in the plane across it, `h` along it. */
function pushOnAxis(points: number[], axis: number, u: number, v: number, h: number): void {
  if (axis === 0) points.push(h, u, v);
  else if (axis === 1) points.push(u, h, v);
  else points.push(u, v, h);
}

/** The twelve edges of a box of half extents `x`, `y`, `z`. */
function box(points: number[], x: number, y: number, z: number): void {
  const corners = [-1, 1];
  for (const a of corners) {
    for (const b of corners) {
      points.push(-x, a * y, b * z, x, a * y, b * z);
      points.push(a * x, -y, b * z, a * x, y, b * z);
      points.push(a * x, b * y, -z, a * x, b * y, z);
    }
  }
}

/** Each edge of the triangles once. */
function triangleEdges(
  points: number[],
  vertices: Float32Array,
  indices: Uint32Array | undefined,
): void {
  if (indices === undefined) return;
  const seen = new Set<string>();
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (const [i, j] of [
      [indices[t], indices[t + 1]],
      [indices[t + 1], indices[t + 2]],
      [indices[t + 2], indices[t]],
    ]) {
      const key = i < j ? `${i},${j}` : `${j},${i}`;
      if (seen.has(key)) continue;
      seen.add(key);
      points.push(vertices[i * 3], vertices[i * 3 + 1], vertices[i * 3 + 2]);
      points.push(vertices[j * 3], vertices[j * 3 + 1], vertices[j * 3 + 2]);
    }
  }
}

/**
 * Rapier's own debug lines of one collider (a shape not outlined above: rounded shapes,
 * heightfields, half-spaces, …), brought into the collider's frame from its pose at the last
 * step. Rapier renders the whole world to find them, so this runs only when the colliders change.
 */
function capturedLines(world: RapierDebugWorld, collider: RapierDebugCollider): Float32Array {
  const { vertices } = world.debugRender(undefined, (c) => c.handle === collider.handle);
  placeMatrix(colliderMatrix, collider.translation(vector), collider.rotation(quaternion)).invert();
  const local = new Float32Array(vertices.length);
  for (let i = 0; i < vertices.length; i += 3) {
    position.fromArray(vertices, i).applyMatrix4(colliderMatrix).toArray(local, i);
  }
  return local;
}
