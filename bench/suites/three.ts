/**
 * The three.js adapter's cost for 10 000 tracked `Object3D`s, 60 Hz steps, 144 fps frames.
 *
 * Both sides run the same simulation (a per-object physics state in typed arrays: position and
 * yaw advanced per step, at angular speeds from 0.5 to 10 rad/s so slerp takes both its nlerp
 * and its trig path) under the same {@link FixedLoop}, and differ only in how the simulation
 * reaches the rendered objects:
 *
 * - **adapter** — `ThreeFixedLoop` with every object tracked. `fixedUpdate` writes the physics
 *   pose into the object, as a user of the adapter does; the adapter restores, captures, checks
 *   for teleports and interpolates.
 * - **hand-written** — what a user writes without it: per step `prev.copy(curr)` and
 *   `curr.set(physics)` on plain `Vector3`/`Quaternion`s per object; per frame
 *   `position.lerpVectors(prev, curr, alpha)` and `quaternion.slerpQuaternions(prev, curr, alpha)`.
 *
 * `ratio = adapter / hand-written` per frame, interleaved in the same run (`compare`); budget 1.0.
 * Bytes allocated per frame by the adapter: heap growth over 1440 frames of the adapter loop minus
 * that of the same loop running the same simulation on untracked objects.
 */

import { Object3D, Quaternion } from 'three';
import { FixedLoop } from '../../packages/core/src/index.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';
import { allocationPerCall, compare } from '../lib.ts';

const COUNT = 10_000;
/** Heap growth below this over the whole measurement is the measurement's own bookkeeping. */
const NOISE_BYTES = 4096;
const FRAME_TIME = 1 / 144;
const TICK_RATE = 60;

/** Per-object physics state, identical on both sides. */
function physics(): { x: Float64Array; yaw: Float64Array; v: Float64Array; w: Float64Array } {
  const x = new Float64Array(COUNT);
  const yaw = new Float64Array(COUNT);
  const v = new Float64Array(COUNT);
  const w = new Float64Array(COUNT);
  for (let i = 0; i < COUNT; i++) {
    x[i] = i * 0.01;
    v[i] = 1 + (i % 7);
    w[i] = 0.5 + (9.5 * i) / COUNT;
  }
  return { x, yaw, v, w };
}

function objects(): Object3D[] {
  const list: Object3D[] = [];
  for (let i = 0; i < COUNT; i++) {
    const o = new Object3D();
    o.position.set(i * 0.01, 0, 0);
    list.push(o);
  }
  return list;
}

/** The adapter user's step: the physics pose written into the object. */
function simulation(state: ReturnType<typeof physics>, list: Object3D[]): (dt: number) => void {
  const { x, yaw, v, w } = state;
  return (dt) => {
    for (let i = 0; i < COUNT; i++) {
      x[i] += v[i] * dt;
      yaw[i] += w[i] * dt;
      const half = yaw[i] / 2;
      const o = list[i];
      o.position.x = x[i];
      o.quaternion.set(0, Math.sin(half), 0, Math.cos(half));
    }
  };
}

