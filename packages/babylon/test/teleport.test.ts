import { Quaternion } from '@babylonjs/core/Maths/math.vector.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene, Vector3 } from './havok-scene.ts';

describe('teleports', () => {
  it('a pose written in update renders in the same frame, moves the Havok body, and never smears', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 20; f++) loop.advance(1 / 144);
    let rendered = Number.NaN;
    loop.onPostRender(() => {
      rendered = box.position.x;
    });
    const off = loop.onUpdate(() => box.position.set(100, 20, 0));
    loop.advance(1 / 144);
    off();
    // the same frame shows it, and it is the new simulation pose
    expect(rendered).toBe(100);
    expect(box.position.y).toBe(20);
    expect(loop.getSimulationPose(box)?.position).toEqual([100, 20, 0]);
    // every later frame is between the new pose and Havok's next ones: never back towards x = 0
    const ys: number[] = [];
    for (let f = 0; f < 30; f++) {
      loop.advance(1 / 144);
      expect(box.position.x).toBeCloseTo(100, 4);
      ys.push(box.position.y);
    }
    expect(ys[0]).toBeLessThanOrEqual(20);
    for (let i = 1; i < ys.length; i++) expect(ys[i]).toBeLessThanOrEqual(ys[i - 1]);
    // Havok itself continued from there (it kept the body's velocity: Unity/Godot semantics)
    const sim = loop.getSimulationPose(box);
    expect(sim?.position[0]).toBeCloseTo(100, 4);
    expect(sim?.position[1]).toBeLessThan(20);
  });

  it('a pose written between frames (an input handler) is adopted at the start of the next frame', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    for (let f = 0; f < 30; f++) loop.advance(1 / 144);
    box.position.set(-5, 5, 5);
    let seenInFixedUpdate: number[] = [];
    loop.onFixedUpdate(() => {
      seenInFixedUpdate = [box.position.x, box.position.y, box.position.z];
    });
    loop.advance(1 / 60);
    expect(seenInFixedUpdate).toEqual([-5, 5, 5]);
    expect(box.position.x).toBeCloseTo(-5, 5);
  });

  it('teleport(node, position, rotation) moves the body, resets interpolation and renders this frame', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 10; f++) loop.advance(1 / 144);
    const q = Quaternion.RotationAxis(new Vector3(0, 1, 0), Math.PI / 2);
    loop.teleport(box, new Vector3(7, 30, -2), q);
    expect(box.position.asArray()).toEqual([7, 30, -2]);
    loop.advance(0); // a frame with no step still shows exactly the teleported pose
    expect(box.position.asArray()).toEqual([7, 30, -2]);
    expect(box.rotationQuaternion?.asArray()).toEqual(q.asArray());
    loop.advance(1 / 30);
    expect(loop.getSimulationPose(box)?.position[0]).toBeCloseTo(7, 4);
    expect(loop.getSimulationPose(box)?.position[1]).toBeLessThan(30);
  });

  it('teleport inside fixedUpdate moves the body before Havok steps and starts interpolation afresh', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 30; f++) loop.advance(1 / 144);
    const once = loop.onFixedUpdate(() => {
      once();
      loop.teleport(box, new Vector3(0, 10, 0));
    });
    loop.advance(1 / 30);
    const sim = loop.getSimulationPose(box)?.position[1] ?? Number.NaN;
    expect(sim).toBeLessThan(10);
    expect(sim).toBeGreaterThan(9);
    // previous = current after the teleport step: no streak down from y ≈ 49
    expect(box.position.y).toBe(sim);
  });

  it('teleport of an untracked body moves its Havok body too', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, autoTrack: false });
    loop.teleport(box, new Vector3(3, 3, 3));
    loop.advance(1 / 60);
    expect(box.position.x).toBeCloseTo(3, 5);
    expect(box.position.y).toBeLessThan(3);
    expect(box.position.y).toBeGreaterThan(2.9);
  });

  it('resetInterpolation(node) shows the simulation pose at once', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 40; f++) loop.advance(1 / 144);
    expect(box.position.y).not.toBe(loop.getSimulationPose(box)?.position[1]);
    loop.resetInterpolation(box);
    expect(box.position.y).toBe(loop.getSimulationPose(box)?.position[1]);
  });
});
