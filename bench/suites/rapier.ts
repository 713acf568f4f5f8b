/**
 * `@fixedtick/three/rapier`'s cost next to Rapier's own step, for 1 000 and 5 000 bodies (boxes
 * and spheres), 60 Hz steps, 144 fps frames, real Rapier WASM, timed inside real frames.
 *
 * Scene (bench/rapier/worlds.ts, the same in every world): a tumbling pile — over the measured
 * window (simulated seconds 1–5) its lower layers land and tumble while the upper ones still
 * fall onto them; each round reports how many bodies were awake (read and drawn).
 *
 * Two worlds built alike (bench/rapier/sides.ts):
 * - **binding** — `RapierPhysics` on a `ThreeFixedLoop`, a plain `Object3D` bound to each body.
 * - **hand-written** — `world.step()` in `onFixedUpdate`, then per body `prev = curr`,
 *   `curr = translation(target)` / `rotation(target)`; per frame lerp + `slerpQuaternions`.
 *
 * Timed: each whole `loop.advance(1 / 144)` and, inside it, each `world.step()`. A side's own
 * cost is its frames' time minus its steps' (the binding: teleport check, restore, body reads,
 * interpolation, mesh writes; the hand-written loop: its copies and lerps). The sides run
 * interleaved frame by frame (a frame of one, then the same frame of the other), so machine
 * load hits both alike, and each side is made robust to spikes the same way: per kind of frame
 * (with or without a step) the median frame × that kind's count; the world's share is the
 * median step × 60. One round is one simulated second; per round `fraction` = binding /
 * world.step (budget ≤ 0.10) and `ratio` = binding / hand-written, reported as min / median /
 * max over the measured rounds.
 *
 * Timing and allocation run in child processes of their own. Timing uses `npm run bench`'s
 * flags, so V8 collects garbage as in an app: a young generation kept 512 MB from the start
 * (no collection at all) makes both sides slower, the binding more (measured 220-270 against
 * 196 us per frame at 1 000 bodies: Rapier's garbage then spreads over fresh memory).
 * Allocation (young-generation bytes, `allocationWithoutGc`: a window in which a collection ran
 * is measured again; `--min-semi-space-size=512` keeps Rapier's megabytes per step in one young
 * generation): `bindingOwn` is the binding over a stand-in world that moves its bodies in
 * plain JavaScript (so only the binding can allocate): the 0 B budget. With real Rapier the
 * frames allocate what Rapier allocates — its `World.step` (its JS glue re-wraps bodies and
 * colliders after every step) and its pose getters (each number a getter hands over crosses
 * from WASM into a JS call that writes Rapier's scratch buffer: V8 boxes it, 16 B) — reported
 * as `rapier`, next to both sides' whole frames; both sides make the same Rapier calls, so their
 * difference is the binding's own with real bodies (under 16 B per frame: one number's box,
 * the windows' noise).
 *
 * Run alone: `npm run bench -- rapier`; one part for one body count: `node --expose-gc
 * --max-semi-space-size=512 --import tsx bench/suites/rapier.ts timing 1000` (or `allocation`,
 * with `--min-semi-space-size=512` as well).
 */
import { fileURLToPath } from 'node:url';
import RAPIER from '@dimforge/rapier3d-compat';
import {
  addFrameCost,
  allocationWithoutGc,
  type FrameCosts,
  inChildProcess,
  median,
  robustCost,
  round,
  spread,
} from '../lib.ts';
import {
  bindingSide,
  handWrittenSide,
  RotationTarget,
  type Side,
  TICK_RATE,
  VectorTarget,
} from '../rapier/sides.ts';
import { StandInWorld, tumblingPile } from '../rapier/worlds.ts';

const FPS = 144;
/** Simulated seconds (rounds); the first is warm-up, the rest are measured. */
const SECONDS = 6;

function frame(side: Side, costs: FrameCosts): void {
  side.timing.frameStepMs = 0;
  const t0 = performance.now();
  const steps = side.loop.advance(1 / FPS).steps;
  addFrameCost(costs, steps, performance.now() - t0 - side.timing.frameStepMs);
}

