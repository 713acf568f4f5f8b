/**
 * WorkerPhysics with a real Rapier world in a real worker thread: bodies drawn through the
 * loop's PoseStream, a teleport, messages both ways, dispose.
 */

import { BoxGeometry, InstancedMesh, Matrix4, MeshBasicMaterial, Object3D, Vector3 } from 'three';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPhysics } from '../src/entries/rapier.ts';
import { nodeDriver, ThreeFixedLoop } from '../src/index.ts';
import { exited } from './support/start-worker.ts';
import { DT, openSetUps, runTicks as run, setUpWorker } from './support/worker-setup.ts';

afterEach(() => {
  for (const physics of openSetUps.splice(0)) physics.dispose();
});

/** The pile of `count` boxes in a worker, over `transport`. */
const setUp = (count: number, transport: 'shared' | 'message' = 'shared') =>
  setUpWorker(count, { transport });

describe('WorkerPhysics', () => {
  for (const transport of ['shared', 'message'] as const) {
    it(`draws the worker's bodies falling, interpolated, over ${transport}`, async () => {
      const { loop, physics, meshes } = await setUp(4, transport);
      expect(physics.transport).toBe(transport);
      expect(physics.status).toBe('running');
      const frames: number[] = [];
      physics.onFrame((frame) => frames.push(frame.tick));
      await run(loop, physics, 30);
      loop.advance(0);
      expect(frames).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(physics.newestTick).toBe(30);
      // drawn two steps behind the loop: between ticks 28 and 29 … at alpha 0, tick 28
      const y = meshes[0].position.y;
      expect(y).toBeLessThan(1);
      expect(y).toBeGreaterThan(0);
    });
  }

  it('draws a teleport in the frame of its tick, with no streak, and keeps the body there', async () => {
    const { loop, physics, meshes } = await setUp(2);
    const poses = new Map<number, number[]>();
    physics.onFrame((frame) => {
      poses.set(frame.tick, Array.from(frame.rows.subarray(0, 3)));
      if (frame.tick === 11) expect(frame.flags[0] & 1).toBe(1);
      else expect(frame.flags[0] & 1).toBe(frame.tick === 1 ? 1 : 0);
    });
    await run(loop, physics, 10);
    physics.teleport(0, { x: 20, y: 5, z: 0 });
    await run(loop, physics, 3);
    loop.advance(0);
    const after = poses.get(11) ?? [];
    expect(after[0]).toBe(20);
    expect(after[1]).toBeLessThan(5);
    expect(after[1]).toBeGreaterThan(4.9);
    // render tick 11.5 → drawn between 11 and 12; render tick 10.5 would show tick 10's pose
    loop.advance(DT / 2);
    expect(meshes[0].position.x).toBeCloseTo(20, 6);
    expect(physics.stream.lateSnapshots).toBe(0);
  });

  it('draws the old pose until the render tick reaches the teleport, then the new one', async () => {
    const { loop, physics, meshes } = await setUp(1);
    await run(loop, physics, 10);
    physics.teleport(0, { x: -30, y: 2, z: 0 });
    await run(loop, physics, 2); // ticks 11 (teleported) and 12 published
    const old = meshes[0].position.x;
    loop.advance(DT / 2); // loop at 12.5: render tick 10.5, between 10 and 11: the pose of 10
    expect(meshes[0].position.x).toBe(old);
    loop.advance(DT / 2); // a step: loop at 13, render tick 11 — the new pose, all of it
    expect(meshes[0].position.x).toBe(-30);
  });

  it('carries messages both ways at tick boundaries', async () => {
    const { loop, physics } = await setUp(1);
    const received: unknown[] = [];
    physics.onMessage((data) => received.push(data));
    await run(loop, physics, 5);
    physics.post({ kind: 'echo' });
    await run(loop, physics, 1);
    expect(received).toEqual([{ kind: 'echoed', tick: 4 }]);
  });

  it('dispose() ends the worker and leaves the objects where they were drawn', async () => {
    const { loop, worker, physics, meshes } = await setUp(1);
    const exit = exited(worker);
    await run(loop, physics, 5);
    loop.advance(0);
    const drawn = meshes[0].position.y;
    physics.dispose();
    expect(physics.status).toBe('disposed');
    expect(await exit).toBe(1);
    loop.advance(DT * 3);
    expect(meshes[0].position.y).toBe(drawn);
    expect(physics.stream.ids).toEqual([]);
    physics.dispose();
  });

  it('runs under the headless server tick (nodeDriver), on a clock the test moves', async () => {
    const { loop, physics, meshes } = await setUp(3);
    let nowMs = 0;
    const timers = new Map<number, () => void>();
    let nextTimer = 1;
    const driver = nodeDriver({
      now: () => nowMs,
      spinMs: 0,
      scheduler: {
        setTimeout: (callback) => {
          timers.set(nextTimer, callback);
          return nextTimer++;
        },
        clearTimeout: (handle) => timers.delete(handle as number),
      },
    });
    loop.start(driver);
    const heights: number[] = [];
    for (let wake = 0; wake < 60; wake++) {
      nowMs += 1000 / 60;
      const due = [...timers.values()];
      timers.clear();
      for (const callback of due) callback();
      await physics.synced();
      heights.push(meshes[0].position.y);
    }
    loop.stop();
    // a wake the rounding of 1000 / 60 makes early is re-armed, not a tick: a few fewer ticks
    expect(driver.stats.wakes).toBeGreaterThan(50);
    expect(loop.tick).toBeGreaterThan(50);
    expect(physics.newestTick).toBe(loop.tick);
    // the box fell from y = 1 and rests on the floor (its half-height, 0.5)
    expect(Math.max(...heights.slice(3))).toBeGreaterThan(0.9);
    expect(heights.at(-1)).toBeCloseTo(0.5, 2);
  });

  it('wakes a worker without Atomics.waitAsync with a message per step', async () => {
    const { loop, physics, meshes } = await setUpWorker(1, {}, { noWaitAsync: true });
    expect(physics.transport).toBe('shared');
    await run(loop, physics, 20);
    loop.advance(0);
    expect(physics.newestTick).toBe(20);
    expect(meshes[0].position.y).toBeLessThan(1);
  });

  it('binds a body to an instance of an InstancedMesh, tracking the instance itself', async () => {
    // two workers run the same pile: body 1 drawn into an Object3D in one, into instance 2 in the other
    const plain = await setUp(2);
    const instanced = await setUp(2);
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 3);
    instanced.physics.unbind(1);
    instanced.physics.bind(1, mesh, 2); // not tracked before: bind() tracks it, as whole objects
    expect(instanced.loop.tracker.slotOf(mesh, 2)).toBeDefined();
    for (let i = 0; i < 20; i++) {
      await run(plain.loop, plain.physics, 1);
      await run(instanced.loop, instanced.physics, 1);
    }
    plain.loop.advance(DT / 2);
    instanced.loop.advance(DT / 2);
    const drawn = new Matrix4();
    mesh.getMatrixAt(2, drawn);
    const at = new Vector3().setFromMatrixPosition(drawn);
    const expected = plain.meshes[1].position;
    expect(expected.y).not.toBe(0); // drawn from the worker, not where it was made
    expect(at.x).toBeCloseTo(expected.x, 9);
    expect(at.y).toBeCloseTo(expected.y, 9);
    expect(at.z).toBeCloseTo(expected.z, 9);
    // the instances not bound are left as they were
    mesh.getMatrixAt(0, drawn);
    expect(drawn.equals(new Matrix4())).toBe(true);
  });

  it('makes room for bodies published after the start (a bigger ring)', async () => {
    const { loop, physics } = await setUpWorker(2, { capacity: 2 });
    const late = new Object3D();
    physics.bind(4, late);
    await run(loop, physics, 3);
    for (let i = 0; i < 3; i++) physics.post({ kind: 'spawn' }); // ids 2, 3, 4
    await run(loop, physics, 3);
    loop.advance(0);
    const counts: number[] = [];
    physics.onFrame((frame) => counts.push(frame.count));
    await run(loop, physics, 2);
    expect(counts).toEqual([5, 5]);
    expect(late.position.x).toBe(8);
    expect(late.position.y).toBeLessThan(20);
    expect(late.position.y).toBeGreaterThan(19);
  });

  it('refuses bad options with a RangeError naming them, and a non-worker with a TypeError', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const worker = { on() {}, off() {}, postMessage() {}, terminate() {} };
    expect(() => new WorkerPhysics(loop, worker, { hangTicks: 0 })).toThrow(
      /option "hangTicks" must be a whole number of ticks ≥ 1, got 0/,
    );
    expect(() => new WorkerPhysics(loop, worker, { transport: 'carrier' as never })).toThrow(
      RangeError,
    );
    expect(() => new WorkerPhysics(loop, worker, { speed: 2 } as never)).toThrow(
      /unknown option "speed"/,
    );
    expect(() => new WorkerPhysics(loop, {} as never)).toThrow(TypeError);
    expect(() => new WorkerPhysics({} as never, worker)).toThrow(/loop must be a ThreeFixedLoop/);
  });
});
