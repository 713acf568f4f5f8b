/**
 * `colliderFromMesh` with real Rapier WASM: each shape sized from the geometry and the scale the
 * mesh is drawn with, placed where the mesh sits relative to its body, and a box built this way
 * coming to rest on the ground at the height its drawn size says.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { ThreeFixedLoop } from '@fixedtick/three';
import { colliderFromMesh, RapierPhysics } from '@fixedtick/three/rapier';
import {
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  CapsuleGeometry,
  Group,
  IcosahedronGeometry,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
  SphereGeometry,
} from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { display, groundWorld, loadRapier } from './rapier-scene.ts';

beforeAll(async () => {
  await loadRapier();
});

const material = new MeshBasicMaterial();

/** A body at the origin with the collider built from `mesh`. */
function colliderOf(mesh: Mesh, options?: Parameters<typeof colliderFromMesh>[2]) {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
  return world.createCollider(colliderFromMesh(RAPIER, mesh, options), body);
}

/** Largest |x|, |y|, |z| over a list of vertices. */
function extents(vertices: Float32Array): number[] {
  const max = [0, 0, 0];
  for (let i = 0; i < vertices.length; i++) {
    max[i % 3] = Math.max(max[i % 3], Math.abs(vertices[i]));
  }
  return max;
}