export default function three(): Record<string, unknown> {
  // ---- adapter -------------------------------------------------------------------------
  const a = physics();
  const aObjects = objects();
  const adapterLoop = new ThreeFixedLoop({ tickRate: TICK_RATE });
  for (const o of aObjects) adapterLoop.track(o);
  adapterLoop.onFixedUpdate(simulation(a, aObjects));
  const adapterFrame = () => {
    adapterLoop.advance(FRAME_TIME);
  };

  // ---- hand-written ----------------------------------------------------------------------
  const b = physics();
  const bObjects = objects();
  const prevP = bObjects.map((o) => o.position.clone());
  const currP = bObjects.map((o) => o.position.clone());
  const prevQ = bObjects.map(() => new Quaternion());
  const currQ = bObjects.map(() => new Quaternion());
  const handLoop = new FixedLoop({ tickRate: TICK_RATE });
  handLoop.onFixedUpdate((dt) => {
    const { x, yaw, v, w } = b;
    for (let i = 0; i < COUNT; i++) {
      x[i] += v[i] * dt;
      yaw[i] += w[i] * dt;
      const half = yaw[i] / 2;
      prevP[i].copy(currP[i]);
      prevQ[i].copy(currQ[i]);
      currP[i].x = x[i];
      currQ[i].set(0, Math.sin(half), 0, Math.cos(half));
    }
  });
  handLoop.onUpdate((_dt, alpha) => {
    for (let i = 0; i < COUNT; i++) {
      const o = bObjects[i];
      o.position.lerpVectors(prevP[i], currP[i], alpha);
      o.quaternion.slerpQuaternions(prevQ[i], currQ[i], alpha);
    }
  });
  const handFrame = () => {
    handLoop.advance(FRAME_TIME);
  };

  // Three interleaved comparisons of 25 rounds of 48 frames (4 whole 12-frame step patterns
  // each); the median ratio is the result, all three are reported.
  const runs = [0, 1, 2].map(() => compare(adapterFrame, handFrame, 48, 25));
  const cost = [...runs].sort((x, y) => x.ratio - y.ratio)[1];

  // Where the time goes: the same two loops on a 240 Hz display (a step every 4th frame), so
  // that the per-frame pass weighs more than the per-step work.
  const at240 = compare(
    () => adapterLoop.advance(1 / 240),
    () => handLoop.advance(1 / 240),
    48,
    25,
  );

  // the two sides show the same picture
  let maxDifference = 0;
  for (let i = 0; i < COUNT; i += 97) {
    maxDifference = Math.max(
      maxDifference,
      Math.abs(aObjects[i].position.x - bObjects[i].position.x),
      aObjects[i].quaternion.angleTo(bObjects[i].quaternion),
    );
  }

  // ---- the machinery alone ------------------------------------------------------------------
  // The frame ratio above includes each side's gameplay, and the two gameplays differ: the
  // adapter's user writes poses into Object3Ds (three syncs `rotation` on every quaternion
  // write), the hand-written user into plain Quaternions. To compare what the issue names — the
  // adapter's restore, capture, teleport check and interpolation against the hand-written
  // copy-per-step and lerp/slerp-per-frame — each side's frame is timed against the same loop
  // running only its gameplay, interleaved round by round, and the differences are compared.
  const gameOnlyA = physics();
  const gameOnlyAObjects = objects();
  const adapterGameOnly = new ThreeFixedLoop({ tickRate: TICK_RATE });
  adapterGameOnly.onFixedUpdate(simulation(gameOnlyA, gameOnlyAObjects));
  const gameOnlyB = physics();
  const plainQ = bObjects.map(() => new Quaternion());
  const handGameOnly = new FixedLoop({ tickRate: TICK_RATE });
  handGameOnly.onFixedUpdate((dt) => {
    const { x, yaw, v, w } = gameOnlyB;
    for (let i = 0; i < COUNT; i++) {
      x[i] += v[i] * dt;
      yaw[i] += w[i] * dt;
      const half = yaw[i] / 2;
      plainQ[i].set(0, Math.sin(half), 0, Math.cos(half));
    }
  });
  const machineryRuns = [0, 1, 2].map(() => {
    const adapterSide = compare(adapterFrame, () => adapterGameOnly.advance(FRAME_TIME), 48, 15);
    const handSide = compare(handFrame, () => handGameOnly.advance(FRAME_TIME), 48, 15);
    const adapterNs = Math.max(0, adapterSide.aNs - adapterSide.bNs);
    const handNs = Math.max(1, handSide.aNs - handSide.bNs);
    return { adapterNs, handNs, ratio: adapterNs / handNs };
  });
  const machinery = [...machineryRuns].sort((x, y) => x.ratio - y.ratio)[1];

  // ---- allocation ------------------------------------------------------------------------
  // The same frames on the adapter loop and on a baseline loop that runs the same simulation
  // on untracked objects: the difference is what the adapter allocates. (The loop itself boxes
  // the alpha/delta it passes to listeners; see the core suite.)
  const base = physics();
  const baseObjects = objects();
  const baseline = new ThreeFixedLoop({ tickRate: TICK_RATE });
  baseline.onFixedUpdate(simulation(base, baseObjects));
  const baselineFrame = () => {
    baseline.advance(FRAME_TIME);
  };
  const FRAMES = 1440;
  allocationPerCall(adapterFrame, FRAMES, FRAMES); // a first run compiles; measure the second
  const tracked = allocationPerCall(adapterFrame, FRAMES, FRAMES);
  const untracked = allocationPerCall(baselineFrame, FRAMES, FRAMES);
  const adapterBytes = Math.max(0, tracked.totalBytes - untracked.totalBytes);
  for (const o of aObjects) adapterLoop.track(o, { interpolation: 'extrapolate' });
  const extrapolating = allocationPerCall(adapterFrame, FRAMES, FRAMES);
  const extrapolateBytes = Math.max(0, extrapolating.totalBytes - untracked.totalBytes);

  return {
    scenario: `${COUNT} tracked Object3D, ${TICK_RATE} Hz steps, 144 fps frames; same simulation both sides`,
    adapterNsPerFrame: Math.round(cost.aNs),
    handWrittenNsPerFrame: Math.round(cost.bNs),
    ratio: Number(cost.ratio.toFixed(3)),
    ratios: runs.map((r) => Number(r.ratio.toFixed(3))),
    ratioAt240fps: Number(at240.ratio.toFixed(3)),
    machineryNsPerFrame: {
      adapter: Math.round(machinery.adapterNs),
      handWritten: Math.round(machinery.handNs),
    },
    machineryRatio: Number(machinery.ratio.toFixed(3)),
    machineryRatios: machineryRuns.map((r) => Number(r.ratio.toFixed(3))),
    ratioBudget: 1,
    ratioNote:
      'ratio: whole frames, gameplay included (the adapter user writes Object3Ds, whose quaternion writes make three recompute Euler angles); machineryRatio: restore + capture + teleport check + interpolate against copy-per-step + lerp/slerp-per-frame, each side minus its own gameplay',
    adapterBytesPerFrame: adapterBytes <= NOISE_BYTES ? 0 : adapterBytes / FRAMES,
    adapterBytesPerFrameExtrapolating:
      extrapolateBytes <= NOISE_BYTES ? 0 : extrapolateBytes / FRAMES,
    heapGrowthBytesOver1440Frames: {
      interpolating: tracked.totalBytes,
      extrapolating: extrapolating.totalBytes,
      untrackedBaseline: untracked.totalBytes,
    },
    maxDifferenceBetweenSides: maxDifference,
  };
}
