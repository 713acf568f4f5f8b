/**
 * Regressions of the core tracker found from outside, each over the fake platform: a NaN the
 * tracker drew taken for a write (docs/guarantees.md, "Non-finite poses"), instance indices that
 * are not integers, storage kept after untracking, a write to a resting parent outside the step,
 * and a `fixedDelta` changed mid-frame reaching the engines.
 */
import { FixedLoop } from '@fixedtick/core';
import { lerp, PoseBuffer } from '@fixedtick/core/interpolation';
import { describe, expect, it } from 'vitest';
import {
  FakeBodyPlatform,
  FakePlatform,
  fakeMesh,
  fakeNode,
  trackerOver,
} from './support/fake-platform.ts';

function setup(bodies = false): ReturnType<typeof trackerOver> {
  return trackerOver(bodies ? new FakeBodyPlatform() : new FakePlatform());
}

describe('a non-finite pose from a step (defect 1)', () => {
  it('is refused: the picture and the simulation pose stay finite, and a finite step is taken at once', () => {
    const { loop, tracker } = setup();
    const node = fakeNode('crate');
    tracker.track(node);
    loop.onFixedUpdate((_dt, tick) => {
      node.pose[0] = tick === 2 ? Number.NaN : tick;
    });
    // steps 0..3 (the third leaves NaN), drawn half a step behind: between 1 (the NaN refused)
    // and 3
    for (let i = 0; i < 9; i++) loop.advance(0.05);
    expect(node.pose[0]).toBe(2);
    expect(tracker.getSimulationPose(node).position[0]).toBe(3);
    loop.advance(0.05); // step 4
    expect(node.pose[0]).toBe(3);
    for (let i = 0; i < 231; i++) loop.advance(0.05);
    expect(node.pose[0]).toBeCloseTo(tracker.getSimulationPose(node).position[0] - 0.5, 9);
  });

  it('NaN drawn by the tracker is never taken for a write (none mode)', () => {
    const { loop, tracker, platform } = setup(true);
    const node = fakeNode('body');
    node.body = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
    tracker.track(node, { interpolation: 'none' });
    loop.addAdapter({
      physicsStep: () => {
        node.body = node.body as number[];
        node.body[0] = loop.tick === 1 ? Number.NaN : loop.tick;
      },
    });
    for (let i = 0; i < 10; i++) loop.advance(0.1);
    // the engine's body was never pushed back to a pose the game did not write
    expect(platform.calls.adopted ?? 0).toBe(0);
    expect(node.pose[0]).toBe(9);
  });
});

describe('lerp over the whole finite range (defect 2)', () => {
  it('gives the ends exactly when their difference overflows', () => {
    expect(lerp(-1e308, 1e308, 0)).toBe(-1e308);
    expect(lerp(-1e308, 1e308, 1)).toBe(1e308);
    expect(lerp(1e308, -1e308, 0)).toBe(1e308);
    expect(Number.isFinite(lerp(-1e308, 1e308, 0.25))).toBe(true);
  });

  it('PoseBuffer draws such rows exactly at alpha 0 and 1', () => {
    const poses = new PoseBuffer();
    const slot = poses.add('interpolate');
    poses.setPose(slot, -1e308, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    poses.push(slot, 1e308, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    poses.interpolate(0, 0.1);
    expect(poses.output[0]).toBe(-1e308);
    poses.interpolate(1, 0.1);
    expect(poses.output[0]).toBe(1e308);
  });
});

describe('setInstancePose indices (defect 3)', () => {
  it.each(['length', 'BYTES_PER_ELEMENT', 'byteLength', 'constructor', '__proto__', 1.5, -1])(
    'throws a RangeError for index %s and moves nothing',
    (index) => {
      const { loop, tracker } = setup();
      const a = fakeMesh('a', 4);
      const b = fakeMesh('b', 4);
      for (let i = 0; i < 4; i++) tracker.trackInstance(a, i);
      for (let i = 0; i < 4; i++) tracker.trackInstance(b, i);
      loop.advance(0.1);
      const before = tracker.getSimulationPose(a, 3).position.slice();
      expect(() => tracker.setInstancePose(b, index as number, { x: 9, y: 9, z: 9 })).toThrow(
        RangeError,
      );
      expect(tracker.getSimulationPose(a, 3).position).toEqual(before);
    },
  );
});

describe('an emptied tracker (defect 4)', () => {
  it('gives its storage back, and its passes walk no freed slot', () => {
    const { loop, tracker } = setup();
    const nodes = Array.from({ length: 5000 }, (_, i) => fakeNode(`n${i}`, i));
    for (const node of nodes) tracker.track(node);
    loop.advance(0.1);
    for (const node of nodes) tracker.untrack(node);
    expect(tracker.size).toBe(0);
    expect(tracker.poses.size).toBe(0);
    expect(tracker.poses.capacity).toBeLessThanOrEqual(64);
  });

  it('walks only up to its highest live slot', () => {
    const { loop, tracker } = setup();
    const nodes = Array.from({ length: 1000 }, (_, i) => fakeNode(`n${i}`, i));
    for (const node of nodes) tracker.track(node);
    for (const node of nodes.slice(100)) tracker.untrack(node);
    expect(tracker.poses.size).toBe(100);
    // a freed slot below the highest is handed out again first
    tracker.untrack(nodes[5]);
    expect(tracker.track(fakeNode('again'))).toBe(5);
    expect(tracker.track(fakeNode('next'))).toBe(100);
    loop.advance(0.1);
    expect(tracker.size).toBe(101);
  });
});

describe('a write to a resting parent outside the step (defect 8)', () => {
  it('resets its moving tracked child in the frame it is made', () => {
    const { loop, tracker } = setup();
    const parent = fakeNode('platform');
    const child = fakeNode('crate', 0, 0, 0, parent);
    tracker.track(parent);
    tracker.track(child);
    loop.onFixedUpdate(() => {
      child.pose[2] += 1;
    });
    for (let i = 0; i < 9; i++) loop.advance(0.05); // parent at rest, child at z 4 drawn 3.5
    expect(tracker.restingCount).toBe(1);
    expect(child.pose[2]).toBe(3.5);
    parent.pose[0] = 10; // outside the step, in a frame without steps
    loop.advance(0.01);
    expect(child.pose[2]).toBe(4);
    expect(parent.pose[0]).toBe(10);
    expect(tracker.getSimulationPose(parent).position[0]).toBe(10);
  });
});

describe('fixedDelta changed inside a step (defect 7)', () => {
  it('reaches the engines when the frame ends, as it reaches fixedUpdate', () => {
    const loop = new FixedLoop({ fixedDelta: 0.01 });
    const physics: number[] = [];
    const fixed: number[] = [];
    loop.addAdapter({ physicsStep: (fixedDelta) => physics.push(fixedDelta) });
    loop.onFixedUpdate((dt) => {
      fixed.push(dt);
      if (fixed.length === 1) loop.fixedDelta = 0.02;
    });
    loop.advance(0.03);
    expect(fixed).toEqual([0.01, 0.01, 0.01]);
    expect(physics).toEqual([0.01, 0.01, 0.01]);
    loop.advance(0.04);
    expect(physics.slice(3)).toEqual([0.02, 0.02]);
  });
});
