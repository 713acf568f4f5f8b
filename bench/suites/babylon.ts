/**
 * The Babylon.js adapter's cost next to Havok's, for 1 000 dynamic Havok bodies, 60 Hz physics,
 * 144 fps frames, on a real `NullEngine` scene with real Havok WASM and a camera, timed inside
 * real frames with `scene.render()` between them (as an app renders; not counted on either side).
 *
 * Three scenes, each measured in a fresh process:
 * - `tumbling`: a 10 × 10 × 10 grid of 1 m boxes, 1.6 m apart horizontally and 2.5 m vertically
 *   (the top layer 24.5 m up), each given its own spin (up to ±4 rad/s on each axis) and a small
 *   horizontal drift, dropping onto a 60 m ground: over the measured window (simulated seconds
 *   1–5) the lower layers land and tumble while the upper ones are still falling onto them.
 * - `settling`: the same boxes 1.6 m apart vertically with no spin or drift: Havok moves every
 *   body at every step while visible motion dies out, and its step costs half as much.
 * - `resting`: the boxes side by side on the ground, left 4 s to settle before measuring: a pile
 *   at rest (Havok's bodies asleep), which should cost the adapter next to nothing.
 *
 * What is timed (`performance.now()` around each call, inside real `loop.advance(1 / 144)`
 * frames, by wrapping the adapter's phases): **adapter** — everything `BabylonFixedLoop` adds to
 * a frame: the body registry's scan, the tracker's write check and restore (`beforeSteps`),
 * capture (`afterStep`, and the last step's inside `interpolate`), interpolation and writes, and
 * the render phase's re-expression of parented bodies; **havok** — the stepper's `physicsStep`:
 * `onBeforePhysicsObservable`, `HavokPlugin.executeStep(fixedDelta)` (Babylon's pre-step,
 * Havok's world step and Babylon's sync back to the nodes) and `onAfterPhysicsObservable`.
 *
 * The budgeted `fraction` (≤ 0.08), per simulated second: the adapter's cost over that second's
 * 144 frames against Havok's over its 60 steps, each made robust to load spikes on a shared
 * machine (Havok's side: the median step × the steps; the adapter's: per kind of frame, with or
 * without a step, the median frame × the frames of that kind). Reported per scene: the median,
 * minimum and maximum over seconds 1–5, every second's figures and the plain sums. The resting
 * pile's adapter cost is also reported as a share of the tumbling one's (budget ≤ 0.1).
 *
 * Bytes allocated per frame are measured on the adapter's own phases, driven in the loop's order
 * with Havok left out (a 2 880- and a 14 400-frame window: fixed JIT/GC bookkeeping does not grow
 * with the frames; a window in which a garbage collection ran is discarded and measured again).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';
import { fileURLToPath } from 'node:url';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import HavokPhysics from '@babylonjs/havok';
import { BabylonFixedLoop } from '../../packages/babylon/src/babylon-fixed-loop.ts';
import { BodyRegistry } from '../../packages/babylon/src/body-registry.ts';
import { HavokStepper } from '../../packages/babylon/src/havok-stepper.ts';
import type { InterpolationMode } from '../../packages/core/src/index.ts';
import { Tracker } from '../../packages/core/src/tracking/tracker.ts';
import { allocationPerCall } from '../lib.ts';

const BODIES = 1000;
const TICK_RATE = 60;
const FPS = 144;
/** Simulated seconds run; second 0 is warm-up, the rest are measured. */
const SECONDS = 6;

/** Per-phase timing of the adapter and Havok, installed by wrapping their prototypes. */
class Timing {
  /** Adapter milliseconds of the frame being run. */
  frameAdapter = 0;
  /** Havok milliseconds of each step this second. */
  readonly stepMs: number[] = [];
  /** Per phase, milliseconds this second. */
  readonly phaseMs: Record<string, number> = {};
  /** Off while allocation is measured: `performance.now()` returns a fresh heap number. */
  on = true;

  /** Wraps `names` of `proto` so that each call's time counts as `kind`. */
  wrap(proto: object, names: string[], kind: 'adapter' | 'havok'): void {
    const p = proto as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const original = p[name];
      const timing = this;
      const label = `${kind === 'havok' ? 'havok.' : ''}${name}`;
      this.phaseMs[label] = 0;
      p[name] = function timed(this: unknown, ...args: unknown[]) {
        if (!timing.on) return original.apply(this, args);
        const t0 = performance.now();
        const result = original.apply(this, args);
        const ms = performance.now() - t0;
        if (kind === 'havok') timing.stepMs.push(ms);
        else timing.frameAdapter += ms;
        timing.phaseMs[label] += ms;
        return result;
      };
    }
  }
}

/** A deterministic pseudo-random number in [-1, 1) (same scene every run). */
function noise(i: number, k: number): number {
  const x = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
  return (x - Math.floor(x)) * 2 - 1;
}

/**
 * `'tumbling'`: the grid described in the module doc. `'settling'`: the same grid 1.6 m apart
 * vertically (top layer 16.4 m up), dropped with no velocity, which piles up and settles.
 */