/** One simulated second of both sides, interleaved frame by frame. */
function roundOf(binding: Side, hand: Side) {
  const a: FrameCosts = new Map();
  const b: FrameCosts = new Map();
  binding.timing.stepMs = [];
  hand.timing.stepMs = [];
  for (let f = 0; f < FPS; f++) {
    frame(binding, a);
    frame(hand, b);
  }
  const bindingMs = robustCost(a);
  const handMs = robustCost(b);
  const stepMs = median(binding.timing.stepMs) * binding.timing.stepMs.length;
  return {
    fraction: round(bindingMs / stepMs, 4),
    ratio: round(bindingMs / handMs, 3),
    bindingMs: round(bindingMs),
    handWrittenMs: round(handMs),
    worldStepMs: round(stepMs),
    awakeBodies: binding.bodies.filter((body) => !body.isSleeping()).length,
  };
}

/**
 * Young-generation bytes per frame of `side`'s untimed frames (`allocationWithoutGc`: windows in
 * which a collection ran are measured again; `null` if none stayed clean). `noiseBytes`: a
 * window's total at or below it is the measurement's own bookkeeping and counts as 0.
 */
async function bytesPerFrame(side: Side, frames: number, noiseBytes: number) {
  side.timing.on = false;
  const advance = () => {
    side.loop.advance(1 / FPS);
  };
  const window = await allocationWithoutGc(advance, frames, noiseBytes === 0 ? 1 : 3, noiseBytes);
  side.timing.on = true;
  return {
    bytesPerFrame: Number.isNaN(window.totalBytes) ? null : round(window.bytesPerCall, 1),
    windowsDiscardedForGc: window.discarded,
  };
}

type Window = Awaited<ReturnType<typeof bytesPerFrame>>;

/** The window with fewer bytes per frame (a measured one over one that was not). */
function least(a: Window, b: Window): Window {
  if (a.bytesPerFrame === null) return b;
  if (b.bytesPerFrame === null) return a;
  return b.bytesPerFrame < a.bytesPerFrame ? b : a;
}

/** What Rapier's step and pose getters allocate (young-generation bytes), on `world`. */
async function rapierBytes(world: RAPIER.World, bodies: RAPIER.RigidBody[]) {
  const step = await allocationWithoutGc(() => world.step(), 8, 1, 0);
  const v = new VectorTarget();
  const q = new RotationTarget();
  const reads = await allocationWithoutGc(
    (i) => {
      const body = bodies[i % bodies.length];
      body.translation(v);
      body.rotation(q);
    },
    50_000,
    1,
    0,
  );
  const clean = (bytes: number, digits: number) =>
    Number.isNaN(bytes) ? null : round(bytes, digits);
  return {
    worldStepBytesPerStep: clean(step.bytesPerCall, 0),
    poseReadBytes: clean(reads.bytesPerCall, 1),
    poseReadNote:
      'translation(target) + rotation(target) of a moving body: 7 numbers, each boxed (16 B) by V8 as Rapier’s WASM hands it to the JS call that writes its scratch buffer',
  };
}

/** The timed rounds: both sides interleaved, seconds 1–5 measured. */
async function timing(count: number) {
  await RAPIER.init();
  const a = tumblingPile(count);
  const b = tumblingPile(count);
  const binding = bindingSide(a.world, a.bodies);
  const hand = handWrittenSide(b.world, b.bodies);
  const rounds = Array.from({ length: SECONDS }, (_, second) => ({
    second,
    ...roundOf(binding, hand),
  }));
  const measured = rounds.slice(1);
  // the two worlds are the same simulation, bit for bit, and both sides draw the same picture
  const sameWorld = a.bodies.every((body, i) => {
    const ta = body.translation();
    const tb = b.bodies[i].translation();
    return ta.x === tb.x && ta.y === tb.y && ta.z === tb.z;
  });
  let maxMeshDifference = 0;
  for (let i = 0; i < count; i += 37) {
    const d = binding.meshes[i].position.distanceTo(hand.meshes[i].position);
    maxMeshDifference = Math.max(maxMeshDifference, d);
  }
  return {
    fraction: spread(
      measured.map((r) => r.fraction),
      4,
    ),
    ratioToHandWritten: spread(
      measured.map((r) => r.ratio),
      3,
    ),
    bindingUsPerFrame: round((median(measured.map((r) => r.bindingMs)) * 1000) / FPS, 1),
    worldStepMsPerStep: round(median(measured.map((r) => r.worldStepMs)) / TICK_RATE, 3),
    rounds,
    sameSimulationBothSides: sameWorld,
    maxMeshDifferenceBetweenSides: maxMeshDifference,
  };
}

