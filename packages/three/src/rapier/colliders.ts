/**
 * Colliders built from a mesh's geometry, as three.js's `RapierPhysics` addon (`getShape`) and
 * @react-three/rapier's `colliders=` prop build them, with the mesh's scale applied: a cuboid from
 * the bounding box, a ball from the bounding sphere, a capsule standing on Y, a convex hull or a
 * triangle mesh from the vertices. See docs/rapier.md, "Colliders from geometry".
 *
 * Rapier bodies have no scale: a collider is sized in world units. The scale that three.js draws a
 * mesh with (its own and its parents') is therefore baked into the collider's sizes and vertices,
 * and the mesh's place relative to the body (a child mesh of a compound body, or a geometry not
 * centred on its origin) into the collider's translation and rotation.
 */
import { type BufferGeometry, Matrix4, type Mesh, type Object3D, Quaternion, Vector3 } from 'three';
import type { RapierRotation } from './rapier-types.ts';

/** The shapes {@link colliderFromMesh} builds. */
export type ColliderShape = 'cuboid' | 'ball' | 'capsule' | 'hull' | 'trimesh';

const SHAPES: readonly ColliderShape[] = ['cuboid', 'ball', 'capsule', 'hull', 'trimesh'];

/** A Rapier `ColliderDesc`: what {@link colliderFromMesh} sets on the one it builds. */
export interface RapierColliderDescLike {
  /** Places the collider relative to its body. */
  setTranslation(x: number, y: number, z: number): unknown;
  /** Turns the collider relative to its body. */
  setRotation(rotation: RapierRotation): unknown;
}

/**
 * The `RAPIER` module's `ColliderDesc` factories that {@link colliderFromMesh} calls
 * (`import RAPIER from '@dimforge/rapier3d-compat'` satisfies it): Fixedtick never imports Rapier.
 */
export interface RapierColliderFactories<Desc extends RapierColliderDescLike> {
  /** Rapier's `ColliderDesc` class. */
  ColliderDesc: {
    /** A box of the given half extents. */
    cuboid(hx: number, hy: number, hz: number): Desc;
    /** A ball of the given radius. */
    ball(radius: number): Desc;
    /** A capsule along Y: half the height of its cylinder part, and its radius. */
    capsule(halfHeight: number, radius: number): Desc;
    /** The convex hull of points (x, y, z, …), or `null` when they span no volume. */
    convexHull(points: Float32Array): Desc | null;
    /** A triangle mesh: vertices (x, y, z, …) and three indices a triangle. */
    trimesh(vertices: Float32Array, indices: Uint32Array): Desc;
  };
}

/** Options of {@link colliderFromMesh}. */
export interface ColliderFromMeshOptions {
  /**
   * The shape to build.
   * - `'cuboid'`: the geometry's bounding box (Rapier `cuboid`).
   * - `'ball'`: its bounding sphere, radius scaled by the largest scale axis (Rapier `ball`).
   * - `'capsule'`: standing on Y, radius from the box's wider horizontal side (Rapier `capsule`).
   * - `'hull'`: the convex hull of the vertices (Rapier `convexHull`).
   * - `'trimesh'`: the triangles themselves (Rapier `trimesh`; for fixed bodies: a dynamic
   *   trimesh has no volume, so Rapier gives it no mass).
   * @defaultValue `'cuboid'` (as @react-three/rapier's `colliders` default)
   */
  shape?: ColliderShape;
  /**
   * The object that the body drives, when it is not `mesh` itself: for a compound body whose
   * meshes are children of one object, pass that object, and the collider is placed where `mesh`
   * sits relative to it. World matrices are read as they are now (`updateWorldMatrix` is called).
   * @defaultValue `mesh`
   */
  relativeTo?: Object3D;
}

const meshMatrix = new Matrix4();
const bodyMatrix = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();
const unit = new Vector3(1, 1, 1);
const center = new Vector3();
const size = new Vector3();

/**
 * A Rapier `ColliderDesc` sized from `mesh`'s geometry and the scale three.js draws it with, placed
 * where the mesh sits relative to the object the body drives. Create it on the body as usual:
 *
 * ```ts
 * import RAPIER from '@dimforge/rapier3d-compat';
 * import { colliderFromMesh } from '@fixedtick/three/rapier';
 *
 * const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 4, 0));
 * world.createCollider(colliderFromMesh(RAPIER, mesh, { shape: 'hull' }).setRestitution(0.5), body);
 * physics.add(mesh, body);
 * ```
 *
 * Non-uniform scale is exact for `'cuboid'`, `'hull'` and `'trimesh'` (the box and the vertices
 * are scaled axis by axis); a ball takes the largest axis and a capsule the larger horizontal axis
 * for its radius, as a sphere stretched one way is no longer a sphere.
 *
 * @param rapier the `RAPIER` module (its `ColliderDesc` class).
 * @param mesh a mesh with a `BufferGeometry` that has a `position` attribute.
 * @param options see {@link ColliderFromMeshOptions}.
 * @throws TypeError when `mesh` has no such geometry; RangeError for an unknown shape, or for a
 *   hull of points that span no volume.
 */
