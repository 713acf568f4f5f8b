/**
 * A worker thread that publishes `frames` pose frames into the PoseRing it is given, as fast as it
 * can, each row a known function of the frame's sequence number (see `expectedRow`), then sets
 * `done[0] = 1`. Run by pose-ring.test.ts under worker_threads.
 */
import { workerData } from 'node:worker_threads';
import { PoseRing, RING_POSE_FLOATS } from '../../src/streams/pose-ring.ts';

const { buffer, done, frames, bodies } = workerData as {
  buffer: SharedArrayBuffer;
  done: SharedArrayBuffer;
  frames: number;
  bodies: number;
};
const ring = new PoseRing(buffer);
for (let sequence = 1; sequence <= frames; sequence++) {
  ring.beginFrame(sequence * 10);
  const ids = ring.ids;
  const rows = ring.rows;
  for (let i = 0; i < bodies; i++) {
    ids[i] = i;
    for (let k = 0; k < RING_POSE_FLOATS; k++)
      rows[i * RING_POSE_FLOATS + k] = sequence + i * 0.5 + k * 1e-3;
  }
  ring.publish(bodies);
}
Atomics.store(new Int32Array(done), 0, 1);
