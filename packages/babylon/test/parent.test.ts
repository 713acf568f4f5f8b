import { Quaternion } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene, Vector3 } from './havok-scene.ts';

describe('parented nodes', () => {
  it('a body under a moved, rotated and scaled parent renders at the interpolation of its Havok world poses', async () => {
    const scene = await havokScene();
    const parent = new TransformNode('parent', scene);
    parent.position.set(5, 2, -3);
    parent.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.7);
    parent.scaling.set(2, 2, 2);
    const box = MeshBuilder.CreateBox('box', { size: 1 }, scene);
    box.parent = parent;
    box.position.set(1, 10, 0);
    new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    expect(loop.isTracked(box)).toBe(true);
    const worldY: number[] = [];
    const worldX: number[] = [];
    const record = () => {
      box.computeWorldMatrix(true);
      worldX.push(box.absolutePosition.x);
      worldY.push(box.absolutePosition.y);
    };
    record();
    loop.onPostSimulation(record);
    // the parent keeps moving in update: that is not a teleport of the body
    loop.onUpdate(() => {
      parent.position.x += 0.05;
      parent.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.7 + loop.time);
    });
    for (let f = 0; f < 144; f++) {
      loop.advance(1 / 144);
      if (loop.tick === 0) continue;
      box.computeWorldMatrix(true);
      const a = loop.alpha;
      const expectedY = worldY[loop.tick - 1] + (worldY[loop.tick] - worldY[loop.tick - 1]) * a;
      expect(box.absolutePosition.y).toBeCloseTo(expectedY, 4);
      // free fall: x stays where Havok has it, whatever the parent does
      expect(box.absolutePosition.x).toBeCloseTo(worldX[0], 4);
    }
    expect(loop.tick).toBe(30);
    expect(worldY[0] - worldY[30]).toBeGreaterThan(4);
  });

  it('a tracked plain child follows its tracked parent: both interpolate and compose', async () => {
    const scene = await havokScene();
    const carrier = dynamicBox(scene, 'carrier', 0, 30, 0);
    const marker = new TransformNode('marker', scene);
    marker.parent = carrier;
    marker.position.set(0, 1, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    loop.track(marker);
    loop.onFixedUpdate(() => {
      marker.position.x += 0.1; // simulation of the child, in its parent's space
    });
    for (let f = 0; f < 100; f++) {
      loop.advance(1 / 144);
      marker.computeWorldMatrix(true);
      carrier.computeWorldMatrix(true);
      expect(marker.absolutePosition.y - carrier.absolutePosition.y).toBeCloseTo(1, 5);
    }
    const sim = loop.getSimulationPose(marker);
    expect(sim?.position[0]).toBeCloseTo(0.1 * loop.tick, 9);
    // rendered one step behind, interpolated
    expect(marker.position.x).toBeCloseTo(0.1 * (loop.tick - 1 + loop.alpha), 9);
  });
});
