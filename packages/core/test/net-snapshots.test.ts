/**
 * Remote entities drawn from tick-stamped snapshots through the pose store (docs/multiplayer.md,
 * "Drawing remote entities"), over the fake platform: interpolated with core's kernels (bit for
 * bit what `lerp`/`slerp` give), each 144 Hz frame between 60 Hz snapshots a new pose, none
 * repeated or skipped; extrapolated for a bounded time when snapshots are late, then held;
 * teleports and new entities never blended into; ids of any kind spawned and despawned.
 */
import { FixedLoop } from '@fixedtick/core';
import { lerp, slerp } from '@fixedtick/core/interpolation';
import { RemoteEntities, TickClock } from '@fixedtick/core/net';
import { Tracker } from '@fixedtick/core/tracking';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/support/random.ts';
import { type FakeNode, FakePlatform, fakeMesh, fakeNode } from './support/fake-platform.ts';

/** A pose row: position (x, y, z), a rotation of `angle` about y, unit scale. */
function pose(x: number, y = 0, z = 0, angle = 0): number[] {
  return [x, y, z, 0, Math.sin(angle / 2), 0, Math.cos(angle / 2), 1, 1, 1];
}

/** A 60 Hz client loop with a tracker over the fake platform, and a render tick set by hand. */
function client() {
  const loop = new FixedLoop({ tickRate: 60 });
  const tracker = new Tracker(new FakePlatform());
  loop.addAdapter(tracker);
  const clock = { renderTick: 0 };
  const nodes = new Map<string | number, FakeNode>();
  const despawned: (string | number)[] = [];
  const remotes = new RemoteEntities(tracker, {
    clock,
    spawn: (id, row) => {
      const node = fakeNode(String(id), row[0], row[1], row[2]);
      nodes.set(id, node);
      return node;
    },
    despawn: (id) => despawned.push(id),
  });
  /** Draws one frame at render tick `tick`. */
  const draw = (tick: number): void => {
    clock.renderTick = tick;
    loop.advance(1 / 144);
  };
  return { loop, tracker, remotes, nodes, despawned, draw };
}

