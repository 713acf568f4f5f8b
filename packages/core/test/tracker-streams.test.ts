/**
 * The pose store's external stream source (packages/core/src/tracking/pose-stream.ts) over the
 * fake platform: tick-stamped snapshots drawn at the loop's alpha or at a render delay of their
 * own, teleports carried as such, late snapshots dropped, nodes and instances as sinks.
 */
import { describe, expect, it } from 'vitest';
import { fakeMesh, fakeNode, trackerOver } from './support/fake-platform.ts';

/** The pose row of a body at `x` (no rotation, unit scale). */
function at(x: number): number[] {
  return [x, 0, 0, 0, 0, 0, 1, 1, 1, 1];
}

const setup = trackerOver;

describe('an external stream', () => {
  it('by default is drawn at the loop alpha, one step behind, as the loop draws its own bodies', () => {
    const { loop, tracker } = setup();
    const remote = fakeNode('remote');
    const stream = tracker.stream();
    stream.bind(7, remote);
    // a worker publishing each tick's pose (x = tick) in step with the loop
    loop.onPostSimulation((_dt, tick) => stream.push(tick + 1, [7], at(tick + 1)));
    loop.advance(0.1);
    loop.advance(0.1);
    loop.advance(0.05); // tick 2, alpha 0.5: between ticks 1 and 2
    expect(remote.pose[0]).toBeCloseTo(1.5, 12);
    loop.advance(0.1); // tick 3, alpha 0.5
    expect(remote.pose[0]).toBeCloseTo(2.5, 12);
    expect(tracker.getSimulationPose(remote).position[0]).toBe(3);
  });

  it('with a render delay of its own draws among the snapshots it keeps, and holds the newest', () => {
    const { loop, tracker } = setup();
    const remote = fakeNode('remote');
    const stream = tracker.stream({ delay: 0.3 });
    stream.bind(1, remote);
    // server snapshots every other tick
    stream.push(0, [1], at(0));
    stream.push(2, [1], at(20));
    stream.push(4, [1], at(40));
    for (let i = 0; i < 4; i++) loop.advance(0.1); // tick 4
    loop.advance(0.05); // render tick 4.5 - 3 = 1.5: between snapshots 0 and 2
    expect(remote.pose[0]).toBeCloseTo(15, 9);
    for (let i = 0; i < 5; i++) loop.advance(0.1); // render tick 6.5: past the newest
    expect(remote.pose[0]).toBe(40);
    expect(stream.newestTick).toBe(4);
  });

  it('carries a teleport: no blend across it, the old pose until its tick', () => {
    const { loop, tracker } = setup();
    const remote = fakeNode('remote');
    const stream = tracker.stream({ delay: 0.2 });
    stream.bind(1, remote);
    stream.push(0, [1], at(0));
    stream.push(2, [1], at(100), [1]);
    loop.advance(0.1);
    loop.advance(0.1);
    loop.advance(0.05); // render tick 0.5
    expect(remote.pose[0]).toBe(0);
    loop.advance(0.1); // render tick 1.5
    expect(remote.pose[0]).toBe(0);
    loop.advance(0.1); // render tick 2.5
    expect(remote.pose[0]).toBe(100);
  });

  it('drops a late snapshot, replaces one of the same tick, and keeps unnamed ids', () => {
    const { loop, tracker } = setup();
    const a = fakeNode('a', 3);
    const b = fakeNode('b');
    const stream = tracker.stream({ delay: 0 });
    stream.bind(1, a);
    stream.bind(2, b);
    stream.push(5, [2], at(50));
    stream.push(4, [2], at(40));
    expect(stream.lateSnapshots).toBe(1);
    stream.push(5, [2], at(55));
    for (let i = 0; i < 6; i++) loop.advance(0.1);
    expect(b.pose[0]).toBe(55);
    expect(a.pose[0]).toBe(3);
  });

  it('feeds instances (the matrices are the sink) and lets go of a node it no longer draws', () => {
    const { loop, tracker } = setup();
    const mesh = fakeMesh('crowd', 2);
    tracker.trackInstance(mesh, 1);
    const node = fakeNode('n');
    const stream = tracker.stream({ delay: 0 });
    stream.bind(1, mesh, 1);
    stream.bind(2, node);
    expect(() => stream.bind(3, mesh, 0)).toThrow(RangeError);
    stream.push(1, [1, 2], [...at(9), ...at(4)]);
    loop.advance(0.1);
    expect((mesh.matrices as Float32Array)[16 + 12]).toBe(9);
    expect(stream.unbind(2)).toBe(true);
    expect(stream.ids).toEqual([1]);
    node.pose[0] = 6; // now the node's own: a write, adopted
    loop.advance(0.1);
    expect(tracker.getSimulationPose(node).position[0]).toBe(6);
    tracker.untrackInstance(mesh, 1);
    expect(stream.ids).toEqual([]);
  });

  it('rejects bad options and bad pushes with a RangeError', () => {
    const { tracker } = setup();
    expect(() => tracker.stream({ delay: -1 })).toThrow(RangeError);
    expect(() => tracker.stream({ history: 1 })).toThrow(RangeError);
    const stream = tracker.stream();
    expect(() => stream.push(Number.NaN, [], [])).toThrow(RangeError);
    expect(() => stream.push(1, [1], [0, 0])).toThrow(RangeError);
  });
});
