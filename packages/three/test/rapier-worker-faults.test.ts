/**
 * WorkerPhysics when the worker goes wrong, with real worker threads: an error thrown by the
 * worker's step code reaches the loop's onError with the worker's stack and the loop goes on; a
 * worker terminated from outside or exiting from inside is reported once, its bodies keep their
 * last poses and nothing throws per frame; a worker stuck past the hang limit is reported once
 * and runs on when it catches up. Time is the loop's: no test waits on a clock.
 */

import { RING_POSE_FLOATS } from '@fixedtick/core/tracking';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPhysicsError } from '../src/entries/rapier.ts';
import { exited } from './support/start-worker.ts';
import { DT, openSetUps, runTicks, setUpWorker } from './support/worker-setup.ts';

afterEach(() => {
  for (const physics of openSetUps.splice(0)) physics.dispose();
});

/** Collects the loop's onError reports. */
function errorsOf(loop: { onError(fn: (e: unknown, source: string) => void): unknown }) {
  const errors: { error: WorkerPhysicsError; source: string }[] = [];
  loop.onError((error, source) => errors.push({ error: error as WorkerPhysicsError, source }));
  return errors;
}

describe('WorkerPhysics faults', () => {
  for (const transport of ['shared', 'message'] as const) {
    it(`an error thrown in the worker's step reaches onError with its stack (${transport})`, async () => {
      const { loop, physics, meshes } = await setUpWorker(2, { transport }, { throwAt: 5 });
      const errors = errorsOf(loop);
      await runTicks(loop, physics, 12);
      loop.advance(0);
      expect(errors).toHaveLength(1);
      const { error, source } = errors[0];
      expect(error).toBeInstanceOf(WorkerPhysicsError);
      expect([error.kind, error.tick, source]).toEqual(['step', 5, 'adapter.beginFrame']);
      expect(error.message).toContain('RangeError: thrown on purpose at tick 5');
      expect(error.stack).toContain('scene-worker.ts');
      // the loop and the worker went on: the world was stepped at tick 5 too
      expect(physics.newestTick).toBe(12);
      expect(physics.status).toBe('running');
      expect(meshes[0].position.y).toBeLessThan(1);
    });
  }

  it('a worker terminated from outside is reported once; its bodies keep their last poses', async () => {
    const { loop, worker, physics, meshes } = await setUpWorker(2);
    const errors = errorsOf(loop);
    // body 0's height in the newest frame the worker published
    let held = Number.NaN;
    physics.onFrame((frame) => {
      held = frame.rows[frame.ids.indexOf(0) * RING_POSE_FLOATS + 1];
    });
    await runTicks(loop, physics, 10);
    // stopped with no step in flight (a step sent before it could still publish a newer frame)
    await worker.terminate();
    for (let i = 0; i < 30; i++) loop.advance(DT);
    expect(errors.map((e) => [e.error.kind, e.error.tick])).toEqual([['stopped', 10]]);
    expect(physics.status).toBe('stopped');
    expect(meshes[0].position.y).toBe(held);
    await expect(physics.synced()).rejects.toThrow(/stopped/);
  });

  it('a worker that exits from inside (process.exit) is reported once, with its exit code', async () => {
    const { loop, worker, physics } = await setUpWorker(1, {}, { exitAt: 6 });
    const errors = errorsOf(loop);
    const exit = exited(worker);
    await runTicks(loop, physics, 6);
    for (let i = 0; i < 3; i++) loop.advance(DT);
    expect(await exit).toBe(3);
    for (let i = 0; i < 10; i++) loop.advance(DT);
    expect(errors).toHaveLength(1);
    expect(errors[0].error.kind).toBe('stopped');
    expect(errors[0].error.message).toContain('exit code 3');
    expect(physics.newestTick).toBe(6);
  });

  it('a worker stuck past hangTicks is reported once, and runs on when it catches up', async () => {
    const { loop, physics } = await setUpWorker(1, { hangTicks: 10 });
    const errors = errorsOf(loop);
    await runTicks(loop, physics, 3);
    const flag = new SharedArrayBuffer(4);
    physics.post({ kind: 'block', flag });
    for (let i = 0; i < 10; i++) loop.advance(DT);
    expect(physics.status).toBe('running');
    loop.advance(DT); // the 11th tick the worker has not published
    expect(physics.status).toBe('hung');
    for (let i = 0; i < 20; i++) loop.advance(DT);
    expect(errors.map((e) => [e.error.kind, e.error.tick])).toEqual([['hung', 3]]);
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    await physics.synced();
    loop.advance(0);
    expect(physics.status).toBe('running');
    expect(physics.newestTick).toBe(34);
    expect(errors).toHaveLength(1);
  });

  it('dispose() leaves no worker running (its exit event) and stops stepping', async () => {
    const { loop, worker, physics } = await setUpWorker(1);
    const errors = errorsOf(loop);
    const exit = exited(worker);
    await runTicks(loop, physics, 2);
    physics.dispose();
    expect(await exit).toBe(1);
    for (let i = 0; i < 5; i++) loop.advance(DT);
    expect(errors).toEqual([]);
    expect(() => physics.post('late')).toThrow(/disposed/);
  });
});
