/**
 * The Babylon.js adapter's cost next to Havok's, for 1 000 dynamic Havok bodies (a 10 × 10 × 10
 * grid of boxes dropping onto a ground and piling up), 60 Hz physics, 144 fps frames, on a real
 * `NullEngine` scene with real Havok WASM.
 *
 * - **adapter** — what `BabylonFixedLoop` adds to a frame: `beginFrame` (auto-track scan),
 *   `beforeSteps` (teleport check, restore simulation poses), `afterStep` (capture),
 *   `interpolate` (on a frame without steps it checks the nodes it is about to write) and
 *   `render` (the frame's teleport check; `scene.render()` itself is off: the NullEngine draws
 *   nothing).
 * - **havok** — `physicsStep`: the observables and `HavokPlugin.executeStep(fixedDelta)` (Havok's
 *   world step plus Babylon's per-body pre-step and sync), i.e. what Babylon would do anyway.
 *
 * Two measurements, both in the same run on the same scene:
 * - `fraction` (the budgeted one, ≤ 0.10), per simulated second: Havok's cost (the median of
 *   that second's 60 `physicsStep` times, × 60) against the adapter's 144 frames (60 of them
 *   restoring and capturing) replayed right after on the same state (median of five replays).
 *   Medians on both sides, because on a shared machine load spikes hit one step or another.
 *   Reported: the median over seconds 2–5 (the first second tracks the bodies and warms up).
 * - `inFrame`: each phase timed inside real `advance()` frames (a subclass wraps the adapter's
 *   phases with `performance.now()`), summed per simulated second; this one also catches GC
 *   pauses and cache misses the two sides cause each other, and is noisier.
 *
 * Bytes allocated per frame are measured on the adapter's own phases, driven in the loop's order
 * (a 2 880- and a 14 400-frame window: fixed JIT/GC bookkeeping does not grow with the frames)
 * with Havok left out (Havok's embind bindings and Babylon's sync allocate per body per step;
 * that is theirs). A whole `advance()` with Havok is reported too, for context.
 */
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
import HavokPhysics from '@babylonjs/havok';
import type { SceneLike } from '../../packages/babylon/src/babylon-shapes.ts';
import { BodyTracker } from '../../packages/babylon/src/body-tracker.ts';
import { FixedLoop, type InterpolationMode } from '../../packages/core/src/index.ts';
import { allocationPerCall } from '../lib.ts';

const BODIES = 1000;
const TICK_RATE = 60;
const FPS = 144;
const SECONDS = 5;

/** The adapter with each phase timed. */
class TimedTracker extends BodyTracker {
  adapterMs = 0;
  havokMs = 0;
  /** Each step's Havok time this second (its median resists a load spike on a shared machine). */
  readonly stepMs: number[] = [];
  /** Off while allocation is measured: `performance.now()` returns a fresh heap number. */
  timing = true;
  override beginFrame(): void {
    if (!this.timing) {
      super.beginFrame();
      return;
    }
    const t = performance.now();
    super.beginFrame();
    this.adapterMs += performance.now() - t;
  }
  override beforeSteps(): void {
    if (!this.timing) {
      super.beforeSteps();
      return;
    }
    const t = performance.now();
    super.beforeSteps();
    this.adapterMs += performance.now() - t;
  }
  override physicsStep(fixedDelta: number): void {
    if (!this.timing) {
      super.physicsStep(fixedDelta);
      return;
    }
    const t = performance.now();
    super.physicsStep(fixedDelta);
    const ms = performance.now() - t;
    this.havokMs += ms;
    this.stepMs.push(ms);
  }
  override afterStep(): void {
    if (!this.timing) {
      super.afterStep();
      return;
    }
    const t = performance.now();
    super.afterStep();
    this.adapterMs += performance.now() - t;
  }
  override interpolate(): void {
    if (!this.timing) {
      super.interpolate();
      return;
    }
    const t = performance.now();
    super.interpolate();
    this.adapterMs += performance.now() - t;
  }
  override render(): void {
    if (!this.timing) {
      super.render();
      return;
    }
    const t = performance.now();
    super.render();
    this.adapterMs += performance.now() - t;
  }
}

async function pile(): Promise<Scene> {
  Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
  const require = createRequire(import.meta.url);
  const bytes = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const hk = await HavokPhysics({ wasmBinary: wasmBinary as ArrayBuffer });
  const scene = new Scene(new NullEngine());
  scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, hk));
  const ground = MeshBuilder.CreateBox('ground', { width: 60, height: 1, depth: 60 }, scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene);
  for (let i = 0; i < BODIES; i++) {
    const box = MeshBuilder.CreateBox(`b${i}`, { size: 1 }, scene);
    box.position.set(
      (i % 10) * 1.6 - 8,
      2 + Math.floor(i / 100) * 1.6,
      (Math.floor(i / 10) % 10) * 1.6 - 8,
    );
    new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene);
  }
  return scene;
}