/** The allocation figures: the binding alone (stand-in world), then both sides on Rapier. */
async function allocation(count: number) {
  await RAPIER.init();
  const standIn = new StandInWorld(count);
  // 1 440 frames (10 s); a total within 4 kB is the measurement's bookkeeping
  const bindingOwn = await bytesPerFrame(bindingSide(standIn, standIn.bodies), 1440, 4096);
  const a = tumblingPile(count);
  const b = tumblingPile(count);
  const binding = bindingSide(a.world, a.bodies);
  const hand = handWrittenSide(b.world, b.bodies);
  for (let f = 0; f < FPS; f++) {
    binding.loop.advance(1 / FPS);
    hand.loop.advance(1 / FPS);
  }
  // 24 frames (10 steps): Rapier allocates megabytes per step at 5 000 bodies. The sides share
  // Rapier's functions, whose JIT state moves on between windows (a window of the side measured
  // first could see Rapier's glue not yet optimised): three windows each, alternating, the least
  // of each side kept.
  let withBinding = await bytesPerFrame(binding, 24, 0);
  let withHand = await bytesPerFrame(hand, 24, 0);
  for (let round = 0; round < 2; round++) {
    withBinding = least(withBinding, await bytesPerFrame(binding, 24, 0));
    withHand = least(withHand, await bytesPerFrame(hand, 24, 0));
  }
  return {
    bindingOwnBytesPerFrame: bindingOwn.bytesPerFrame,
    bindingOwnWindowsDiscardedForGc: bindingOwn.windowsDiscardedForGc,
    bytesPerFrameWithRapier: {
      binding: withBinding.bytesPerFrame,
      handWritten: withHand.bytesPerFrame,
      // the same Rapier calls on both sides: what is left is the binding's, with real bodies
      bindingMinusHandWritten:
        withBinding.bytesPerFrame === null || withHand.bytesPerFrame === null
          ? null
          : round(withBinding.bytesPerFrame - withHand.bytesPerFrame, 1),
      awakeBodies: a.bodies.filter((body) => !body.isSleeping()).length,
      rapier: await rapierBytes(b.world, b.bodies),
    },
  };
}

const MEASURES = { timing, allocation };
type MeasureName = keyof typeof MEASURES;

/** `what` for one body count in a fresh Node process (`inChildProcess`). */
function isolated<K extends MeasureName>(
  what: K,
  count: number,
): Awaited<ReturnType<(typeof MEASURES)[K]>> {
  return inChildProcess(fileURLToPath(import.meta.url), what, count) as Awaited<
    ReturnType<(typeof MEASURES)[K]>
  >;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, count] = process.argv.slice(2) as [MeasureName, string];
  process.stdout.write(JSON.stringify(await MEASURES[what](Number(count))));
}

export default function rapier(): Record<string, unknown> {
  const results = [1000, 5000].map((bodies) => ({
    bodies,
    ...isolated('timing', bodies),
    ...isolated('allocation', bodies),
  }));
  const fraction = Math.max(...results.map((r) => r.fraction.median));
  const bytes = results.map((r) => r.bindingOwnBytesPerFrame);
  // with real bodies, less than one 16 B number per frame between the sides is the windows' noise
  const extra = results.map((r) => r.bytesPerFrameWithRapier.bindingMinusHandWritten);
  return {
    scenario: `tumbling pile of boxes and spheres, ${TICK_RATE} Hz steps, ${FPS} fps frames, real Rapier WASM`,
    budgetFraction: 0.1,
    fraction,
    bindingOwnBytesPerFrame: bytes,
    bindingMinusHandWrittenBytesPerFrame: extra,
    withinBudget:
      fraction <= 0.1 && bytes.every((b) => b === 0) && extra.every((b) => b !== null && b < 16),
    results,
  };
}
