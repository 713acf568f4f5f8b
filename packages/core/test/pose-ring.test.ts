/**
 * PoseRing: frames published by one thread and read by another, whole or not at all. In one
 * thread: the latest and the one before are read back bit for bit, frames overwritten are
 * refused. Across a real worker thread and a SharedArrayBuffer: a writer publishing as fast as it
 * can and a reader copying as fast as it can never hand over a torn frame.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PoseRing, RING_POSE_FLOATS, RING_TELEPORTED } from '../src/streams/pose-ring.ts';

function publish(ring: PoseRing, tick: number, poses: number[][], flags: number[] = []): void {
  ring.beginFrame(tick);
  poses.forEach((pose, i) => {
    ring.ids[i] = 100 + i;
    ring.flags[i] = flags[i] ?? 0;
    ring.rows.set(pose, i * RING_POSE_FLOATS);
  });
  ring.publish(poses.length);
}

const pose = (base: number): number[] =>
  Array.from({ length: RING_POSE_FLOATS }, (_, k) => base + k / 7);

describe('PoseRing in one thread', () => {
  it('reads back the latest frame and the one before, bit for bit, with ids, flags and tick', () => {
    const ring = PoseRing.create(8);
    const frame = PoseRing.frame(8);
    expect(ring.latest).toBe(0);
    expect(ring.readLatest(frame)).toBe(false);
    publish(ring, 60, [pose(1), pose(2)]);
    publish(ring, 61, [pose(3), pose(4), pose(5)], [0, RING_TELEPORTED, 0]);
    expect(ring.latest).toBe(2);
    expect(ring.readLatest(frame)).toBe(true);
    expect([frame.tick, frame.sequence, frame.count]).toEqual([61, 2, 3]);
    expect(Array.from(frame.ids.subarray(0, 3))).toEqual([100, 101, 102]);
    expect(Array.from(frame.flags.subarray(0, 3))).toEqual([0, RING_TELEPORTED, 0]);
    expect(Array.from(frame.rows.subarray(RING_POSE_FLOATS, 2 * RING_POSE_FLOATS))).toEqual(
      pose(4),
    );
    expect(ring.read(1, frame)).toBe(true);
    expect([frame.tick, frame.count]).toEqual([60, 2]);
    expect(Array.from(frame.rows.subarray(0, RING_POSE_FLOATS))).toEqual(pose(1));
  });

  it('refuses a frame the writer has come round to, and one not yet published', () => {
    const ring = PoseRing.create(2, { frames: 3 });
    const frame = PoseRing.frame(2);
    for (let t = 1; t <= 5; t++) publish(ring, t, [pose(t)]);
    expect(ring.read(2, frame)).toBe(false);
    expect(frame.sequence).toBe(0);
    expect(ring.read(3, frame)).toBe(true);
    expect(ring.read(6, frame)).toBe(false);
    // a frame begun but not published hides the frame that slot held
    ring.beginFrame(6);
    expect(ring.read(3, frame)).toBe(false);
    expect(ring.read(5, frame)).toBe(true);
  });

  it('attaches to the same buffer from a second PoseRing, as the other thread does', () => {
    const writer = PoseRing.create(4, { shared: false });
    const reader = new PoseRing(writer.buffer);
    expect([reader.capacity, reader.frames]).toEqual([4, 4]);
    publish(writer, 9, [pose(9)]);
    const frame = PoseRing.frame(4);
    expect(reader.readLatest(frame)).toBe(true);
    expect(frame.tick).toBe(9);
  });

  it('refuses bad sizes and a buffer that is not a ring with a RangeError', () => {
    expect(() => PoseRing.create(0)).toThrow(/capacity must be a whole number from 1/);
    expect(() => PoseRing.create(4, { frames: 2 })).toThrow(/option "frames" must be .* got 2/);
    expect(() => new PoseRing(new ArrayBuffer(64))).toThrow(RangeError);
    const ring = PoseRing.create(2);
    expect(() => ring.publish(1)).toThrow(/beginFrame/);
    ring.beginFrame(1);
    expect(() => ring.publish(3)).toThrow(/from 0 to 2, got 3/);
  });
});

describe('PoseRing across threads', () => {
  it('a reader racing a writer thread gets whole frames only', async () => {
    const bodies = 64;
    const frames = 20_000;
    const ring = PoseRing.create(bodies);
    const done = new SharedArrayBuffer(4);
    // a worker does not inherit vitest's TypeScript loading: register tsx in it, then load it
    const writer = new URL('./support/pose-ring-writer.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(writer)}); });`;
    const worker = new Worker(boot, {
      eval: true,
      workerData: { buffer: ring.buffer, done, frames, bodies },
    });
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    const finished = new Int32Array(done);
    const frame = PoseRing.frame(bodies);
    let whole = 0;
    let refused = 0;
    let torn = 0;
    let last = 0;
    // bounded: the writer needs well under this many reads to publish every frame
    for (let attempt = 0; attempt < 50_000_000 && Atomics.load(finished, 0) === 0; attempt++) {
      const sequence = ring.latest;
      if (sequence === 0) continue;
      if (!ring.read(sequence, frame)) {
        refused++;
        continue;
      }
      whole++;
      expect(frame.sequence).toBeGreaterThanOrEqual(last);
      last = frame.sequence;
      for (let i = 0; i < bodies; i++) {
        for (let k = 0; k < RING_POSE_FLOATS; k++) {
          if (frame.rows[i * RING_POSE_FLOATS + k] !== sequence + i * 0.5 + k * 1e-3) torn++;
        }
      }
      if (frame.tick !== sequence * 10 || frame.count !== bodies) torn++;
    }
    expect(await exited).toBe(0);
    expect(Atomics.load(finished, 0)).toBe(1);
    expect(torn).toBe(0);
    expect(whole).toBeGreaterThan(0);
    expect(ring.latest).toBe(frames);
    expect(ring.readLatest(frame)).toBe(true);
    expect(frame.tick).toBe(frames * 10);
    // how often the writer lapped a copy: counted, never used
    expect(refused).toBeGreaterThanOrEqual(0);
  });
});
