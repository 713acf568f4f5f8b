import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Matrix, Quaternion } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene, Vector3 } from './havok-scene.ts';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';

describe('writes from outside the step, and what scene.render() draws', () => {
  it('scene.render() draws the teleported pose in the frame it was written (no smear)', async () => {
    const scene = await havokScene();
    new FreeCamera('cam', new Vector3(0, 5, -40), scene);
    const box = dynamicBox(scene, 'box', 0, 30, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    const drawn: number[] = [];
    scene.onBeforeRenderObservable.add(() => {
      drawn.push(box.computeWorldMatrix(true).m[12]);
    });
    for (let f = 0; f < 10; f++) loop.advance(1 / 144);
    loop.onPreRender(() => {
      if (loop.frameCount === 11) box.position.x = 25;
    });
    for (let f = 0; f < 10; f++) loop.advance(1 / 144);
    expect(drawn.slice(0, 10)).toEqual(new Array(10).fill(0));
    // frame 11 and every frame after: at x = 25, never in between
    for (const x of drawn.slice(10)) expect(x).toBeCloseTo(25, 4);
  });

  it('replacing a node’s position object or switching it to Euler angles is a teleport too', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 30, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    for (let f = 0; f < 10; f++) loop.advance(1 / 144);
    box.position = new Vector3(4, 8, 0);
    loop.advance(1 / 60);
    expect(box.position.x).toBeCloseTo(4, 5);
    expect(loop.getSimulationPose(box)?.position[1]).toBeLessThan(8);
    expect(loop.getSimulationPose(box)?.position[1]).toBeGreaterThan(7.9);
    box.rotationQuaternion = null;
    box.rotation.set(0, Math.PI / 2, 0);
    loop.advance(0);
    const q = Quaternion.RotationYawPitchRoll(Math.PI / 2, 0, 0);
    const sim = loop.getSimulationPose(box)?.rotation ?? [Number.NaN, 0, 0, 0];
    expect(Math.abs(sim[0] * q.x + sim[1] * q.y + sim[2] * q.z + sim[3] * q.w)).toBeCloseTo(1, 5);
  });

  it('a write made after the frame’s passes (postRender) is adopted by untrack, resetInterpolation, dispose and getSimulationPose', async () => {
    const scene = await havokScene();
    const [a, b, c, d] = [0, 3, 6, 9].map((x, i) => dynamicBox(scene, `n${i}`, x, 30, 0));
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(1 / 144);
    const off = loop.onPostRender(() => {
      for (const n of [a, b, c, d]) n.position.y = 12;
    });
    loop.advance(1 / 144);
    off();
    expect(loop.getSimulationPose(a)?.position[1]).toBe(12);
    loop.untrack(b);
    expect(b.position.y).toBe(12);
    loop.resetInterpolation();
    expect(c.position.y).toBe(12);
    expect(loop.getSimulationPose(c)?.position[1]).toBe(12);
    loop.dispose();
    expect(d.position.y).toBe(12);
  });

  it('untrack and dispose leave nodes at their simulation pose', async () => {
    const scene = await havokScene();
    const a = dynamicBox(scene, 'a', 0, 30, 0);
    const b = dynamicBox(scene, 'b', 3, 30, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 40; f++) loop.advance(1 / 144);
    const simA = loop.getSimulationPose(a)?.position[1];
    const simB = loop.getSimulationPose(b)?.position[1];
    expect(a.position.y).not.toBe(simA);
    loop.untrack(a);
    expect(a.position.y).toBe(simA);
    loop.dispose();
    expect(b.position.y).toBe(simB);
  });

  it('a fixedDelta changed at run time is what Havok steps with from the next step', async () => {
    const scene = await havokScene();
    dynamicBox(scene, 'box', 0, 30, 0);
    const plugin = scene.getPhysicsEngine()?.getPhysicsPlugin() as unknown as {
      executeStep(dt: number, bodies: unknown[]): void;
    };
    const deltas: number[] = [];
    const step = plugin.executeStep.bind(plugin);
    plugin.executeStep = (dt, bodies) => {
      deltas.push(dt);
      step(dt, bodies);
    };
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    loop.advance(2 / 60);
    loop.tickRate = 30;
    loop.advance(2 / 30);
    expect(deltas).toEqual([1 / 60, 1 / 60, 1 / 30, 1 / 30]);
  });
});