type SceneKind = 'tumbling' | 'settling' | 'resting';

async function pile(kind: SceneKind): Promise<Scene> {
  Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
  const require = createRequire(import.meta.url);
  const bytes = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const hk = await HavokPhysics({ wasmBinary: wasmBinary as ArrayBuffer });
  const scene = new Scene(new NullEngine());
  scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, hk));
  new FreeCamera('camera', new Vector3(0, 15, -45), scene).setTarget(Vector3.Zero());
  new HemisphericLight('light', new Vector3(0, 1, 0), scene);
  const ground = MeshBuilder.CreateBox('ground', { width: 60, height: 1, depth: 60 }, scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene);
  for (let i = 0; i < BODIES; i++) {
    const box = MeshBuilder.CreateBox(`b${i}`, { size: 1 }, scene);
    if (kind === 'resting') {
      // side by side on the ground, 32 × 32 cells 1.5 m apart (1 000 of them used)
      box.position.set((i % 32) * 1.5 - 24, 0.5, Math.floor(i / 32) * 1.5 - 24);
    } else {
      box.position.set(
        (i % 10) * 1.6 - 8,
        2 + Math.floor(i / 100) * (kind === 'tumbling' ? 2.5 : 1.6),
        (Math.floor(i / 10) % 10) * 1.6 - 8,
      );
    }
    const body = new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene).body;
    if (kind !== 'tumbling') continue;
    body.setAngularVelocity(new Vector3(4 * noise(i, 1), 4 * noise(i, 2), 4 * noise(i, 3)));
    body.setLinearVelocity(new Vector3(noise(i, 4), 0, noise(i, 5)));
  }
  return scene;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

/** Bodies whose last two simulation poses differ, and those that moved over 1 mm (no node touched). */
function moving(tracker: Tracker<object>): { moved: number; over1mm: number } {
  const { previous: p, current: c } = tracker.poses;
  let moved = 0;
  let over1mm = 0;
  for (let slot = 0; slot < tracker.poses.size; slot++) {
    if (!tracker.poses.has(slot)) continue;
    const r = slot * 10;
    let same = true;
    for (let k = 0; k < 7; k++) if (p[r + k] !== c[r + k]) same = false;
    if (!same) moved++;
    if (Math.hypot(c[r] - p[r], c[r + 1] - p[r + 1], c[r + 2] - p[r + 2]) > 1e-3) over1mm++;
  }
  return { moved, over1mm };
}

const SETTLE_SECONDS = 4;

