/**
 * Remote entities drawn from tick-stamped snapshots (docs/multiplayer.md, "Drawing remote
 * entities"): interpolated with core's kernels (bit for bit what `lerp`/`slerp` give),
 * extrapolated for a bounded time when snapshots are late, then held; teleports never
 * interpolated into; each frame between snapshots a new pose, none repeated or skipped.
 */
import { lerp, POSE_STRIDE, slerp } from '@fixedtick/core/interpolation';
import { RemoteEntities, SnapshotBuffer } from '@fixedtick/core/net';
import { describe, expect, it } from 'vitest';

/** A pose row: position (x, y, z), a rotation of `angle` about y, unit scale. */
function pose(x: number, y = 0, z = 0, angle = 0): number[] {
  return [x, y, z, 0, Math.sin(angle / 2), 0, Math.cos(angle / 2), 1, 1, 1];
}

describe('SnapshotBuffer', () => {
  it('interpolates between the two snapshots around the tick with the core kernels, bit for bit', () => {
    const buffer = new SnapshotBuffer();
    const a = pose(1, 2, 3, 0.1);
    const b = pose(4, -2, 7, 1.3);
    buffer.push(10, a);
    buffer.push(12, b);
    const out = new Float64Array(POSE_STRIDE);
    const expected = new Float64Array(POSE_STRIDE);
    for (const tick of [10, 10.3, 11, 11.71, 12]) {
      const t = (tick - 10) / 2;
      expect(buffer.sample(tick, out)).toBe(tick === 12 ? 'held' : 'interpolated');
      for (const k of [0, 1, 2, 7, 8, 9]) expected[k] = lerp(a[k], b[k], t);
      slerp(expected, 3, a, 3, b, 3, t);
      expect([...out]).toEqual([...expected]);
    }
  });

  it('draws a new pose every 144 Hz frame between 60 Hz snapshots: none repeated, none skipped', () => {
    const buffer = new SnapshotBuffer(128);
    for (let n = 0; n < 120; n++) buffer.push(n, pose(n * 5));
    const out = new Float64Array(POSE_STRIDE);
    let last = -Infinity;
    for (let frame = 0; frame < 144; frame++) {
      const tick = 3 + (frame * 60) / 144;
      expect(buffer.sample(tick, out)).toBe('interpolated');
      // Constant speed: each frame moves exactly 60/144 of a tick's 5 px, never 0 or twice that.
      if (frame > 0) expect(out[0] - last).toBeCloseTo((5 * 60) / 144, 9);
      last = out[0];
    }
  });

  it('extrapolates along the last velocity for at most maxExtrapolationTicks, then holds', () => {
    const buffer = new SnapshotBuffer();
    buffer.push(0, pose(0, 0, 0, 0));
    buffer.push(1, pose(2, 0, 0, 0.2));
    const out = new Float64Array(POSE_STRIDE);
    expect(buffer.sample(3, out, 0, 6, 1 / 60)).toBe('extrapolated');
    expect(out[0]).toBeCloseTo(6, 9);
    expect(2 * Math.atan2(out[4], out[6])).toBeCloseTo(0.6, 9);
    buffer.sample(7, out, 0, 6, 1 / 60);
    const atLimit = [...out];
    expect(atLimit[0]).toBeCloseTo(14, 9);
    expect(buffer.sample(50, out, 0, 6, 1 / 60)).toBe('extrapolated');
    expect([...out]).toEqual(atLimit);
  });

  it('holds the pose before a teleport until its tick, then shows it: no streak', () => {
    const buffer = new SnapshotBuffer();
    buffer.push(0, pose(0));
    buffer.push(1, pose(1));
    buffer.push(2, pose(500), 0, true);
    buffer.push(3, pose(501));
    const out = new Float64Array(POSE_STRIDE);
    expect(buffer.sample(1.5, out)).toBe('held');
    expect(out[0]).toBe(1);
    expect(buffer.sample(2, out)).toBe('interpolated');
    expect(out[0]).toBe(500);
    buffer.sample(2.5, out);
    expect(out[0]).toBe(500.5);
    // Nor is a teleport extrapolated from the pose before it.
    const lone = new SnapshotBuffer();
    lone.push(0, pose(0));
    lone.push(1, pose(900), 0, true);
    expect(lone.sample(4, out)).toBe('held');
    expect(out[0]).toBe(900);
  });

  it('refuses a snapshot not newer than the newest, and forgets the oldest when full', () => {
    const buffer = new SnapshotBuffer(4);
    expect(buffer.push(5, pose(5))).toBe(true);
    expect(buffer.push(5, pose(6))).toBe(false);
    expect(buffer.push(4, pose(4))).toBe(false);
    expect(buffer.dropped).toBe(2);
    for (let n = 6; n < 10; n++) buffer.push(n, pose(n));
    expect(buffer.size).toBe(4);
    const out = new Float64Array(POSE_STRIDE);
    expect(buffer.sample(5, out)).toBe('before');
    expect(out[0]).toBe(6);
    expect(buffer.newestTick).toBe(9);
    expect(() => new SnapshotBuffer(1)).toThrow(
      /option "capacity" must be a whole number ≥ 2, got 1/,
    );
  });
});

describe('RemoteEntities', () => {
  it('takes (tick, ids, rows) snapshots and draws every entity at one render tick', () => {
    const remotes = new RemoteEntities({ tickRate: 60 });
    remotes.push(0, ['a', 'b'], [...pose(0), ...pose(100)]);
    remotes.push(1, ['a', 'b'], [...pose(10), ...pose(100)]);
    remotes.push(2, ['b', 'c'], [...pose(100), ...pose(-5)], [0, 1]);
    expect(remotes.ids).toEqual(['a', 'b', 'c']);
    const counts = remotes.sample(1.5);
    expect(counts).toEqual({ interpolated: 1, extrapolated: 1, held: 0, before: 1 });
    expect(remotes.poses[remotes.offsetOf('a')]).toBeCloseTo(15, 9); // past its newest (tick 1)
    expect(remotes.poses[remotes.offsetOf('b')]).toBe(100);
    expect(remotes.poses[remotes.offsetOf('c')]).toBe(-5);
    expect(remotes.remove('a')).toBe(true);
    expect(remotes.ids).toEqual(['c', 'b']);
    expect(remotes.poses[remotes.offsetOf('c')]).toBe(-5);
    expect(remotes.offsetOf('a')).toBe(-1);
    expect(remotes.remove('a')).toBe(false);
    expect(() => remotes.push(3, ['b'], [1, 2])).toThrow(RangeError);
    expect(() => new RemoteEntities({ maxExtrapolationTicks: -1 })).toThrow(
      /option "maxExtrapolationTicks"/,
    );
  });
});
