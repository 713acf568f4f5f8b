/**
 * The three.js adapter against the loop a three.js user writes by hand, at 1 000, 10 000 and
 * 100 000 bodies, 60 Hz steps, 144 fps frames, same poses on both sides (checked).
 *
 * Both sides run the same simulation under the same {@link FixedLoop}: per body a position and a
 * yaw in typed arrays, advanced per step, at angular speeds from 0.5 to 10 rad/s (so slerp takes
 * both its nlerp and its trig path). They differ in how the simulation reaches what is drawn:
 *
 * - **plain** — adapter: `ThreeFixedLoop` with every `Object3D` tracked; `fixedUpdate` writes the
 *   pose into the object, as an adapter user does. Hand-written: the state stays outside the
 *   objects, per step `prev.copy(curr)` and `curr.set(…)` on `Vector3`/`Quaternion`s, per frame
 *   `position.lerpVectors(prev, curr, alpha)` and `quaternion.slerpQuaternions(prev, curr, alpha)`.
 * - **instanced** — one `InstancedMesh`. Adapter: every instance tracked (`trackInstance`);
 *   `fixedUpdate` gives each instance its pose (`setInstancePose`: no matrix written or read
 *   back). Hand-written: state in `Vector3`/`Quaternion`s as above, per frame lerp/slerp,
 *   `compose` and `setMatrixAt`.
 * - **resting** — the plain adapter scene with nothing moving: the adapter's cost in it (the
 *   scene minus the same scene untracked: the user's step, writing the same pose every step, is
 *   taken out) as a share of its cost in the moving scene (`costShareRounds`). A body at rest is
 *   skipped by the passes; its write check remains, and a check after each step that the step
 *   left it as it was.
 * - **rule by hand** (`ruleByHand`, three-rule.ts) — the plain scene tracked by the adapters' rule
 *   (docs/guarantees.md, "Interpolation and the adapters' rule": the simulation pose inside the step, the interpolated one outside it, a write
 *   outside the step a teleport) written by hand as the least work it asks, with none of the
 *   tracker's generality. Reported against the hand-written loop (what the rule itself costs),
 *   the adapter against it (`adapterOverRule`: what the tracker adds to the rule), and its own
 *   resting share.
 *
 * Every ratio is `adapter / hand-written` per frame, timed interleaved in one process
 * (`compareRounds`: min / median / max over 21 rounds of 48 frames; 7 rounds at 100 000). Bytes
 * allocated per frame by the adapter: young-generation growth over 1 440 frames, minus the same
 * simulation on untracked objects, in windows in which no garbage collection ran.
 */
import { InstancedMesh, Matrix4, Object3D, Quaternion, Vector3 } from 'three';
import { FixedLoop } from '../../packages/core/src/index.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';
import { allocationWithoutGc, compareRounds, costShareRounds } from '../lib.ts';
import { trackByRule } from './three-rule.ts';

const FRAME_TIME = 1 / 144;
const TICK_RATE = 60;
const SIZES = [1_000, 10_000, 100_000];

/** Per-body simulation state, identical on both sides. */
/** Per body: position along x, yaw, speed and turn rate (the scene's plain arrays). */
export interface Physics {
  x: Float64Array;
  yaw: Float64Array;
  v: Float64Array;
  w: Float64Array;
}

/** The bench scene's motion for `n` bodies (at rest with `moving` false). */
export function physics(n: number, moving = true): Physics {
  const x = new Float64Array(n);
  const yaw = new Float64Array(n);
  const v = new Float64Array(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = i * 0.01;
    v[i] = moving ? 1 + (i % 7) : 0;
    w[i] = moving ? 0.5 + (9.5 * i) / n : 0;
  }
  return { x, yaw, v, w };
}

/** One step of the simulation for body `i`; returns the half yaw (for the quaternion). */
function advance(p: Physics, i: number, dt: number): number {
  p.x[i] += p.v[i] * dt;
  p.yaw[i] += p.w[i] * dt;
  return p.yaw[i] / 2;
}

function objects(n: number): Object3D[] {
  const list: Object3D[] = [];
  for (let i = 0; i < n; i++) {
    const o = new Object3D();
    o.position.set(i * 0.01, 0, 0);
    list.push(o);
  }
  return list;
}

/**
 * The adapter user's plain scene: the step writes the pose into each tracked object. Tracked by
 * the adapter, by the rule written by hand (`'rule'`, three-rule.ts), or not at all (`'none'`).
 */
