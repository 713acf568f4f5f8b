import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { havokScene } from './havok-scene.ts';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';

const q = Quaternion.RotationYawPitchRoll(0.4, -1.1, 2.3);

/** A thin-instanced physics mesh with one instance per scale, spinning, 20 m up. */
function thinMesh(scene: Scene, scales: Vector3[]) {
  const mesh = MeshBuilder.CreateBox('thin', { size: 1 }, scene);
  const m = new Float32Array(16 * scales.length);
  scales.forEach((s, i) => {
    Matrix.Compose(s, q, new Vector3(i * 4, 20, 0)).copyToArray(m, i * 16);
  });
  mesh.thinInstanceSetBuffer('matrix', m, 16);
  new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
  mesh.physicsBody?.setAngularVelocity(new Vector3(1, 2, 3));
  return mesh;
}

/** Babylon's matrix of instance `i`'s simulation pose. */
function poseMatrix(loop: BabylonFixedLoop, mesh: ReturnType<typeof thinMesh>, i: number): Matrix {
  const pose = loop.getSimulationPose(mesh, i);
  if (!pose) throw new Error('not tracked');
  return Matrix.Compose(
    Vector3.FromArray(pose.scale),
    Quaternion.FromArray(pose.rotation),
    Vector3.FromArray(pose.position),
  );
}

// The adapter composes and decomposes thin-instance matrices with Babylon's own Matrix, so what
// it writes is exactly what Babylon would compose from the same pose.
describe('thin-instance matrices are Babylon’s', () => {
  it('a rendered instance matrix is Matrix.Compose of its pose, bit for bit', async () => {
    const scene = await havokScene();
    const mesh = thinMesh(scene, [new Vector3(0.5, 2, 3), new Vector3(1, 1, 1)]);
    const loop = new BabylonFixedLoop(scene, {
      tickRate: 30,
      defaultInterpolation: 'none',
      errorPolicy: 'throw',
    });
    const data = mesh._thinInstanceDataStorage.matrixData as Float32Array;
    for (let f = 0; f < 20; f++) {
      loop.advance(1 / 144);
      for (const i of [0, 1]) {
        const expected = poseMatrix(loop, mesh, i).toArray();
        expect(Array.from(data.subarray(i * 16, i * 16 + 16))).toEqual(Array.from(expected));
      }
    }
    expect(loop.tick).toBeGreaterThan(3);
  });

  it('an instance’s pose is read back from its matrix: position, rotation and scale (mirrored too)', async () => {
    const scene = await havokScene();
    const scales = [new Vector3(0.5, 2, 3), new Vector3(-1, 1, 1)];
    const mesh = thinMesh(scene, scales);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    scales.forEach((s, i) => {
      const back = poseMatrix(loop, mesh, i).m;
      const original = Matrix.Compose(s, q, new Vector3(i * 4, 20, 0)).m;
      original.forEach((v, k) => {
        expect(back[k]).toBeCloseTo(v, 6);
      });
      expect(Math.hypot(...(loop.getSimulationPose(mesh, i)?.rotation ?? []))).toBeCloseTo(1, 6);
    });
  });
});