async function measure(mode: InterpolationMode, kind: SceneKind) {
  const scene = await pile(kind);
  const timing = new Timing();
  timing.wrap(BodyRegistry.prototype, ['beginFrame'], 'adapter');
  timing.wrap(
    Tracker.prototype,
    ['beforeSteps', 'afterStep', 'interpolate', 'rewriteWorldNodes'],
    'adapter',
  );
  timing.wrap(HavokStepper.prototype, ['physicsStep'], 'havok');
  const loop = new BabylonFixedLoop(scene, {
    tickRate: TICK_RATE,
    defaultInterpolation: mode,
    render: false,
  });
  const tracker = loop.tracker as unknown as Tracker<object>;
  const frame = () => {
    const steps = loop.advance(1 / FPS).steps;
    scene.render(); // as an app renders between frames: not counted on either side
    return steps;
  };
  if (kind === 'resting') {
    timing.on = false;
    for (let f = 0; f < SETTLE_SECONDS * FPS; f++) frame();
    timing.on = true;
  }
  const perSecond: {
    fraction: number;
    adapterMs: number;
    havokMs: number;
    rawAdapterMs: number;
    rawHavokMs: number;
    phasesMs: Record<string, number>;
    bodiesResting: number;
    bodiesMovedLastStep: number;
    bodiesOver1mmLastStep: number;
  }[] = [];
  for (let s = 0; s < SECONDS; s++) {
    timing.stepMs.length = 0;
    for (const k of Object.keys(timing.phaseMs)) timing.phaseMs[k] = 0;
    // per kind of frame (steps run in it: 0, 1, …), each frame's adapter milliseconds
    const frames = new Map<number, number[]>();
    for (let f = 0; f < FPS; f++) {
      timing.frameAdapter = 0;
      const steps = frame();
      const list = frames.get(steps) ?? [];
      frames.set(steps, list);
      list.push(timing.frameAdapter);
    }
    let adapterMs = 0;
    let rawAdapterMs = 0;
    for (const list of frames.values()) {
      adapterMs += median(list) * list.length;
      rawAdapterMs += sum(list);
    }
    const havokMs = median(timing.stepMs) * timing.stepMs.length;
    const motion = moving(tracker);
    perSecond.push({
      fraction: round(adapterMs / havokMs, 4),
      adapterMs: round(adapterMs),
      havokMs: round(havokMs),
      rawAdapterMs: round(rawAdapterMs),
      rawHavokMs: round(sum(timing.stepMs)),
      phasesMs: Object.fromEntries(Object.entries(timing.phaseMs).map(([k, v]) => [k, round(v)])),
      bodiesResting: tracker.restingCount,
      bodiesMovedLastStep: motion.moved,
      bodiesOver1mmLastStep: motion.over1mm,
    });
  }
  const tracked = tracker.size;
  const measured = perSecond.slice(1);
  const fractions = measured.map((r) => r.fraction);
  timing.on = false;
  // The adapter's phases alone (Havok left out), in the loop's order, for allocation: a 60 Hz
  // step pattern at 144 fps, with a frame context as a real frame sets it.
  const stepsOf: number[] = [];
  let acc = 0;
  for (let f = 0; f < FPS; f++) {
    acc += 1 / FPS;
    const n = Math.floor((acc + 1e-9) * TICK_RATE);
    acc -= n / TICK_RATE;
    stepsOf.push(n);
  }
  const context = {
    fixedDelta: 1 / TICK_RATE,
    alpha: loop.alpha,
    tick: 0,
    steps: 0,
    lastStep: true,
  };
  const adapterFrame = (i: number) => {
    const steps = stepsOf[i % FPS];
    context.steps = steps;
    tracker.beginFrame();
    if (steps > 0) {
      tracker.beforeSteps();
      tracker.afterStep(context.fixedDelta, context);
    }
    tracker.interpolate(context); // the alpha of the last real frame
    tracker.rewriteWorldNodes();
  };
  const short = allocationPerCall(adapterFrame, 2880, 4320);
  const long = allocationPerCall(adapterFrame, 14400, 0);
  const fixedOnly = short.totalBytes <= 65536 && long.totalBytes <= short.totalBytes;
  const adapterBytesPerFrame = fixedOnly
    ? 0
    : round(Math.max(short.bytesPerCall, long.bytesPerCall), 1);
  // for context: a whole frame, Havok included
  const wholeAlloc = allocationPerCall(() => loop.advance(1 / FPS), 288, 144);
  loop.dispose();
  scene.getEngine().dispose();
  return {
    trackedBodies: tracked,
    fraction: median(fractions),
    fractionMin: Math.min(...fractions),
    fractionMax: Math.max(...fractions),
    adapterMsPerSimulatedSecond: median(measured.map((r) => r.adapterMs)),
    havokMsPerSimulatedSecond: median(measured.map((r) => r.havokMs)),
    rawFraction: round(
      sum(measured.map((r) => r.rawAdapterMs)) / sum(measured.map((r) => r.rawHavokMs)),
      4,
    ),
    perSecond,
    adapterBytesPerFrame,
    adapterHeapGrowthBytes: { over2880Frames: short.totalBytes, over14400Frames: long.totalBytes },
    wholeFrameBytesPerFrameIncludingHavok: Math.round(wholeAlloc.bytesPerCall),
  };
}

function round(x: number, digits = 3): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

type Measure = Awaited<ReturnType<typeof measure>>;

/**
 * One measurement in a fresh Node process with `npm run bench`'s flags: a scene measured after
 * another inherits its heap and JIT state (its nodes end up scattered in a larger old space),
 * which made the second scene's adapter figure 15–25 % worse whichever scene it was.
 */
function isolated(mode: InterpolationMode, kind: SceneKind): Measure {
  const args = ['--expose-gc', '--max-semi-space-size=512', '--import', 'tsx'];
  const out = execFileSync(
    process.execPath,
    [...args, fileURLToPath(import.meta.url), mode, kind],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    },
  );
  return JSON.parse(out.slice(out.indexOf('{'))) as Measure;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, kind] = process.argv.slice(2) as [InterpolationMode, SceneKind];
  process.stdout.write(JSON.stringify(await measure(mode, kind)));
}

export default async function babylon(): Promise<Record<string, unknown>> {
  const tumbling = isolated('interpolate', 'tumbling');
  const settling = isolated('interpolate', 'settling');
  const resting = isolated('interpolate', 'resting');
  const extrapolate = isolated('extrapolate', 'tumbling');
  // the budgeted figure is the worse moving scene's (Havok costs less on the settling pile)
  const fraction = Math.max(tumbling.fraction, settling.fraction);
  const bytes = Math.max(tumbling.adapterBytesPerFrame, settling.adapterBytesPerFrame);
  const restingShare = round(
    resting.adapterMsPerSimulatedSecond / tumbling.adapterMsPerSimulatedSecond,
    4,
  );
  return {
    bodies: BODIES,
    tickRate: TICK_RATE,
    fps: FPS,
    renderedBetweenFrames: true,
    budgetFraction: 0.08,
    fraction,
    adapterBytesPerFrame: bytes,
    restingAdapterShareOfTumbling: restingShare,
    restingShareBudget: 0.1,
    withinBudget: fraction <= 0.08 && bytes === 0 && restingShare <= 0.1,
    interpolate: { tumbling, settling, resting },
    extrapolate,
  };
}
