import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { havokScene, Vector3 } from './havok-scene.ts';
import '@babylonjs/core/Meshes/instancedMesh.js';

describe('InstancedMesh bodies', () => {
  it('each instance is its own body, auto-tracked and interpolated', async () => {
    const scene = await havokScene();
    const source = MeshBuilder.CreateSphere('src', { diameter: 1 }, scene);
    source.position.set(0, -100, 0);
    const instances = [0, 1, 2].map((i) => {
      const inst = source.createInstance(`i${i}`);
      inst.position.set(i * 3, 10 + i, 0);
      new PhysicsAggregate(inst, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
      return inst;
    });
    instances[1].physicsBody?.setLinearVelocity(new Vector3(4, 0, 0));
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (const inst of instances) expect(loop.isTracked(inst)).toBe(true);
    const havok: number[][] = [];
    loop.onPostSimulation(() => havok.push(instances.map((i) => i.position.y)));
    for (let f = 0; f < 72; f++) {
      loop.advance(1 / 144);
      if (loop.tick < 2) continue;
      instances.forEach((inst, k) => {
        const prev = havok[loop.tick - 2][k];
        const curr = havok[loop.tick - 1][k];
        expect(inst.position.y).toBeCloseTo(prev + (curr - prev) * loop.alpha, 9);
      });
    }
    expect(instances[1].position.x).toBeGreaterThan(1.5);
  });
});