function plainAdapter(
  n: number,
  moving = true,
  track: 'adapter' | 'rule' | 'none' = 'adapter',
): { loop: FixedLoop; list: Object3D[] } {
  const p = physics(n, moving);
  const list = objects(n);
  const loop =
    track === 'rule'
      ? new FixedLoop({ tickRate: TICK_RATE })
      : new ThreeFixedLoop({ tickRate: TICK_RATE });
  if (track === 'adapter') for (const o of list) (loop as ThreeFixedLoop).track(o);
  if (track === 'rule') trackByRule(loop, list);
  loop.onFixedUpdate((dt) => {
    for (let i = 0; i < n; i++) {
      const half = advance(p, i, dt);
      const o = list[i];
      o.position.x = p.x[i];
      o.quaternion.set(0, Math.sin(half), 0, Math.cos(half));
    }
  });
  return { loop, list };
}

/**
 * The hand-written side's state: the previous and current pose of each body in `Vector3`s and
 * `Quaternion`s, outside the drawn objects, shifted and set by a loop's step.
 */
function handState(n: number): {
  loop: FixedLoop;
  prevP: Vector3[];
  currP: Vector3[];
  prevQ: Quaternion[];
  currQ: Quaternion[];
} {
  const p = physics(n);
  const prevP = Array.from({ length: n }, (_, i) => new Vector3(i * 0.01, 0, 0));
  const currP = Array.from({ length: n }, (_, i) => new Vector3(i * 0.01, 0, 0));
  const prevQ = Array.from({ length: n }, () => new Quaternion());
  const currQ = Array.from({ length: n }, () => new Quaternion());
  const loop = new FixedLoop({ tickRate: TICK_RATE });
  loop.onFixedUpdate((dt) => {
    for (let i = 0; i < n; i++) {
      const half = advance(p, i, dt);
      prevP[i].copy(currP[i]);
      prevQ[i].copy(currQ[i]);
      currP[i].x = p.x[i];
      currQ[i].set(0, Math.sin(half), 0, Math.cos(half));
    }
  });
  return { loop, prevP, currP, prevQ, currQ };
}

/** What a three.js user writes by hand for the plain scene. */
function plainHand(n: number): { loop: FixedLoop; list: Object3D[] } {
  const list = objects(n);
  const { loop, prevP, currP, prevQ, currQ } = handState(n);
  loop.onUpdate((_dt, alpha) => {
    for (let i = 0; i < n; i++) {
      const o = list[i];
      o.position.lerpVectors(prevP[i], currP[i], alpha);
      o.quaternion.slerpQuaternions(prevQ[i], currQ[i], alpha);
    }
  });
  return { loop, list };
}

function instancedMesh(n: number): InstancedMesh {
  const mesh = new InstancedMesh(undefined, undefined, n);
  const m = new Matrix4();
  for (let i = 0; i < n; i++) mesh.setMatrixAt(i, m.makeTranslation(i * 0.01, 0, 0));
  return mesh;
}

/** The adapter user's instanced scene: the step composes and sets each instance's matrix. */
function instancedAdapter(n: number): { loop: FixedLoop; mesh: InstancedMesh } {
  const p = physics(n);
  const mesh = instancedMesh(n);
  const loop = new ThreeFixedLoop({ tickRate: TICK_RATE });
  for (let i = 0; i < n; i++) loop.trackInstance(mesh, i);
  // (setInstancePose below)
  const position = new Vector3();
  const rotation = new Quaternion();
  loop.onFixedUpdate((dt) => {
    for (let i = 0; i < n; i++) {
      const half = advance(p, i, dt);
      position.set(p.x[i], 0, 0);
      rotation.set(0, Math.sin(half), 0, Math.cos(half));
      loop.setInstancePose(mesh, i, position, rotation);
    }
  });
  return { loop, mesh };
}

/** What a three.js user writes by hand for the instanced scene. */
function instancedHand(n: number): { loop: FixedLoop; mesh: InstancedMesh } {
  const mesh = instancedMesh(n);
  const { loop, prevP, currP, prevQ, currQ } = handState(n);
  const m = new Matrix4();
  const position = new Vector3();
  const rotation = new Quaternion();
  const scale = new Vector3(1, 1, 1);
  loop.onUpdate((_dt, alpha) => {
    for (let i = 0; i < n; i++) {
      position.lerpVectors(prevP[i], currP[i], alpha);
      rotation.slerpQuaternions(prevQ[i], currQ[i], alpha);
      mesh.setMatrixAt(i, m.compose(position, rotation, scale));
    }
    mesh.instanceMatrix.needsUpdate = true;
  });
  return { loop, mesh };
}

