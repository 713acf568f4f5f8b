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

  it('rejects bad options and bad pushes with a RangeError, a wrong kind of clock with a TypeError', () => {
    const { tracker } = setup();
    expect(() => tracker.stream({ delay: -1 })).toThrow(RangeError);
    expect(() => tracker.stream({ history: 1 })).toThrow(RangeError);
    expect(() => tracker.stream({ maxExtrapolation: Number.NaN })).toThrow(
      /option "maxExtrapolation" must be a number of seconds from 0 to 1e9, got NaN/,
    );
    expect(() => tracker.stream({ clock: 5 as never })).toThrow(TypeError);
    const stream = tracker.stream();
    expect(() => stream.push(Number.NaN, [], [])).toThrow(RangeError);
    expect(() => stream.push(1, [1], [0, 0])).toThrow(RangeError);
    expect(() => {
      stream.delay = -2;
    }).toThrow(RangeError);
    expect(stream.delay).toBeUndefined();
  });
});

describe('an external stream on a timeline of its own (a server)', () => {
  /** A render tick source the test moves by hand, as `TickClock.renderTick` moves. */
  const source = (renderTick: number) => ({ renderTick });

  it('draws at the clock render tick, whatever the loop tick, and counts how', () => {
    const { loop, tracker } = setup();
    const remote = fakeNode('remote');
    const clock = source(0);
    const stream = tracker.stream({ clock, history: 16 });
    stream.bind(1, remote);
    for (let n = 500; n <= 510; n++) stream.push(n, [1], at(n * 2));
    clock.renderTick = 503.25;
    loop.advance(0.1); // loop tick 1: unrelated to the server's 503
    expect(remote.pose[0]).toBeCloseTo(1006.5, 9);
    expect(stream.renderTick).toBe(503.25);
    expect(stream.lastDrawn).toBe('interpolated');
    clock.renderTick = 400;
    loop.advance(0.1);
    expect(remote.pose[0]).toBe(1000); // before the oldest kept: the oldest
    expect(stream.lastDrawn).toBe('before');
    expect(stream.drawnFrames).toEqual({ interpolated: 1, extrapolated: 0, held: 0, before: 1 });
  });

  it('extrapolates along the last two snapshots for at most maxExtrapolation, then holds', () => {
    const { loop, tracker } = setup(); // 10 Hz: a step is 0.1 s
    const remote = fakeNode('remote');
    const clock = source(0);
    const stream = tracker.stream({ clock, maxExtrapolation: 0.3 });
    stream.bind(1, remote);
    const turned = (x: number, angle: number) => [
      x,
      0,
      0,
      0,
      Math.sin(angle / 2),
      0,
      Math.cos(angle / 2),
      1,
      1,
      1,
    ];
    stream.push(10, [1], turned(0, 0));
    stream.push(12, [1], turned(4, 0.2)); // 2 per tick, 0.1 rad per tick
    clock.renderTick = 13;
    loop.advance(0.1);
    expect(stream.lastDrawn).toBe('extrapolated');
    expect(remote.pose[0]).toBeCloseTo(6, 9);
    expect(2 * Math.atan2(remote.pose[4], remote.pose[6])).toBeCloseTo(0.3, 9);
    clock.renderTick = 15; // the limit: 3 ticks past the newest
    loop.advance(0.1);
    const atLimit = [...remote.pose];
    expect(atLimit[0]).toBeCloseTo(10, 9);
    clock.renderTick = 40;
    loop.advance(0.1);
    expect(remote.pose).toEqual(atLimit);
    // the late snapshot arrives: back to interpolating, from the snapshots as they are
    stream.push(14, [1], turned(8, 0.4));
    clock.renderTick = 13;
    stream.maxExtrapolation = 0; // changed at run time: hold the newest from now on
    loop.advance(0.1);
    expect(remote.pose[0]).toBeCloseTo(6, 9);
    clock.renderTick = 20;
    loop.advance(0.1);
    expect(remote.pose[0]).toBe(8);
    expect(stream.drawnFrames).toEqual({ interpolated: 1, extrapolated: 3, held: 1, before: 0 });
  });

  it('never extrapolates from a teleport, and never blends into one', () => {
    const { loop, tracker } = setup();
    const a = fakeNode('a');
    const b = fakeNode('b');
    const clock = source(0);
    const stream = tracker.stream({ clock, maxExtrapolation: 1 });
    stream.bind(1, a);
    stream.bind(2, b);
    stream.push(0, [1, 2], [...at(0), ...at(0)]);
    stream.push(1, [1, 2], [...at(1), ...at(50)], [2]);
    clock.renderTick = 0.5;
    loop.advance(0.1);
    expect([a.pose[0], b.pose[0]]).toEqual([0.5, 0]);
    clock.renderTick = 3;
    loop.advance(0.1);
    expect(a.pose[0]).toBeCloseTo(3, 9);
    expect(b.pose[0]).toBe(50);
  });

  it('follows a delay changed at run time (an adaptive render delay), on the loop timeline', () => {
    const { loop, tracker } = setup();
    const remote = fakeNode('remote');
    const stream = tracker.stream({ delay: 0.1, history: 32 });
    stream.bind(1, remote);
    loop.onPostSimulation((_dt, tick) => stream.push(tick + 1, [1], at(tick + 1)));
    for (let i = 0; i < 10; i++) loop.advance(0.1);
    loop.advance(0.05); // tick 10, alpha 0.5
    expect(remote.pose[0]).toBeCloseTo(9.5, 9);
    stream.delay = 0.35;
    loop.advance(0.1); // tick 11.5 - 3.5
    expect(remote.pose[0]).toBeCloseTo(8, 9);
    stream.clock = { renderTick: 2.25 };
    loop.advance(0.1);
    expect(remote.pose[0]).toBeCloseTo(2.25, 9);
  });
});
