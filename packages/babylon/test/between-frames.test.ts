import { Matrix, Quaternion } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop, type InterpolationMode } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, ground, havokScene, Vector3 } from './havok-scene.ts';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';

const FRAME = 1 / 144;

/** Advances 144 fps frames until the next one will run no fixed step (30 Hz: most of them). */
function untilAStepFreeFrameIsNext(loop: BabylonFixedLoop): void {
  loop.advance(FRAME);
  while (loop.accumulator + FRAME >= loop.fixedDelta - 1e-9) loop.advance(FRAME);
}

async function fallingBox(mode: InterpolationMode) {
  const scene = await havokScene();
  const box = dynamicBox(scene, 'box', 0, 50, 0);
  const loop = new BabylonFixedLoop(scene, {
    tickRate: 30,
    defaultInterpolation: mode,
    errorPolicy: 'throw',
  });
  for (let f = 0; f < 20; f++) loop.advance(FRAME);
  untilAStepFreeFrameIsNext(loop);
  return { scene, box, loop };
}

// Writes made between frames (an input handler, postRender) are adopted by the first pass of the
// next frame that would otherwise lose them: before the steps, in the interpolation write, or
// before drawing. These pin the frames that run no step, where no pass runs before `update`.
describe('writes between frames, next frame without a fixed step', () => {
  for (const mode of ['interpolate', 'none'] as const) {
    it(`a moving body written between frames renders there and becomes the simulation pose (${mode})`, async () => {
      const { box, loop } = await fallingBox(mode);
      box.position.set(-5, 40, 2);
      let seenInUpdate: number[] = [];
      const off = loop.onUpdate(() => {
        seenInUpdate = box.position.asArray();
      });
      loop.advance(FRAME);
      off();
      expect(loop.lastFrame.steps).toBe(0);
      expect(seenInUpdate).toEqual([-5, 40, 2]);
      expect(box.position.asArray()).toEqual([-5, 40, 2]);
      expect(loop.getSimulationPose(box)?.position).toEqual([-5, 40, 2]);
      // Havok continues from there: never back towards x = 0, falling from y = 40
      let lastY = 40;
      for (let f = 0; f < 30; f++) {
        loop.advance(FRAME);
        expect(box.position.x).toBeCloseTo(-5, 4);
        expect(box.position.y).toBeLessThanOrEqual(lastY);
        lastY = box.position.y;
      }
      expect(loop.getSimulationPose(box)?.position[0]).toBeCloseTo(-5, 4);
      expect(loop.getSimulationPose(box)?.position[1]).toBeLessThan(40);
    });
  }

  it('a replaced position object is adopted in that frame and written from then on', async () => {
    const { box, loop } = await fallingBox('interpolate');
    const replaced = new Vector3(3, 33, 3);
    box.position = replaced;
    loop.advance(FRAME);
    expect(loop.lastFrame.steps).toBe(0);
    expect(box.position).toBe(replaced);
    expect(replaced.asArray()).toEqual([3, 33, 3]);
    expect(loop.getSimulationPose(box)?.position).toEqual([3, 33, 3]);
    for (let f = 0; f < 30; f++) loop.advance(FRAME);
    expect(box.position).toBe(replaced);
    expect(replaced.x).toBeCloseTo(3, 4);
    expect(replaced.y).toBeLessThan(33);
    expect(replaced.y).toBeGreaterThan(30);
  });

  it('a rotation written between frames is adopted too', async () => {
    const { box, loop } = await fallingBox('interpolate');
    const q = Quaternion.RotationAxis(new Vector3(0, 0, 1), 1);
    box.rotationQuaternion?.copyFrom(q);
    loop.advance(FRAME);
    expect(loop.lastFrame.steps).toBe(0);
    expect(loop.getSimulationPose(box)?.rotation).toEqual([q.x, q.y, q.z, q.w]);
    expect(box.rotationQuaternion?.asArray()).toEqual([q.x, q.y, q.z, q.w]);
  });

  it('a parented body written between frames is adopted in its parent’s space', async () => {
    const scene = await havokScene();
    const parent = new TransformNode('parent', scene);
    parent.position.set(5, 2, -3);
    const box = MeshBuilder.CreateBox('box', { size: 1 }, scene);
    box.parent = parent;
    box.position.set(0, 30, 0);
    new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(FRAME);
    untilAStepFreeFrameIsNext(loop);
    box.position.set(1, 20, 0);
    loop.advance(FRAME);
    expect(loop.lastFrame.steps).toBe(0);
    expect(box.position.asArray()).toEqual([1, 20, 0]);
    const sim = loop.getSimulationPose(box)?.position ?? [];
    expect(sim[0]).toBeCloseTo(6, 5);
    expect(sim[1]).toBeCloseTo(22, 5);
    expect(sim[2]).toBeCloseTo(-3, 5);
    for (let f = 0; f < 30; f++) loop.advance(FRAME);
    box.computeWorldMatrix(true);
    expect(box.absolutePosition.x).toBeCloseTo(6, 4);
    expect(box.absolutePosition.y).toBeLessThan(22);
    expect(box.absolutePosition.y).toBeGreaterThan(19);
  });

  it('a thin instance written between frames is adopted with its scale', async () => {
    const scene: Scene = await havokScene();
    const mesh = MeshBuilder.CreateBox('thin', { size: 1 }, scene);
    const m = new Float32Array(32);
    for (let i = 0; i < 2; i++) {
      Matrix.Compose(
        new Vector3(2, 2, 2),
        Quaternion.Identity(),
        new Vector3(i * 5, 30, 0),
      ).copyToArray(m, i * 16);
    }
    mesh.thinInstanceSetBuffer('matrix', m, 16);
    new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(FRAME);
    untilAStepFreeFrameIsNext(loop);
    mesh.thinInstanceSetMatrixAt(
      1,
      Matrix.Compose(new Vector3(2, 2, 2), Quaternion.Identity(), new Vector3(-7, 25, 1)),
    );
    loop.advance(FRAME);
    expect(loop.lastFrame.steps).toBe(0);
    const pose = loop.getSimulationPose(mesh, 1);
    expect(pose?.position[0]).toBeCloseTo(-7, 5);
    expect(pose?.position[1]).toBeCloseTo(25, 5);
    expect(pose?.position[2]).toBeCloseTo(1, 5);
    expect(pose?.scale[0]).toBeCloseTo(2, 5);
    for (let f = 0; f < 30; f++) loop.advance(FRAME);
    const data = mesh._thinInstanceDataStorage.matrixData as Float32Array;
    expect(data[16 + 12]).toBeCloseTo(-7, 4);
    expect(data[16 + 13]).toBeLessThan(25);
    expect(data[16 + 13]).toBeGreaterThan(22);
    expect(Math.hypot(data[16], data[17], data[18])).toBeCloseTo(2, 5);
  });
});