describe('colliderFromMesh: shapes sized by geometry and scale', () => {
  it('cuboid: half the bounding box, axis by axis, with the mesh scale', () => {
    const mesh = new Mesh(new BoxGeometry(2, 1, 4), material);
    mesh.scale.set(1, 2, 0.5);
    const collider = colliderOf(mesh);
    expect(collider.shapeType()).toBe(RAPIER.ShapeType.Cuboid);
    const half = collider.halfExtents();
    expect([half?.x, half?.y, half?.z]).toEqual([1, 1, 1]);
  });

  it('cuboid is the default, as in @react-three/rapier', () => {
    const collider = colliderOf(new Mesh(new SphereGeometry(0.5), material));
    expect(collider.shapeType()).toBe(RAPIER.ShapeType.Cuboid);
  });

  it('ball: the bounding sphere, radius times the largest scale axis', () => {
    const mesh = new Mesh(new SphereGeometry(0.5, 16, 8), material);
    mesh.scale.set(3, 1, 2);
    const collider = colliderOf(mesh, { shape: 'ball' });
    expect(collider.shapeType()).toBe(RAPIER.ShapeType.Ball);
    expect(collider.radius()).toBeCloseTo(1.5, 6);
  });

  it('capsule: standing on Y, the cylinder part and the radius of CapsuleGeometry', () => {
    const mesh = new Mesh(new CapsuleGeometry(0.5, 2, 4, 8), material);
    const collider = colliderOf(mesh, { shape: 'capsule' });
    expect(collider.shapeType()).toBe(RAPIER.ShapeType.Capsule);
    expect(collider.radius()).toBeCloseTo(0.5, 6);
    expect(collider.halfHeight()).toBeCloseTo(1, 6);
  });

  it('hull: the convex hull of the scaled vertices', () => {
    const mesh = new Mesh(new IcosahedronGeometry(1, 0), material);
    mesh.scale.set(2, 1, 0.5);
    const collider = colliderOf(mesh, { shape: 'hull' });
    expect(collider.shapeType()).toBe(RAPIER.ShapeType.ConvexPolyhedron);
    const geometryExtents = extents(mesh.geometry.getAttribute('position').array as Float32Array);
    const hull = extents(collider.vertices());
    expect(hull[0]).toBeCloseTo(geometryExtents[0] * 2, 5);
    expect(hull[1]).toBeCloseTo(geometryExtents[1] * 1, 5);
    expect(hull[2]).toBeCloseTo(geometryExtents[2] * 0.5, 5);
  });

  it('trimesh: the triangles as given, indexed or not', () => {
    const indexed = new Mesh(new BoxGeometry(1, 1, 1), material);
    const a = colliderOf(indexed, { shape: 'trimesh' });
    expect(a.shapeType()).toBe(RAPIER.ShapeType.TriMesh);
    expect(a.indices()?.length).toBe(indexed.geometry.getIndex()?.count);

    const loose = new BufferGeometry();
    const triangle = new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0]);
    loose.setAttribute('position', new BufferAttribute(triangle, 3));
    const b = colliderOf(new Mesh(loose, material), { shape: 'trimesh' });
    expect(Array.from(b.indices() ?? [])).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('colliderFromMesh: placed where the mesh sits on its body', () => {
  it('a geometry off its origin puts the collider off the body by the scaled offset', () => {
    const geometry = new BoxGeometry(1, 1, 1).translate(0, 1, 0);
    const mesh = new Mesh(geometry, material);
    mesh.scale.setScalar(2);
    const collider = colliderOf(mesh);
    const t = collider.translationWrtParent();
    expect([t?.x, t?.y, t?.z]).toEqual([0, 2, 0]);
    expect(collider.halfExtents()?.y).toBe(1);
  });

  it('relativeTo: a child mesh of a compound body, turned and moved within it', () => {
    const root = new Group();
    root.position.set(5, 5, 5);
    root.rotation.y = Math.PI / 2;
    const arm = new Mesh(new BoxGeometry(1, 1, 1), material);
    arm.position.set(2, 0, 0);
    arm.rotation.z = Math.PI / 2;
    root.add(arm);
    const collider = colliderOf(arm, { relativeTo: root });
    const t = collider.translationWrtParent();
    expect(t?.x).toBeCloseTo(2, 6);
    expect(t?.y).toBeCloseTo(0, 6);
    expect(t?.z).toBeCloseTo(0, 6);
    const q = collider.rotationWrtParent();
    expect(Math.abs(q?.z ?? 0)).toBeCloseTo(Math.SQRT1_2, 6);
    expect(Math.abs(q?.w ?? 0)).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('the scale of a parent is part of the drawn size', () => {
    const parent = new Group();
    parent.scale.setScalar(3);
    const mesh = new Mesh(new BoxGeometry(1, 1, 1), material);
    parent.add(mesh);
    expect(colliderOf(mesh).halfExtents()?.x).toBeCloseTo(1.5, 6);
  });

  it('a box of drawn size 2 comes to rest with its centre 1 m above the ground', () => {
    const world = groundWorld();
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const physics = new RapierPhysics(loop, world);
    const mesh = new Mesh(new BoxGeometry(1, 1, 1), material);
    mesh.scale.setScalar(2);
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 4, 0));
    world.createCollider(colliderFromMesh(RAPIER, mesh), body);
    physics.add(mesh, body);
    display(loop, 60, 3);
    expect(body.translation().y).toBeCloseTo(1, 2);
    expect(mesh.position.y).toBeCloseTo(1, 2);
  });
});

describe('colliderFromMesh: what it cannot build', () => {
  it('a TypeError for an object without a BufferGeometry', () => {
    expect(() => colliderFromMesh(RAPIER, new Group() as unknown as Mesh)).toThrow(TypeError);
    expect(() => colliderFromMesh(RAPIER, null as unknown as Mesh)).toThrow(/BufferGeometry/);
  });

  it('a RangeError naming an unknown shape', () => {
    const mesh = new Mesh(new BoxGeometry(), material);
    expect(() =>
      colliderFromMesh(RAPIER, mesh, { shape: 'cylinder' as unknown as 'ball' }),
    ).toThrow(/option "shape" must be one of 'cuboid', .*got "cylinder"/);
  });

  it('a RangeError for a hull of a flat geometry', () => {
    const mesh = new Mesh(new PlaneGeometry(1, 1), material);
    expect(() => colliderFromMesh(RAPIER, mesh, { shape: 'hull' })).toThrow(RangeError);
  });
});