export function colliderFromMesh<Desc extends RapierColliderDescLike>(
  rapier: RapierColliderFactories<Desc>,
  mesh: Mesh,
  options: ColliderFromMeshOptions = {},
): Desc {
  const geometry = mesh?.geometry as BufferGeometry | undefined;
  if (geometry?.isBufferGeometry !== true || geometry.getAttribute('position') === undefined) {
    throw new TypeError(
      'fixedtick: colliderFromMesh needs a mesh whose geometry is a BufferGeometry with a position attribute',
    );
  }
  const shape = options.shape ?? 'cuboid';
  if (!SHAPES.includes(shape)) {
    throw new RangeError(
      `fixedtick: option "shape" must be one of ${SHAPES.map((s) => `'${s}'`).join(', ')}, got ${JSON.stringify(shape)}`,
    );
  }
  placeInBody(mesh, options.relativeTo ?? mesh);
  const desc = shapeDesc(rapier, geometry, shape);
  // The shape's own centre (a geometry off its origin) is scaled and turned with the mesh.
  center.multiply(scale).applyQuaternion(rotation).add(position);
  desc.setTranslation(center.x, center.y, center.z);
  desc.setRotation({ x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w });
  return desc;
}

/**
 * Sets `position`, `rotation`, `scale` to `mesh`'s transform in the body's frame: the frame of
 * `body` without its scale, as Rapier bodies have none.
 */
function placeInBody(mesh: Object3D, body: Object3D): void {
  mesh.updateWorldMatrix(true, false);
  if (body !== mesh) body.updateWorldMatrix(true, false);
  body.matrixWorld.decompose(position, rotation, scale);
  bodyMatrix.compose(position, rotation, unit).invert();
  meshMatrix.multiplyMatrices(bodyMatrix, mesh.matrixWorld).decompose(position, rotation, scale);
}

/** The shape's desc, sized by `scale`; leaves the shape's centre (unscaled) in `center`. */
function shapeDesc<Desc extends RapierColliderDescLike>(
  rapier: RapierColliderFactories<Desc>,
  geometry: BufferGeometry,
  shape: ColliderShape,
): Desc {
  const factories = rapier.ColliderDesc;
  const sx = Math.abs(scale.x);
  const sy = Math.abs(scale.y);
  const sz = Math.abs(scale.z);
  switch (shape) {
    case 'cuboid': {
      readBox(geometry);
      return factories.cuboid((size.x * sx) / 2, (size.y * sy) / 2, (size.z * sz) / 2);
    }
    case 'ball': {
      geometry.computeBoundingSphere();
      const sphere = geometry.boundingSphere;
      if (sphere === null) center.set(0, 0, 0);
      else center.copy(sphere.center);
      return factories.ball((sphere?.radius ?? 0) * Math.max(sx, sy, sz));
    }
    case 'capsule': {
      readBox(geometry);
      const radius = Math.max(size.x * sx, size.z * sz) / 2;
      return factories.capsule(Math.max(0, (size.y * sy) / 2 - radius), radius);
    }
    case 'hull': {
      center.set(0, 0, 0);
      const vertices = scaledVertices(geometry);
      // Rapier accepts a flat set of points here and fails only when the collider is created.
      const desc = spansVolume(vertices) ? factories.convexHull(vertices) : null;
      if (desc === null) {
        throw new RangeError(
          'fixedtick: colliderFromMesh: the convex hull of this geometry spans no volume (flat or a single point); use shape "cuboid" or "trimesh"',
        );
      }
      return desc;
    }
    case 'trimesh': {
      center.set(0, 0, 0);
      return factories.trimesh(scaledVertices(geometry), triangleIndices(geometry));
    }
  }
}

/** Sets `center` and `size` to the geometry's bounding box (unscaled). */
function readBox(geometry: BufferGeometry): void {
  geometry.computeBoundingBox();
  const box = geometry.boundingBox;
  if (box === null) {
    center.set(0, 0, 0);
    size.set(0, 0, 0);
    return;
  }
  box.getCenter(center);
  box.getSize(size);
}

/** The geometry's vertices, scaled by `scale`, as Rapier takes them. */
function scaledVertices(geometry: BufferGeometry): Float32Array {
  const attribute = geometry.getAttribute('position');
  const vertices = new Float32Array(attribute.count * 3);
  for (let i = 0; i < attribute.count; i++) {
    vertices[i * 3] = attribute.getX(i) * scale.x;
    vertices[i * 3 + 1] = attribute.getY(i) * scale.y;
    vertices[i * 3 + 2] = attribute.getZ(i) * scale.z;
  }
  return vertices;
}

/**
 * Whether points (x, y, z, …) span a volume: the farthest point from the first, the farthest from
 * the line through both, and the farthest from the plane through the three, each off by more
 * than a millionth of the first distance.
 */
function spansVolume(points: Float32Array): boolean {
  const count = points.length / 3;
  const a = new Vector3().fromArray(points, 0);
  const p = new Vector3();
  const farthest = (distance: (point: Vector3) => number): [Vector3, number] => {
    let best = -1;
    const found = new Vector3();
    for (let i = 0; i < count; i++) {
      const d = distance(p.fromArray(points, i * 3));
      if (d > best) {
        best = d;
        found.copy(p);
      }
    }
    return [found, best];
  };
  const [b, length] = farthest((q) => q.distanceTo(a));
  if (!(length > 0)) return false;
  const axis = new Vector3().subVectors(b, a).normalize();
  const offLine = (q: Vector3) => size.subVectors(q, a).cross(axis).length();
  const [c, width] = farthest(offLine);
  const tolerance = length * 1e-6;
  if (!(width > tolerance)) return false;
  const normal = new Vector3().subVectors(c, a).cross(axis).normalize();
  const [, height] = farthest((q) => Math.abs(size.subVectors(q, a).dot(normal)));
  return height > tolerance;
}

/** The geometry's triangles: its index, or 0, 1, 2, … for a geometry without one. */
function triangleIndices(geometry: BufferGeometry): Uint32Array {
  const index = geometry.getIndex();
  if (index !== null) return Uint32Array.from(index.array);
  const count = geometry.getAttribute('position').count;
  const indices = new Uint32Array(count - (count % 3));
  for (let i = 0; i < indices.length; i++) indices[i] = i;
  return indices;
}
