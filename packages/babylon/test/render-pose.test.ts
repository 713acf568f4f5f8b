import { BabylonFixedLoop, PoseBuffer } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene, Vector3 } from './havok-scene.ts';

// Unparented bodies are interpolated inline when their rotation barely changed in the step (the
// nlerp case) and by the core buffer otherwise; both must render the core PoseBuffer's numbers.
describe('the rendered pose of a body is the core PoseBuffer’s interpolation, number for number', () => {
  for (const [label, spin] of [
    ['slow spin (nlerp case)', 0.5],
    ['fast spin (slerp case)', 12],
  ] as const) {
    it(label, async () => {
      const scene = await havokScene();
      const box = dynamicBox(scene, 'box', 0, 40, 0);
      box.physicsBody?.setAngularVelocity(new Vector3(spin, spin * 0.7, -spin * 0.3));
      box.physicsBody?.setLinearVelocity(new Vector3(1, 0, -2));
      const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
      // the two latest simulation poses, as the node holds them inside the step
      const sim: number[][] = [];
      loop.onPostSimulation(() => {
        const q = box.rotationQuaternion;
        sim.push([...box.position.asArray(), q?.x ?? 0, q?.y ?? 0, q?.z ?? 0, q?.w ?? 1]);
      });
      const poses = new PoseBuffer();
      const slot = poses.add('interpolate');
      let checked = 0;
      for (let f = 0; f < 60; f++) {
        loop.advance(1 / 144);
        if (sim.length < 2) continue;
        const [a, b] = sim.slice(-2);
        poses.setPose(slot, a[0], a[1], a[2], a[3], a[4], a[5], a[6], 1, 1, 1);
        poses.push(slot, b[0], b[1], b[2], b[3], b[4], b[5], b[6], 1, 1, 1);
        poses.interpolate(loop.alpha, loop.fixedDelta);
        const q = box.rotationQuaternion;
        const shown = [...box.position.asArray(), q?.x, q?.y, q?.z, q?.w];
        expect(shown).toEqual(Array.from(poses.output.subarray(0, 7)));
        checked++;
      }
      expect(checked).toBeGreaterThan(50);
    });
  }
});
