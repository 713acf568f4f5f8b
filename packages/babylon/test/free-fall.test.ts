import type { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop, type InterpolationMode } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene } from './havok-scene.ts';

/** Poses of every box after `seconds` of frames at `fps`, as exact numbers. */
async function runFor(
  fps: number,
  seconds: number,
  mode: InterpolationMode,
  preStep: boolean,
): Promise<number[]> {
  const scene = await havokScene();
  const boxes: Mesh[] = [];
  for (let i = 0; i < 4; i++) {
    const box = dynamicBox(scene, `b${i}`, i * 0.3, 10 + i * 1.2, 0);
    box.rotationQuaternion?.set(0.1 * i, 0.2, 0, 1);
    box.rotationQuaternion?.normalize();
    boxes.push(box);
  }
  // let each box read its node pose before every step (Havok's pre-step): any interpolated pose
  // left on a node would then leak into the simulation
  for (const box of boxes) if (box.physicsBody) box.physicsBody.disablePreStep = !preStep;
  // spin them, so rotations are interpolated too
  boxes.forEach((box, i) => {
    box.physicsBody?.setAngularVelocity(
      new (box.position.constructor as new (x: number, y: number, z: number) => Vector3)(
        1 + i,
        0.5,
        -i,
      ),
    );
  });
  const loop = new BabylonFixedLoop(scene, {
    tickRate: 30,
    defaultInterpolation: mode,
    errorPolicy: 'throw',
  });
  const frames = Math.round(seconds * fps);
  for (let f = 0; f < frames; f++) loop.advance(1 / fps);
  expect(loop.tick).toBe(seconds * 30);
  const out: number[] = [];
  for (const box of boxes) {
    const pose = loop.getSimulationPose(box);
    if (!pose) throw new Error('not tracked');
    out.push(...pose.position, ...pose.rotation);
  }
  loop.dispose();
  scene.getEngine().dispose();
  return out;
}

/** The same bodies stepped by Havok alone, `steps` times `1/30` s, no loop, no rendering. */
async function bareHavok(steps: number, preStep: boolean): Promise<number[]> {
  const scene = await havokScene();
  const boxes: Mesh[] = [];
  for (let i = 0; i < 4; i++) {
    const box = dynamicBox(scene, `b${i}`, i * 0.3, 10 + i * 1.2, 0);
    box.rotationQuaternion?.set(0.1 * i, 0.2, 0, 1);
    box.rotationQuaternion?.normalize();
    boxes.push(box);
  }
  for (const box of boxes) if (box.physicsBody) box.physicsBody.disablePreStep = !preStep;
  boxes.forEach((box, i) => {
    box.physicsBody?.setAngularVelocity(
      new (box.position.constructor as new (x: number, y: number, z: number) => Vector3)(
        1 + i,
        0.5,
        -i,
      ),
    );
  });
  const engine = scene.getPhysicsEngine();
  if (engine?.getPluginVersion() !== 2) throw new Error('no V2 physics');
  const v2 = engine as unknown as {
    getPhysicsPlugin(): {
      executeStep(dt: number, bodies: unknown[]): void;
      setTimeStep(dt: number): void;
    };
    getBodies(): unknown[];
  };
  v2.getPhysicsPlugin().setTimeStep(1 / 30);
  for (let s = 0; s < steps; s++) v2.getPhysicsPlugin().executeStep(1 / 30, v2.getBodies());
  const out: number[] = [];
  for (const box of boxes) {
    const q = box.rotationQuaternion;
    if (!q) throw new Error('no quaternion');
    out.push(box.position.x, box.position.y, box.position.z, q.x, q.y, q.z, q.w);
  }
  scene.getEngine().dispose();
  return out;
}

describe('free fall with Havok on a NullEngine', () => {
  it('at 30 Hz physics and 144 fps the rendered height strictly decreases every frame and lies between the two Havok poses it interpolates', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene as Scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    expect(loop.isTracked(box)).toBe(true);
    // Havok's poses, read where the node holds its simulation pose
    const havokY: number[] = [box.position.y];
    loop.onPostSimulation(() => havokY.push(box.position.y));
    let last = Number.POSITIVE_INFINITY;
    let checked = 0;
    for (let f = 0; f < 2 * 144; f++) {
      loop.advance(1 / 144);
      const rendered = box.position.y;
      if (loop.tick === 0) {
        // before the first step there is nothing to interpolate towards: the spawn pose
        expect(rendered).toBe(50);
        continue;
      }
      const previous = havokY[loop.tick - 1];
      const current = havokY[loop.tick];
      expect(rendered).toBeLessThan(last);
      expect(rendered).toBeLessThanOrEqual(previous);
      expect(rendered).toBeGreaterThanOrEqual(current);
      // and it is the interpolation itself, not just somewhere in between
      expect(rendered).toBeCloseTo(previous + (current - previous) * loop.alpha, 9);
      last = rendered;
      checked++;
    }
    expect(loop.tick).toBe(60);
    expect(checked).toBeGreaterThan(2 * 144 - 6);
    // it really fell: ½ g t² ≈ 19.6 m in 2 s (one step behind on screen)
    expect(50 - havokY[60]).toBeGreaterThan(19);
    loop.dispose();
  });

  it('body poses after 2 s are bit-identical at 30, 60 and 144 fps, with interpolation off, and with Havok stepping alone (Havok never saw an interpolated pose)', async () => {
    for (const preStep of [true, false]) {
      const reference = await bareHavok(60, preStep);
      for (const fps of [30, 60, 144]) {
        expect(await runFor(fps, 2, 'interpolate', preStep)).toEqual(reference);
        expect(await runFor(fps, 2, 'extrapolate', preStep)).toEqual(reference);
      }
      expect(await runFor(144, 2, 'none', preStep)).toEqual(reference);
    }
  });
});
