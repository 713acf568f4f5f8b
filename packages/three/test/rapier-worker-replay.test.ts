/**
 * Same inputs, same simulation, in either mode: a run of the pile with RapierPhysics on the main
 * thread records its input (InputRecording) and hashes every body's pose and velocities after
 * every tick; the recording is replayed into a worker-mode run at another display rate, whose
 * frames are hashed the same way. Bit for bit, tick for tick, over both transports — a teleport
 * between ticks included.
 */
import { createHash } from 'node:crypto';
import RAPIER from '@dimforge/rapier3d-compat';
import { Object3D } from 'three';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RapierPhysics } from '../src/entries/rapier.ts';
import { InputLatch, InputRecording, ThreeFixedLoop } from '../src/index.ts';
import { makeScene } from './support/worker-scene.ts';
import { openSetUps, setUpWorker } from './support/worker-setup.ts';

const BODIES = 40;
const TICKS = 240;
/** Display frames at which a key goes down or up, and the one a teleport is sent before. */
const SCRIPT: Record<number, ['press' | 'release', string]> = {
  40: ['press', 'Space'],
  41: ['release', 'Space'],
  100: ['press', 'KeyA'],
  180: ['release', 'KeyA'],
  250: ['press', 'Space'],
  262: ['release', 'Space'],
};
const TELEPORT_FRAME = 300;
const TELEPORT = { x: 3, y: 6, z: -2 };

/** A hash of 13 numbers per body: position, rotation, linear and angular velocity. */
function hash(rows: Float64Array): string {
  return createHash('sha256')
    .update(new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength))
    .digest('hex');
}

afterEach(() => {
  for (const physics of openSetUps.splice(0)) physics.dispose();
});

/** The main-thread run at 144 fps: its recording and its hash after every tick. */
function mainThreadRun(): { recording: string; hashes: string[] } {
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const input = new InputLatch(loop);
  const recording = new InputRecording();
  recording.record(input);
  const scene = makeScene(RAPIER, BODIES);
  const physics = new RapierPhysics(loop, scene.world);
  const meshes = scene.bodies.map((body) => {
    const mesh = new Object3D();
    physics.add(mesh, body);
    return mesh;
  });
  loop.onFixedUpdate(() => scene.fixedUpdate(input));
  const rows = new Float64Array(BODIES * 13);
  const hashes: string[] = [];
  loop.onPostSimulation(() => {
    scene.bodies.forEach((body, i) => {
      const t = body.translation();
      const q = body.rotation();
      const v = body.linvel();
      const w = body.angvel();
      rows.set([t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z], i * 13);
    });
    hashes.push(hash(rows));
  });
  for (let frame = 0; loop.tick < TICKS; frame++) {
    const event = SCRIPT[frame];
    if (event?.[0] === 'press') input.press(event[1]);
    if (event?.[0] === 'release') input.release(event[1]);
    if (frame === TELEPORT_FRAME) physics.teleport(meshes[7], TELEPORT);
    loop.advance(1 / 144);
  }
  recording.stop();
  physics.dispose();
  scene.world.free();
  return { recording: JSON.stringify(recording), hashes: hashes.slice(0, TICKS) };
}

describe('WorkerPhysics replays the main-thread simulation', () => {
  let main: { recording: string; hashes: string[] };
  beforeAll(async () => {
    await RAPIER.init();
    main = mainThreadRun();
  });

  for (const transport of ['shared', 'message'] as const) {
    it(`bit for bit at every tick, at another display rate (${transport})`, async () => {
      const loop = new ThreeFixedLoop({ tickRate: 60 });
      const input = new InputLatch(loop);
      InputRecording.fromJSON(main.recording).replay(input);
      const { physics } = await setUpWorker(BODIES, { transport, input }, {}, loop);
      const hashes: string[] = [];
      physics.onFrame((frame) => {
        expect(Array.from(frame.ids.subarray(0, frame.count))).toEqual(
          Array.from({ length: BODIES }, (_, i) => i),
        );
        hashes[frame.tick - 1] = hash(frame.rows.subarray(0, BODIES * 13));
      });
      // the teleport goes at the same tick boundary as in the main-thread run
      const teleportTick = Math.floor((TELEPORT_FRAME * 60) / 144);
      let teleported = false;
      while (loop.tick < TICKS) {
        if (!teleported && loop.tick === teleportTick) {
          physics.teleport(7, TELEPORT);
          teleported = true;
        }
        const before = loop.tick;
        loop.advance(1 / 90);
        if (loop.tick !== before) await physics.synced();
      }
      loop.advance(0);
      expect(teleported).toBe(true);
      expect(hashes.length).toBe(TICKS);
      const differing = hashes.flatMap((h, i) => (h === main.hashes[i] ? [] : [i + 1]));
      expect(differing).toEqual([]);
    });
  }
});
