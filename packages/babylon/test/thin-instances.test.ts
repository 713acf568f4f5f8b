import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { havokScene } from './havok-scene.ts';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';

const SCALES = [0.5, 1, 2, 3];

function thinBoxes(scene: Scene) {
  const mesh = MeshBuilder.CreateBox('thin', { size: 1 }, scene);
  const matrices = new Float32Array(16 * SCALES.length);
  SCALES.forEach((s, i) => {
    Matrix.Compose(
      new Vector3(s, s, s),
      Quaternion.RotationAxis(new Vector3(1, 0, 0), 0.3 * i),
      new Vector3(i * 4, 20 + i, 0),
    ).copyToArray(matrices, i * 16);
  });
  mesh.thinInstanceSetBuffer('matrix', matrices, 16);
  new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
  return mesh;
}

function instance(mesh: ReturnType<typeof thinBoxes>, i: number) {
  // straight from the instance buffer (thinInstanceGetWorldMatrices caches its first answer)
  const data = Matrix.FromArray(mesh._thinInstanceDataStorage.matrixData as Float32Array, i * 16);
  const scale = new Vector3();
  const rotation = new Quaternion();
  const position = new Vector3();
  data.decompose(scale, rotation, position);
  return { scale, rotation, position };
}

describe('thin-instance bodies', () => {
  it('each instance is interpolated between its Havok poses and keeps its own scale', async () => {
    const scene = await havokScene();
    const mesh = thinBoxes(scene);
    expect(mesh.physicsBody?.numInstances).toBe(4);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    expect(loop.trackedCount).toBe(4);
    const havok: number[][] = [SCALES.map((_, i) => 20 + i)];
    loop.onPostSimulation(() => havok.push(SCALES.map((_, i) => instance(mesh, i).position.y)));
    const last = SCALES.map(() => Number.POSITIVE_INFINITY);
    for (let f = 0; f < 144; f++) {
      loop.advance(1 / 144);
      for (let i = 0; i < SCALES.length; i++) {
        const { scale, position } = instance(mesh, i);
        expect(scale.x).toBeCloseTo(SCALES[i], 5);
        expect(scale.y).toBeCloseTo(SCALES[i], 5);
        expect(scale.z).toBeCloseTo(SCALES[i], 5);
        if (loop.tick === 0) continue;
        const prev = havok[loop.tick - 1][i];
        const curr = havok[loop.tick][i];
        expect(position.y).toBeLessThan(last[i]);
        expect(position.y).toBeLessThanOrEqual(prev + 1e-5);
        expect(position.y).toBeGreaterThanOrEqual(curr - 1e-5);
        last[i] = position.y;
      }
    }
    expect(loop.tick).toBe(30);
    // they fell from their matrices (Babylon alone would have started every instance at 0, 0, 0)
    expect(loop.getSimulationPose(mesh, 0)?.position[1]).toBeCloseTo(20 - 9.81 / 2, 0);
    expect(loop.getSimulationPose(mesh, 3)?.position[0]).toBeCloseTo(12, 3);
    // the simulation pose keeps the scale as well (Havok alone would write a unit scale)
    expect(loop.getSimulationPose(mesh, 3)?.scale[0]).toBeCloseTo(3, 5);
    // also inside the fixed step
    let inStep = 0;
    loop.onFixedUpdate(() => {
      inStep = instance(mesh, 0).scale.x;
    });
    loop.advance(1 / 30);
    expect(inStep).toBeCloseTo(0.5, 5);
  });

  it('teleportInstance moves one instance, keeps its scale, and leaves the others alone', async () => {
    const scene = await havokScene();
    const mesh = thinBoxes(scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(1 / 144);
    const before = instance(mesh, 1).position.y;
    loop.teleportInstance(mesh, 2, new Vector3(-10, 40, 0));
    const moved = instance(mesh, 2);
    expect(moved.position.x).toBeCloseTo(-10, 4);
    expect(moved.position.y).toBeCloseTo(40, 4);
    expect(moved.scale.x).toBeCloseTo(2, 5);
    expect(instance(mesh, 1).position.y).toBeCloseTo(before, 5);
    loop.advance(1 / 30);
    const after = loop.getSimulationPose(mesh, 2);
    expect(after?.position[0]).toBeCloseTo(-10, 4);
    expect(after?.position[1]).toBeLessThan(40);
    expect(after?.position[1]).toBeGreaterThan(38);
    expect(after?.scale[0]).toBeCloseTo(2, 5);
    // instance 1 kept falling from where it was
    expect(loop.getSimulationPose(mesh, 1)?.position[1]).toBeLessThan(before);
    expect(() => loop.teleportInstance(mesh, 9, new Vector3())).toThrowError(RangeError);
    expect(() => loop.teleport(mesh, new Vector3())).toThrowError(/teleportInstance/);
  });

  it('a matrix written with thinInstanceSetMatrixAt outside the step is a teleport', async () => {
    const scene = await havokScene();
    const mesh = thinBoxes(scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(1 / 144);
    mesh.thinInstanceSetMatrixAt(
      0,
      Matrix.Compose(new Vector3(0.5, 0.5, 0.5), Quaternion.Identity(), new Vector3(0, 60, 0)),
    );
    loop.advance(1 / 30);
    const sim = loop.getSimulationPose(mesh, 0);
    expect(sim?.position[1]).toBeLessThan(60);
    expect(sim?.position[1]).toBeGreaterThan(59);
    expect(sim?.scale[0]).toBeCloseTo(0.5, 5);
  });

  it('untrack adopts a matrix written since the last frame: the instance stays there, in Havok too', async () => {
    const scene = await havokScene();
    const mesh = thinBoxes(scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(1 / 144);
    const written = new Vector3(40, 60, 0);
    mesh.thinInstanceSetMatrixAt(1, Matrix.Compose(Vector3.One(), Quaternion.Identity(), written));
    expect(loop.untrack(mesh)).toBe(true);
    expect(loop.isTracked(mesh)).toBe(false);
    expect(instance(mesh, 1).position.x).toBeCloseTo(40, 4);
    expect(instance(mesh, 1).position.y).toBeCloseTo(60, 4);
    // Havok steps the untracked body and writes the instance back: from where it was written
    loop.advance(1 / 30);
    expect(instance(mesh, 1).position.x).toBeCloseTo(40, 3);
    expect(instance(mesh, 1).position.y).toBeLessThan(60);
    expect(instance(mesh, 1).position.y).toBeGreaterThan(59);
  });
});