async function measure(mode: InterpolationMode) {
  const scene = await pile();
  const loop = new FixedLoop({ tickRate: TICK_RATE });
  const tracker = new TimedTracker(scene as unknown as SceneLike, loop, {
    autoTrack: true,
    defaultInterpolation: mode,
    render: false,
  });
  loop.addAdapter(tracker);
  // the loop's step pattern for 144 fps at 60 Hz (1 step every 2.4 frames)
  const stepsOf: number[] = [];
  let acc = 0;
  for (let f = 0; f < FPS; f++) {
    acc += 1 / FPS;
    const n = Math.floor((acc + 1e-9) * TICK_RATE);
    acc -= n / TICK_RATE;
    stepsOf.push(n);
  }
  const adapterFrame = (i: number) => {
    const f = i % FPS;
    tracker.beginFrame();
    if (stepsOf[f] > 0) {
      tracker.beforeSteps();
      tracker.afterStep();
    }
    tracker.interpolate(); // reads loop.alpha, as in a real frame
    tracker.render();
  };
  const perSecond: {
    havokMs: number;
    havokInFrameMs: number;
    adapterInFrameMs: number;
    adapterReplayMs: number;
    fraction: number;
  }[] = [];
  for (let s = 0; s < SECONDS; s++) {
    // one real simulated second: Havok's steps and the adapter's phases timed in the frames
    tracker.adapterMs = 0;
    tracker.havokMs = 0;
    tracker.stepMs.length = 0;
    for (let f = 0; f < FPS; f++) loop.advance(1 / FPS);
    const havokInFrameMs = tracker.havokMs;
    // the second's Havok cost: its steps' median times their number (load spikes, which hit one
    // step or another on a shared machine, do not count)
    const steps = [...tracker.stepMs].sort((a, b) => a - b);
    const havokMs = steps[Math.floor(steps.length / 2)] * steps.length;
    const adapterInFrameMs = tracker.adapterMs;
    // the adapter's 144 frames again on the same state, alone (no GC of Havok's garbage, no
    // cache lines evicted by Havok): the median of five replays, as Havok gets its median step
    const replays: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      for (let f = 0; f < FPS; f++) adapterFrame(f);
      replays.push(performance.now() - t);
    }
    const replay = replays.sort((a, b) => a - b)[2];
    perSecond.push({
      havokMs: round(havokMs),
      havokInFrameMs: round(havokInFrameMs),
      adapterInFrameMs: round(adapterInFrameMs),
      adapterReplayMs: round(replay),
      fraction: round(replay / havokMs, 4),
    });
  }
  const tracked = tracker.count;
  // the first second warms the JIT up (and tracks the bodies); the rest are the measurement
  const measured = perSecond.slice(1);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  tracker.timing = false;
  // Two windows, 2 880 and 14 400 frames: a fixed amount of heap growth (JIT, GC bookkeeping,
  // under 64 kB) shows in both, while what the frames allocate grows with their number. If the
  // short window stayed under 64 kB and five times the frames grew the heap no more, the frames
  // allocate nothing; otherwise report the larger per-frame figure (a scavenge during a window
  // can only hide allocation, never add it).
  const short = allocationPerCall(adapterFrame, 2880, 4320);
  const long = allocationPerCall(adapterFrame, 14400, 0);
  const fixedOnly = short.totalBytes <= 65536 && long.totalBytes <= short.totalBytes;
  const adapterAlloc = {
    bytesPerCall: fixedOnly ? 0 : round(Math.max(short.bytesPerCall, long.bytesPerCall), 1),
    short,
    long,
  };
  // for context: a whole frame, Havok included
  const wholeAlloc = allocationPerCall(() => loop.advance(1 / FPS), 288, 144);
  loop.dispose();
  scene.getEngine().dispose();
  return {
    trackedBodies: tracked,
    fraction: median(measured.map((r) => r.fraction)),
    adapterMsPerSimulatedSecond: median(measured.map((r) => r.adapterReplayMs)),
    havokMsPerSimulatedSecond: median(measured.map((r) => r.havokMs)),
    inFrameFraction: round(
      measured.reduce((a, r) => a + r.adapterInFrameMs, 0) /
        measured.reduce((a, r) => a + r.havokInFrameMs, 0),
      4,
    ),
    perSecond,
    adapterBytesPerFrame: adapterAlloc.bytesPerCall,
    adapterHeapGrowthBytes: {
      over2880Frames: adapterAlloc.short.totalBytes,
      over14400Frames: adapterAlloc.long.totalBytes,
    },
    wholeFrameBytesPerFrameIncludingHavok: Math.round(wholeAlloc.bytesPerCall),
  };
}

function round(x: number, digits = 3): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

export default async function babylon(): Promise<Record<string, unknown>> {
  const interpolate = await measure('interpolate');
  const extrapolate = await measure('extrapolate');
  return {
    bodies: BODIES,
    tickRate: TICK_RATE,
    fps: FPS,
    budgetFraction: 0.1,
    interpolate,
    withinBudget: interpolate.fraction <= 0.1 && interpolate.adapterBytesPerFrame === 0,
    extrapolate,
  };
}