/** Largest difference between the two sides' drawn poses (position and angle), sampled. */
function plainDifference(a: Object3D[], b: Object3D[]): number {
  let d = 0;
  for (let i = 0; i < a.length; i += 97) {
    d = Math.max(
      d,
      Math.abs(a[i].position.x - b[i].position.x),
      a[i].quaternion.angleTo(b[i].quaternion),
    );
  }
  return d;
}

function instancedDifference(a: InstancedMesh, b: InstancedMesh): number {
  const x = a.instanceMatrix.array;
  const y = b.instanceMatrix.array;
  let d = 0;
  for (let i = 0; i < a.count; i += 97) {
    for (let k = 0; k < 16; k++) d = Math.max(d, Math.abs(x[i * 16 + k] - y[i * 16 + k]));
  }
  return d;
}

const frame = (loop: FixedLoop) => () => {
  loop.advance(FRAME_TIME);
};

async function size(n: number): Promise<Record<string, unknown>> {
  const rounds = n >= 100_000 ? 7 : 21;
  const frames = n >= 100_000 ? 24 : 48;
  const plainA = plainAdapter(n);
  const plainB = plainHand(n);
  const plain = compareRounds(frame(plainA.loop), frame(plainB.loop), frames, rounds);
  const plainDiff = plainDifference(plainA.list, plainB.list);
  // the rule by hand: against the hand-written loop, and the adapter against it
  const ruleA = plainAdapter(n, true, 'rule');
  const rule = compareRounds(frame(ruleA.loop), frame(plainB.loop), frames, rounds);
  const overRule = compareRounds(frame(plainA.loop), frame(ruleA.loop), frames, rounds);
  const ruleDiff = plainDifference(ruleA.list, plainB.list);
  const instA = instancedAdapter(n);
  const instB = instancedHand(n);
  const instanced = compareRounds(frame(instA.loop), frame(instB.loop), frames, rounds);
  const instancedDiff = instancedDifference(instA.mesh, instB.mesh);
  const rest = plainAdapter(n, false);
  const resting = costShareRounds(
    frame(rest.loop),
    frame(plainAdapter(n, false, 'none').loop),
    frame(plainA.loop),
    frame(plainAdapter(n, true, 'none').loop),
    frames,
    rounds,
  );
  const ruleResting = costShareRounds(
    frame(plainAdapter(n, false, 'rule').loop),
    frame(plainAdapter(n, false, 'none').loop),
    frame(ruleA.loop),
    frame(plainAdapter(n, true, 'none').loop),
    frames,
    rounds,
  );
  const result: Record<string, unknown> = {
    bodies: n,
    plain: {
      ratio: plain.ratio,
      adapterNsPerFrame: Math.round(plain.aNs),
      handWrittenNsPerFrame: Math.round(plain.bNs),
      maxDifferenceBetweenSides: plainDiff,
    },
    instanced: {
      ratio: instanced.ratio,
      adapterNsPerFrame: Math.round(instanced.aNs),
      handWrittenNsPerFrame: Math.round(instanced.bNs),
      maxDifferenceBetweenSides: instancedDiff,
    },
    restingShareOfMoving: resting.share,
    ruleByHand: {
      ratio: rule.ratio,
      nsPerFrame: Math.round(rule.aNs),
      maxDifferenceBetweenSides: ruleDiff,
      adapterOverRule: overRule.ratio,
      restingShareOfMoving: ruleResting.share,
    },
  };
  if (n === 10_000) {
    // allocation: the tracked scene against the same simulation on untracked objects
    const FRAMES = 1440;
    const untracked = plainAdapter(n, true, 'none');
    const tracked = await allocationWithoutGc(frame(plainA.loop), FRAMES);
    const base = await allocationWithoutGc(frame(untracked.loop), FRAMES);
    const inst = await allocationWithoutGc(frame(instA.loop), FRAMES);
    const bytes = Math.max(0, tracked.totalBytes - base.totalBytes);
    result.adapterBytesPerFrame = bytes <= 4096 ? 0 : bytes / FRAMES;
    result.instancedBytesPerFrame = inst.bytesPerCall;
    result.allocationWindowsDiscardedForGc = tracked.discarded + base.discarded + inst.discarded;
  }
  return result;
}

export default async function three(): Promise<Record<string, unknown>> {
  const sizes: Record<string, unknown>[] = [];
  for (const n of SIZES) sizes.push(await size(n));
  return {
    scenario: `tracked Object3Ds / InstancedMesh instances, ${TICK_RATE} Hz steps, 144 fps frames, same simulation on both sides`,
    ratioBudget: 1,
    restingBudget: 0.1,
    sizes,
  };
}
