/**
 * examples/three-rapier with its world in a worker: `WorkerPhysics` sends each tick (with the
 * input latch's events) to worker.ts, which builds and steps the same scene as the main thread
 * would, and draws the poses it publishes — through shared memory when the page is cross-origin
 * isolated, else through messages (docs/cross-origin-isolation.md).
 */

import type { InterpolationMode } from '@fixedtick/three';
import { WorkerPhysics } from '@fixedtick/three/rapier';
import type { BodiesHash, Mode, ModeSetup } from './mode.ts';
import type { SceneCounts } from './scene-step.ts';
import type { WalkerStatus } from './walker.ts';
import { workerName } from './worker-config.ts';
import { isWorkerReport } from './worker-report.ts';

/** Floats of a body in a published frame: position, rotation, linear and angular velocity. */
const ROW = 13;
/** Published states kept for the page's measures: the newest and the three before it. */
const KEPT = 4;

/** Starts the worker, binds the meshes to its bodies' ids and resolves once it is ready. */
export async function startWorkerMode(setup: ModeSetup): Promise<Mode> {
  const { loop, input, pile, ball, capsule, count, hashTick } = setup;
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: workerName({ count, hashTick }),
  });
  const physics = new WorkerPhysics(loop, worker, { input });
  for (const { id, mesh } of pile.boxes) physics.bind(id, mesh);
  pile.sphereIds.forEach((id, index) => {
    physics.bind(id, pile.spheres, index);
  });
  const ballId = pile.bodies.length;
  physics.bind(ballId, ball);
  physics.bind(ballId + 1, capsule);
  const bodies = ballId + 2;

  // The last published positions of each body, by id (a ring of KEPT states), and its speed:
  // what the page measures the drawing against.
  const kept = Array.from({ length: KEPT }, () => ({
    steps: -1,
    positions: new Float64Array(bodies * 3),
  }));
  const speeds = new Float64Array(bodies);
  let newest = kept[0];
  physics.onFrame((frame) => {
    newest = kept[frame.tick % KEPT];
    newest.steps = frame.tick; // the state after that many steps
    const positions = newest.positions;
    for (let k = 0; k < frame.count; k++) {
      const id = frame.ids[k];
      const row = k * ROW;
      positions[id * 3] = frame.rows[row];
      positions[id * 3 + 1] = frame.rows[row + 1];
      positions[id * 3 + 2] = frame.rows[row + 2];
      speeds[id] = Math.hypot(frame.rows[row + 7], frame.rows[row + 8], frame.rows[row + 9]);
    }
  });
  let counts: SceneCounts = { shots: 0, teleports: 0, teleportTick: -1 };
  let walker: WalkerStatus = { walked: 0, grounded: false, manual: false };
  let hits = 0;
  let sleeping = 0;
  let steps = 0;
  let timestep = 0;
  let hash: BodiesHash | null = null;
  physics.onMessage((data) => {
    if (!isWorkerReport(data)) return;
    counts = data.counts;
    walker = data.walker;
    hits = data.hits;
    sleeping = data.sleeping;
    timestep = data.timestep;
    steps++;
    if (data.hash !== undefined) hash = { tick: data.tick, value: data.hash };
  });
  await physics.ready;

  return {
    name: 'worker',
    transport: physics.transport,
    // the stream's default delay: two steps behind the loop's present, one more than RapierPhysics
    drawLag: 1,
    readout: {
      get steps() {
        return Math.max(newest.steps, 0);
      },
      position: (id, target) => target.fromArray(newest.positions, id * 3),
      positionAt: (steps, id, target) => {
        const state = kept[steps % KEPT];
        if (state.steps !== steps) return false;
        target.fromArray(state.positions, id * 3);
        return true;
      },
      speed: (id) => speeds[id],
    },
    get counts() {
      return counts;
    },
    get walker() {
      return walker;
    },
    walkerPosition: (target) => target.fromArray(newest.positions, (ballId + 1) * 3),
    get hits() {
      return hits;
    },
    get sleeping() {
      return sleeping;
    },
    // a moving body's mesh is written every frame; the worker does not say which rest
    get resting() {
      return sleeping;
    },
    get steps() {
      return steps;
    },
    get timestep() {
      return timestep;
    },
    bound: bodies,
    get hash() {
      return hash;
    },
    streamDrawn: physics.stream.drawnFrames,
    // the worker's bodies are drawn interpolated
    get interpolation(): InterpolationMode {
      return 'interpolate';
    },
    set interpolation(_mode: InterpolationMode) {},
  };
}