/** Two boxes under a rotated parent and four thin instances, stepped `steps` times. */
function hierarchy(scene: Scene, preStep: boolean) {
  const parent = new TransformNode('parent', scene);
  parent.position.set(1, 2, 3);
  parent.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 0, 1), 0.4);
  const kids = [0, 1].map((i) => {
    const box = MeshBuilder.CreateBox(`k${i}`, { size: 1 }, scene);
    box.parent = parent;
    box.position.set(i * 3, 10, 0);
    new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene);
    if (box.physicsBody) box.physicsBody.disablePreStep = !preStep;
    box.physicsBody?.setAngularVelocity(new Vector3(1, 2, 3));
    return box;
  });
  const thin = MeshBuilder.CreateBox('thin', { size: 1 }, scene);
  const m = new Float32Array(64);
  for (let i = 0; i < 4; i++) {
    Matrix.Compose(
      new Vector3(0.5, 0.5, 0.5),
      Quaternion.Identity(),
      new Vector3(10 + i * 2, 5, 0),
    ).copyToArray(m, i * 16);
  }
  thin.thinInstanceSetBuffer('matrix', m, 16);
  new PhysicsAggregate(thin, PhysicsShapeType.BOX, { mass: 1 }, scene);
  return { parent, kids, thin };
}

describe('Havok never sees an interpolated pose: parented bodies, thin instances', () => {
  it('parented bodies and thin instances end bit-identical at 30 and 144 fps and with interpolation off, pre-step on or off', async () => {
    for (const preStep of [false, true]) {
      const results: number[][] = [];
      for (const [fps, mode] of [
        [30, 'interpolate'],
        [144, 'interpolate'],
        [144, 'none'],
        [144, 'extrapolate'],
      ] as const) {
        const scene = await havokScene();
        const { kids, thin } = hierarchy(scene, preStep);
        const loop = new BabylonFixedLoop(scene, {
          tickRate: 30,
          defaultInterpolation: mode,
          errorPolicy: 'throw',
        });
        for (let f = 0; f < fps; f++) loop.advance(1 / fps);
        expect(loop.tick).toBe(30);
        const bodies = kids.flatMap((k) => {
          const pose = loop.getSimulationPose(k);
          return pose ? [...pose.position, ...pose.rotation] : [];
        });
        const instances = [0, 1, 2, 3].flatMap((i) => {
          const pose = loop.getSimulationPose(thin, i);
          return pose ? [...pose.position, ...pose.rotation, ...pose.scale] : [];
        });
        expect(bodies).toHaveLength(14);
        expect(instances).toHaveLength(40);
        results.push([...bodies, ...instances]);
        loop.dispose();
      }
      for (const r of results.slice(1)) expect(r).toEqual(results[0]);
    }
  });
});

describe('lifecycle of tracked nodes', () => {
  it('a slot freed and reused inside fixedUpdate (untrack a body, track thin instances) is not mixed up', async () => {
    const scene = await havokScene();
    const body = dynamicBox(scene, 'body', 0, 30, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 10; f++) loop.advance(1 / 144);
    const thin = MeshBuilder.CreateBox('thin', { size: 1 }, scene);
    const m = new Float32Array(16);
    Matrix.Compose(new Vector3(2, 2, 2), Quaternion.Identity(), new Vector3(-9, 20, 0)).copyToArray(
      m,
    );
    thin.thinInstanceSetBuffer('matrix', m, 16);
    const once = loop.onFixedUpdate(() => {
      once();
      loop.untrack(body);
      new PhysicsAggregate(thin, PhysicsShapeType.BOX, { mass: 1 }, scene);
      loop.track(thin);
    });
    const havok: number[] = [];
    loop.onPostSimulation(() => havok.push(body.position.x, body.position.y));
    const data = thin._thinInstanceDataStorage.matrixData as Float32Array;
    loop.advance(1 / 30);
    for (let f = 0; f < 20; f++) {
      loop.advance(1 / 144);
      // every frame: the untracked body is Havok's alone; the instance stays where it falls
      expect([body.position.x, body.position.y]).toEqual(havok.slice(-2));
      expect(data[12]).toBeCloseTo(-9, 4);
    }
    expect(data[12]).toBeCloseTo(-9, 4);
    expect(data[13]).toBeLessThan(20);
    expect(data[13]).toBeGreaterThan(18);
    expect(Math.hypot(data[0], data[1], data[2])).toBeCloseTo(2, 5);
  });

  it('a disposed plain node is forgotten at the next frame', async () => {
    const scene = await havokScene();
    const marker = new TransformNode('marker', scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    loop.track(marker);
    expect(loop.trackedCount).toBe(1);
    marker.dispose();
    loop.advance(1 / 60);
    expect(loop.isTracked(marker)).toBe(false);
    expect(loop.trackedCount).toBe(0);
  });
});
