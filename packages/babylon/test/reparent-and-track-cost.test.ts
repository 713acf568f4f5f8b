/**
 * Re-parenting a tracked Havok body (the body stays where Havok put it, and nothing throws), and
 * the work `track` does (amortised constant: no pass over every tracked node per new node).
 */
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it, vi } from 'vitest';
import { BabylonPlatform } from '../src/babylon-platform.ts';
import { dynamicBox, havokScene } from './havok-scene.ts';

const noGravity = { x: 0, y: 0, z: 0 };

function worldPosition(node: TransformNode): number[] {
  node.computeWorldMatrix(true);
  const p = node.absolutePosition;
  return [p.x, p.y, p.z];
}

describe('a tracked body re-parented', () => {
  it('setParent: the body stays where Havok has it, not moved by the parent offset', async () => {
    const scene = await havokScene({}, noGravity);
    const platform = new TransformNode('platform', scene);
    platform.position.set(5, 0, 0);
    const crate = dynamicBox(scene, 'crate', 1, 2, 3);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 10; f++) loop.advance(1 / 60);
    crate.setParent(platform);
    for (let f = 0; f < 20; f++) loop.advance(1 / 60);
    const [x, y, z] = worldPosition(crate);
    expect(x).toBeCloseTo(1, 4);
    expect(y).toBeCloseTo(2, 4);
    expect(z).toBeCloseTo(3, 4);
    expect(crate.position.x).toBeCloseTo(-4, 4);
    expect(loop.getSimulationPose(crate).position[0]).toBeCloseTo(1, 4);
  });

  it('parent = null: no throw, and the body stays where Havok has it', async () => {
    const scene = await havokScene({}, noGravity);
    const platform = new TransformNode('platform', scene);
    platform.position.set(5, 0, 0);
    const crate = dynamicBox(scene, 'crate', 1, 2, 3);
    crate.parent = platform;
    crate.position.set(1, 2, 3);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    for (let f = 0; f < 10; f++) loop.advance(1 / 60);
    const before = worldPosition(crate);
    crate.parent = null;
    for (let f = 0; f < 20; f++) loop.advance(1 / 60);
    const after = worldPosition(crate);
    for (let k = 0; k < 3; k++) expect(after[k]).toBeCloseTo(before[k], 4);
    expect(loop.getSimulationPose(crate).position[0]).toBeCloseTo(before[0], 4);
  });
});

describe('the work of track', () => {
  it('asks the platform about each new node a bounded number of times (no pass over all)', async () => {
    const scene = await havokScene({}, noGravity);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, autoTrack: false });
    const asked = vi.spyOn(BabylonPlatform.prototype, 'simulatedInWorld');
    const n = 2000;
    for (let i = 0; i < n; i++) loop.track(new TransformNode(`n${i}`, scene));
    expect(loop.trackedCount).toBe(n);
    // one classification per node when tracked (was one per tracked node per track: n²/2)
    expect(asked.mock.calls.length).toBeLessThanOrEqual(2 * n);
    asked.mockRestore();
  });

  it('auto-tracks a frame of new bodies with a bounded amount of work per body', async () => {
    const scene = await havokScene({}, noGravity);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30 });
    const asked = vi.spyOn(BabylonPlatform.prototype, 'simulatedInWorld');
    const n = 400;
    for (let i = 0; i < n; i++) dynamicBox(scene, `b${i}`, i * 2, 0, 0);
    loop.advance(1 / 30);
    expect(loop.trackedCount).toBe(n);
    expect(asked.mock.calls.length).toBeLessThanOrEqual(3 * n);
    asked.mockRestore();
  });
});