describe('RemoteEntities', () => {
  it('interpolates between the two snapshots around the render tick with the core kernels, bit for bit', () => {
    const { remotes, nodes, draw } = client();
    const a = pose(1, 2, 3, 0.1);
    const b = pose(4, -2, 7, 1.3);
    remotes.push(10, ['p'], a);
    remotes.push(12, ['p'], b);
    const expected = new Float64Array(10);
    for (const tick of [10.3, 11, 11.71]) {
      const t = (tick - 10) / 2;
      draw(tick);
      for (const k of [0, 1, 2, 7, 8, 9]) expected[k] = lerp(a[k], b[k], t);
      slerp(expected, 3, a, 3, b, 3, t);
      expect(nodes.get('p')?.pose).toEqual([...expected]);
    }
    expect(remotes.stream.lastDrawn).toBe('interpolated');
  });

  it('draws a new pose every 144 Hz frame between 60 Hz snapshots: none repeated, none skipped', () => {
    const { remotes, nodes, draw } = client();
    for (let n = 0; n < 30; n++) remotes.push(n, [7], pose(n * 5));
    let last = Number.NaN;
    for (let frame = 0; frame < 48; frame++) {
      draw(3 + (frame * 60) / 144);
      const x = nodes.get(7)?.pose[0] as number;
      // constant speed: each frame moves exactly 60/144 of a tick's 5 units, never 0 or twice that
      if (frame > 0) expect(x - last).toBeCloseTo((5 * 60) / 144, 9);
      last = x;
    }
    expect(remotes.stream.drawnFrames.interpolated).toBe(48);
  });

  it('extrapolates a late snapshot along the last motion for at most 0.1 s, then holds', () => {
    const { remotes, nodes, draw } = client();
    remotes.push(0, ['p'], pose(0, 0, 0, 0));
    remotes.push(1, ['p'], pose(2, 0, 0, 0.2));
    draw(3);
    expect(remotes.stream.lastDrawn).toBe('extrapolated');
    const node = nodes.get('p') as FakeNode;
    expect(node.pose[0]).toBeCloseTo(6, 9);
    expect(2 * Math.atan2(node.pose[4], node.pose[6])).toBeCloseTo(0.6, 9);
    draw(7); // 6 ticks past the newest: the limit
    const atLimit = [...node.pose];
    expect(atLimit[0]).toBeCloseTo(14, 9);
    draw(50);
    expect(node.pose).toEqual(atLimit);
  });

  it('spawns an entity at its first snapshot, carries teleports, and despawns', () => {
    const { remotes, nodes, despawned, draw, tracker } = client();
    remotes.push(0, ['a', 'b'], [...pose(0), ...pose(100)]);
    remotes.push(1, ['a', 'b'], [...pose(10), ...pose(100)]);
    remotes.push(2, ['b', 'c', 'a'], [...pose(100), ...pose(-5), ...pose(20)], [0, 0, 1]);
    expect(remotes.ids).toEqual(['a', 'b', 'c']);
    draw(1.5);
    const x = (id: string) => nodes.get(id)?.pose[0];
    // 'a' teleports at 2: the pose before until then; 'c' appears where it spawned
    expect([x('a'), x('b'), x('c')]).toEqual([10, 100, -5]);
    draw(2);
    expect(x('a')).toBe(20);
    expect(remotes.remove('a')).toBe(true);
    expect(despawned).toEqual(['a']);
    expect(remotes.ids).toEqual(['b', 'c']);
    expect(remotes.remove('a')).toBe(false);
    expect(remotes.targetOf('a')).toBeUndefined();
    expect(remotes.stream.ids.length).toBe(2);
    // the node is its own again: tracked still, no longer drawn by the stream
    expect(tracker.getSimulationPose(nodes.get('a') as FakeNode).position[0]).toBe(20);
    remotes.push(3, ['b', 'c'], [...pose(100), ...pose(-5)]);
    draw(3);
    expect(x('c')).toBe(-5);
  });

  it('draws into instances of an instanced mesh', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const tracker = new Tracker(new FakePlatform());
    loop.addAdapter(tracker);
    const crowd = fakeMesh('crowd', 4);
    let next = 0;
    const remotes = new RemoteEntities(tracker, {
      clock: { renderTick: 0.5 },
      spawn: () => {
        tracker.trackInstance(crowd, next);
        return [crowd, next++] as const;
      },
    });
    remotes.push(0, [10, 11], [...pose(0), ...pose(2)]);
    remotes.push(1, [10, 11], [...pose(4), ...pose(2)]);
    loop.advance(1 / 60);
    expect((crowd.matrices as Float32Array)[12]).toBe(2);
    expect((crowd.matrices as Float32Array)[16 + 12]).toBe(2);
  });

  it('rejects a wrong kind of tracker or spawn with a TypeError and short rows with a RangeError', () => {
    const { remotes, tracker } = client();
    expect(() => remotes.push(3, ['b'], [1, 2])).toThrow(RangeError);
    expect(
      () => new RemoteEntities({} as never, { clock: { renderTick: 0 }, spawn: () => ({}) }),
    ).toThrow(TypeError);
    expect(
      () => new RemoteEntities(tracker, { clock: { renderTick: 0 }, spawn: 3 as never }),
    ).toThrow(/spawn/);
    expect(
      () =>
        new RemoteEntities(tracker, {
          clock: { renderTick: 0 },
          spawn: () => fakeNode('x'),
          maxExtrapolation: -1,
        }),
    ).toThrow(/option "maxExtrapolation"/);
  });

  it('at the TickClock render tick over a jittery ordered link, draws nearly every 144 Hz frame between snapshots, each a new pose', () => {
    // snapshots of a body moving 1 unit per tick, 60–90 ms late, in order (TCP)
    const loop = new FixedLoop({ tickRate: 60 });
    const tracker = new Tracker(new FakePlatform());
    loop.addAdapter(tracker);
    const clock = new TickClock({ tickRate: 60 });
    const node = fakeNode('remote');
    const remotes = new RemoteEntities(tracker, { clock, spawn: () => node });
    const random = mulberry32(7);
    let arrival = 0;
    let n = 0;
    const frame = 1000 / 144;
    let last = Number.NaN;
    let repeated = 0;
    const counted = { interpolated: 0, other: 0 };
    for (let t = 0; t < 10_000; t += frame) {
      for (;;) {
        const at = Math.max(arrival, n * (1000 / 60) + 60 + 30 * random());
        if (at > t) break;
        arrival = at;
        remotes.push(n, ['p'], pose(n));
        clock.observe(n, at);
        n++;
      }
      clock.update(t);
      loop.advance(frame / 1000);
      if (t < 1000) continue; // the first second fills the clock's window
      if (remotes.stream.lastDrawn === 'interpolated') {
        counted.interpolated++;
        // the snapshots' interpolation at the render tick (x = tick)
        expect(node.pose[0]).toBeCloseTo(remotes.stream.renderTick, 9);
      } else counted.other++;
      if (node.pose[0] === last) repeated++;
      last = node.pose[0];
    }
    expect(counted.interpolated / (counted.interpolated + counted.other)).toBeGreaterThan(0.97);
    expect(repeated).toBe(0);
    // the render delay: the snapshot interval, plus the measured jitter (within the 30 ms spread)
    // and the 2 ms margin
    const jitter = clock.renderDelayMs - 1000 / 60 - 2;
    expect(jitter).toBeCloseTo(clock.jitterMs, 9);
    expect(jitter).toBeGreaterThan(5);
    expect(jitter).toBeLessThan(30);
  });
});