describe('bodies at rest', () => {
  it('a resting body shows its simulation pose, adopts writes between frames, and moves again when hit', async () => {
    const scene = await havokScene();
    ground(scene);
    const box = dynamicBox(scene, 'box', 0, 1, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    // until Havok leaves it exactly where it was (deactivated)
    let last = '';
    let same = 0;
    for (let f = 0; f < 144 * 20 && same < 20; f++) {
      loop.advance(FRAME);
      const pose = JSON.stringify(loop.getSimulationPose(box));
      same = pose === last ? same + 1 : 0;
      last = pose;
    }
    expect(same).toBe(20);
    const sim = loop.getSimulationPose(box);
    expect(box.position.asArray()).toEqual(sim?.position);
    expect(box.rotationQuaternion?.asArray()).toEqual(sim?.rotation);
    // written between frames, next frame without a step: adopted before the frame is drawn
    untilAStepFreeFrameIsNext(loop);
    box.position.set(2, 6, 0);
    loop.advance(FRAME);
    expect(loop.lastFrame.steps).toBe(0);
    expect(box.position.asArray()).toEqual([2, 6, 0]);
    expect(loop.getSimulationPose(box)?.position).toEqual([2, 6, 0]);
    // it falls again from there, rendered between its Havok poses
    const havok: number[] = [];
    const off = loop.onPostSimulation(() => havok.push(box.position.y));
    let previous = 6;
    for (let f = 0; f < 40; f++) {
      loop.advance(FRAME);
      expect(box.position.x).toBeCloseTo(2, 4);
      expect(box.position.y).toBeLessThanOrEqual(previous);
      previous = box.position.y;
    }
    off();
    expect(havok.length).toBeGreaterThan(5);
    expect(previous).toBeLessThan(6);
    expect(previous).toBeGreaterThanOrEqual(havok[havok.length - 1] - 1e-9);
  });

  it('switching the mode of a resting body renders the new mode at once', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 30, 0);
    const loop = new BabylonFixedLoop(scene, {
      tickRate: 30,
      defaultInterpolation: 'extrapolate',
      errorPolicy: 'throw',
    });
    for (let f = 0; f < 20; f++) loop.advance(FRAME);
    untilAStepFreeFrameIsNext(loop);
    loop.advance(FRAME);
    const extrapolated = box.position.y;
    const sim = loop.getSimulationPose(box)?.position[1] ?? Number.NaN;
    expect(extrapolated).toBeLessThan(sim);
    loop.defaultInterpolation = 'none';
    loop.advance(0);
    expect(box.position.y).toBe(sim);
  });
});
