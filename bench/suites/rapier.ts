/**
 * `@fixedtick/three/rapier`'s own cost per body per frame at 1 000, 10 000, 20 000 and 50 000
 * bodies, next to the same tracker over plain three.js objects and to Rapier's own reads; 60 Hz
 * steps, 144 fps frames, real Rapier WASM, timed inside real frames.
 *
 * Scene (bench/rapier/worlds.ts, `fallingCloud`): boxes and spheres on a 3 m grid, each falling,
 * drifting and spinning, none touching another: every pose component of every body changes at
 * every step and no body sleeps (each round reports how many were awake), while Rapier's own
 * step stays affordable at 50 000 bodies. The binding does the same per body with or without
 * contacts.
 *
 * Measures, interleaved in one process frame by frame (a frame of the binding, the same frame of
 * the plain side, Rapier's reads for each step the binding's frame ran, the same frame of the
 * turning side), so that machine load hits them alike (bench/rapier/sides.ts):
 * - **binding** — `RapierPhysics` on a `ThreeFixedLoop`, a plain `Object3D` bound to each body.
 *   Its own cost: each whole `loop.advance(1 / 144)` minus the `world.step()`s inside it (the
 *   look-up for removed bodies, the reads of each body after each step, the tracker's write
 *   check, interpolation and mesh writes).
 * - **plain** — the comparison: a `ThreeFixedLoop` tracking as many plain `Object3D`s, no Rapier,
 *   which the user's step moves the way Rapier moves the bodies (falling, drifting, tumbling
 *   about an axis of their own, written with `position.set` / `quaternion.set`): the same
 *   frames, the same tracker, every pose component changing. Its own cost: each whole frame
 *   minus its step.
 * - **rapierReads** — Rapier's part of the binding's reads, alone: per step, per body,
 *   `isSleeping()`, `translation(target)`, `rotation(target)` on the binding's bodies (each
 *   number crosses from WASM into a JavaScript call, see below) — the floor for any code that
 *   reads Rapier's bodies.
 * - **plainTurning** — for context, the plain side with every object turning about the vertical
 *   instead of tumbling (a character turning): three's Euler angles then take no trigonometry,
 *   so a tracked object costs less than a tumbling one, Rapier or not.
 * Each is made robust to spikes the same way: per kind of frame (with or without a step) the
 * median frame × that kind's count; the reads' median pass × the passes. Per round, each in ns
 * per body per frame; `ratioToPlain` = binding / plain (budget 2), `withoutReadsToPlain` =
 * (binding − rapierReads) / plain, `ratioToPlainTurning` = binding / plainTurning; each as
 * min / median / max over the measured rounds. One round is one simulated second (144 frames,
 * 60 steps); the first is warm-up. Rounds measured: 5 at 1 000 and 10 000 bodies, 3 at 20 000
 * and 50 000 (where Rapier's step alone takes 70–160 ms). `worldStepGlueMsPerStep`: the
 * JavaScript part of `World.step` alone (see `glueMs`), where the heap churn of a Rapier scene
 * comes from.
 *
 * `flatness`, interleaved as well, in a process of its own: the binding at 1 000 and at 50 000
 * bodies (two worlds) and the plain side at both sizes, a frame of each in turn (the two sizes'
 * order swapped every frame), so that load hits both sizes alike; per round (5 measured after
 * one of warm-up), (ns per body per frame at 50 000) / (ns per body per frame at 1 000), as
 * min / median / max; `flat` when the binding's median is within 1.5. (The per-size table's
 * figures come from processes run one after another, so comparing them across sizes compares
 * different moments of the machine's load.)
 *
 * Timing and allocation run in child processes of their own, one per body count and measure.
 * Timing uses `npm run bench`'s flags, so V8 collects garbage as in an app (Rapier's step
 * leaves much of it). Allocation counts young-generation bytes (`allocationWithoutGc`: a window
 * in which a collection ran is measured again; `--min-semi-space-size=512` keeps Rapier's
 * megabytes per step in one young generation), after 2 016 frames for the loop's code to
 * settle. `bindingOwnBytesPerFrame`, the 0 B budget, is the binding over a stand-in world that
 * moves its bodies in plain JavaScript (so only the binding can allocate): windows of 1 440
 * frames at 1 000 bodies (a constant allocation per frame shows there), of 144 frames at the
 * other sizes (an allocation per body shows in any window). With real Rapier (at 1 000 and
 * 10 000 bodies) the frames allocate what Rapier allocates — its `World.step` (the glue above)
 * and its pose getters (each number a getter hands over crosses from WASM into a JS call that
 * writes Rapier's scratch buffer: V8 boxes it, 16 B) — reported as `rapier`, next to the
 * binding's frames and the hand-written step-and-copy loop's (bench/rapier/sides.ts): both
 * make the same pose reads; the binding also asks each body `isSleeping()` after each step (to
 * skip sleeping bodies), which the hand-written loop does not, so their difference is that
 * call's bytes and the binding's own (under 16 B per frame: one number's box, the windows'
 * noise). At 1 000 bodies that call allocates 16 B per body per step in the binding's frames
 * (7 kB a frame: the binding with the call taken out allocates what the hand-written loop does,
 * and the hand-written loop with it added allocates 14.6 kB a frame more), though alone in a
 * loop it allocates nothing: a number V8 boxes on the way into Rapier's WASM call in the
 * compiled frame code, not a value the binding stores.
 *
 * Run alone: `npm run bench -- rapier` (some 10 minutes on a 2-core machine); one part for one
 * body count: `node --expose-gc --max-semi-space-size=512 --import tsx bench/suites/rapier.ts
 * timing 1000` (or `allocation`, `bindingWithRapier`, `handWrittenWithRapier`, with `--min-semi-space-size=512` as
 * well); the flatness: `... bench/suites/rapier.ts flatness 0`.
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
  plainSide,
  RotationTarget,
  rapierReads,
  type Side,
  TICK_RATE,
  VectorTarget,
} from '../rapier/sides.ts';
import { fallingCloud, StandInWorld } from '../rapier/worlds.ts';

const FPS = 144;
/** Body counts, and the simulated seconds (rounds) at each: the first is warm-up. */
const SIZES: readonly { bodies: number; seconds: number }[] = [
  { bodies: 1_000, seconds: 6 },
  { bodies: 10_000, seconds: 6 },
  { bodies: 20_000, seconds: 4 },
  { bodies: 50_000, seconds: 4 },
];
/** Sizes at which the frames' bytes are also measured with real Rapier (two worlds step). */
const WITH_RAPIER_UP_TO = 10_000;

/** Runs one frame of `side`, records its own cost; returns the steps it ran. */
function frame(side: Side, costs: FrameCosts): number {
  side.timing.frameStepMs = 0;
  const t0 = performance.now();
  const steps = side.loop.advance(1 / FPS).steps;
  addFrameCost(costs, steps, performance.now() - t0 - side.timing.frameStepMs);
  return steps;
}

/** One simulated second of the three measures, interleaved frame by frame. */
function roundOf(binding: Side, plain: Side, turning: Side, reads: () => number, count: number) {
  const a: FrameCosts = new Map();
  const b: FrameCosts = new Map();
  const c: FrameCosts = new Map();
  const passes: number[] = [];
  binding.timing.stepMs = [];
  for (let f = 0; f < FPS; f++) {
    const steps = frame(binding, a);
    frame(plain, b);
    for (let s = 0; s < steps; s++) passes.push(reads());
    frame(turning, c);
  }
  const perBody = (ms: number) => (ms * 1e6) / FPS / count;
  const bindingNs = perBody(robustCost(a));
  const plainNs = perBody(robustCost(b));
  const turningNs = perBody(robustCost(c));
  const readsNs = perBody(median(passes) * passes.length);
  const stepMs = median(binding.timing.stepMs) * binding.timing.stepMs.length;
  return {
    bindingNs: round(bindingNs, 1),
    plainNs: round(plainNs, 1),
    rapierReadsNs: round(readsNs, 1),
    plainTurningNs: round(turningNs, 1),
    ratioToPlain: round(bindingNs / plainNs),
    ratioToPlainTurning: round(bindingNs / turningNs),
    withoutReadsToPlain: round((bindingNs - readsNs) / plainNs),
    fractionOfWorldStep: round(robustCost(a) / stepMs, 4),
    worldStepMs: round(stepMs / binding.timing.stepMs.length),
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

/**
 * Milliseconds of the JavaScript glue `World.step` runs after Rapier's WASM step, alone (the
 * median of 9 runs): `mapNewSoftBodies` wraps the bodies and colliders the engine created for
 * soft bodies and unwraps those it removed, walking every body and collider to find them (a
 * WASM-to-JS callback per body, an array of all wrappers, a `contains` call per wrapper).
 */
function glueMs(world: RAPIER.World): number {
  const glue = world as unknown as { mapNewSoftBodies(): void };
  const ms: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    glue.mapNewSoftBodies();
    ms.push(performance.now() - t0);
  }
  return round(median(ms));
}

/** The timed rounds of one body count: the three measures interleaved, the first round warm-up. */
async function timing(count: number) {
  await RAPIER.init();
  const seconds = (SIZES.find((size) => size.bodies === count) ?? SIZES[0]).seconds;
  const cloud = fallingCloud(count);
  const binding = bindingSide(cloud.world, cloud.bodies);
  const plain = plainSide(count);
  const turning = plainSide(count, 'turning');
  const reads = rapierReads(cloud.bodies);
  const rounds = Array.from({ length: seconds }, (_, second) => ({
    second,
    ...roundOf(binding, plain, turning, reads, count),
  }));
  const measured = rounds.slice(1);
  const of = (key: keyof (typeof measured)[number], digits: number) =>
    spread(
      measured.map((r) => r[key]),
      digits,
    );
  return {
    worldStepGlueMsPerStep: glueMs(cloud.world),
    nsPerBodyPerFrame: {
      binding: of('bindingNs', 1),
      plain: of('plainNs', 1),
      rapierReads: of('rapierReadsNs', 1),
      plainTurning: of('plainTurningNs', 1),
    },
    ratioToPlain: of('ratioToPlain', 3),
    ratioToPlainTurning: of('ratioToPlainTurning', 3),
    withoutReadsToPlain: of('withoutReadsToPlain', 3),
    fractionOfWorldStep: of('fractionOfWorldStep', 4),
    worldStepMsPerStep: round(median(measured.map((r) => r.worldStepMs))),
    measuredRounds: measured.length,
    rounds,
  };
}

/** Rounds of the flatness measure (simulated seconds): the first is warm-up. */
const FLATNESS_SECONDS = 6;

/**
 * Flatness, interleaved: the binding at the smallest and at the largest body count, and the
 * plain side at both, in one process, frame by frame in turn (the same frame of each, the two
 * sizes' order swapped every frame), so that machine load hits both sizes alike. Per round, for
 * each: (ns per body per frame at the largest) / (ns per body per frame at the smallest).
 */
async function flatness() {
  await RAPIER.init();
  const small = SIZES[0].bodies;
  const large = SIZES[SIZES.length - 1].bodies;
  const smallCloud = fallingCloud(small);
  const largeCloud = fallingCloud(large);
  const binding = [
    bindingSide(smallCloud.world, smallCloud.bodies),
    bindingSide(largeCloud.world, largeCloud.bodies),
  ];
  const plain = [plainSide(small), plainSide(large)];
  const rounds = [];
  for (let second = 0; second < FLATNESS_SECONDS; second++) {
    const costs: FrameCosts[] = [new Map(), new Map(), new Map(), new Map()];
    for (let f = 0; f < FPS; f++) {
      const early = f % 2;
      const late = 1 - early;
      frame(binding[early], costs[early]);
      frame(binding[late], costs[late]);
      frame(plain[early], costs[2 + early]);
      frame(plain[late], costs[2 + late]);
    }
    const ratio = (smallCosts: FrameCosts, largeCosts: FrameCosts) =>
      round(robustCost(largeCosts) / large / (robustCost(smallCosts) / small));
    rounds.push({ second, binding: ratio(costs[0], costs[1]), plain: ratio(costs[2], costs[3]) });
  }
  const measured = rounds.slice(1);
  return {
    binding: spread(
      measured.map((r) => r.binding),
      3,
    ),
    plain: spread(
      measured.map((r) => r.plain),
      3,
    ),
    measuredRounds: measured.length,
    rounds,
  };
}

/** The binding's own bytes per frame, over the stand-in world. */
async function allocation(count: number) {
  await RAPIER.init();
  const standIn = new StandInWorld(count);
  // The loop's own code allocates while it settles, some 60-70 kB a window of 144 frames over
  // its first 1 700 frames or so (the same at every body count; heap sampling puts it in core's
  // frame runner and clock): 2 016 frames first. At 1 000 bodies, windows of 1 440 frames and a
  // total within 4 kB counted as the measurement's bookkeeping: a constant allocation per frame
  // shows (3 B a frame and up). At the other sizes, windows of 144 frames and 16 kB: an
  // allocation per body shows (at 10 000 bodies, 1 B per body is 1.4 MB a window).
  const side = bindingSide(standIn, standIn.bodies);
  side.timing.on = false;
  for (let f = 0; f < 2016; f++) side.loop.advance(1 / FPS);
  const small = count === SIZES[0].bodies;
  const frames = small ? 1440 : 144;
  const bindingOwn = await bytesPerFrame(side, frames, small ? 4096 : 16_384);
  return {
    bindingOwnBytesPerFrame: bindingOwn.bytesPerFrame,
    bindingOwnFrames: frames,
    bindingOwnWindowsDiscardedForGc: bindingOwn.windowsDiscardedForGc,
  };
}

/**
 * The frames' bytes with real Rapier of one loop alone — `'binding'` or the hand-written
 * step-and-copy loop — in a process of its own, as in an app, where no other loop's calls shape
 * V8's code for Rapier's functions.
 */
async function withRapier(count: number, loop: 'binding' | 'handWritten') {
  await RAPIER.init();
  const { world, bodies } = fallingCloud(count);
  const side = loop === 'binding' ? bindingSide(world, bodies) : handWrittenSide(world, bodies);
  // as long a warm-up as the stand-in world's, for the loop's own code to settle
  side.timing.on = false;
  for (let f = 0; f < 2016; f++) side.loop.advance(1 / FPS);
  // 24 frames (10 steps): Rapier allocates megabytes per step at 10 000 bodies; the least of
  // three windows
  let window = await bytesPerFrame(side, 24, 0);
  for (let round = 0; round < 2; round++) window = least(window, await bytesPerFrame(side, 24, 0));
  return {
    bytesPerFrame: window.bytesPerFrame,
    awakeBodies: bodies.filter((body) => !body.isSleeping()).length,
    rapier: await rapierBytes(world, bodies),
  };
}

/** The binding's frames with real Rapier. */
async function bindingWithRapier(count: number) {
  return withRapier(count, 'binding');
}

/** The hand-written loop's frames with real Rapier. */
async function handWrittenWithRapier(count: number) {
  return withRapier(count, 'handWritten');
}

/** Both loops' bytes per frame with real Rapier, each in its own process, and their difference. */
function bytesWithRapier(count: number) {
  const binding = isolated('bindingWithRapier', count);
  const hand = isolated('handWrittenWithRapier', count);
  return {
    binding: binding.bytesPerFrame,
    handWritten: hand.bytesPerFrame,
    // the same pose reads in both loops: what is left is the binding's `isSleeping()` calls and
    // its own, with real bodies
    bindingMinusHandWritten:
      binding.bytesPerFrame === null || hand.bytesPerFrame === null
        ? null
        : round(binding.bytesPerFrame - hand.bytesPerFrame, 1),
    awakeBodies: binding.awakeBodies,
    rapier: hand.rapier,
  };
}

const MEASURES = { timing, allocation, bindingWithRapier, handWrittenWithRapier, flatness };
type MeasureName = keyof typeof MEASURES;

/**
 * `what` for one body count in a fresh Node process. Timing runs with `npm run bench`'s flags,
 * so V8 collects garbage as it would in an app (Rapier's step leaves much of it); allocation
 * runs with a 512 MB young generation from the start, so that its windows see no collection.
 */
function isolated<K extends MeasureName>(
  what: K,
  count: number,
): Awaited<ReturnType<(typeof MEASURES)[K]>> {
  return inChildProcess(
    fileURLToPath(import.meta.url),
    what,
    count,
    what === 'timing' || what === 'flatness' ? 'collected' : 'kept',
  ) as Awaited<ReturnType<(typeof MEASURES)[K]>>;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, count] = process.argv.slice(2) as [MeasureName, string];
  process.stdout.write(JSON.stringify(await MEASURES[what](Number(count))));
}

export default function rapier(): Record<string, unknown> {
  const results = SIZES.map(({ bodies }) => ({
    bodies,
    ...isolated('timing', bodies),
    ...isolated('allocation', bodies),
    bytesPerFrameWithRapier: bodies <= WITH_RAPIER_UP_TO ? bytesWithRapier(bodies) : null,
  }));
  const flat = isolated('flatness', 0);
  const ratio = Math.max(...results.map((r) => r.ratioToPlain.median));
  const bytes = results.map((r) => r.bindingOwnBytesPerFrame);
  // with real bodies, reported beside the budget, not in it: the binding's frames also make the
  // isSleeping() calls the hand-written loop does not (see the doc above)
  const extra = results
    .filter((r) => r.bytesPerFrameWithRapier !== null)
    .map((r) => r.bytesPerFrameWithRapier?.bindingMinusHandWritten ?? null);
  return {
    scenario: `falling cloud of boxes and spheres, ${TICK_RATE} Hz steps, ${FPS} fps frames, real Rapier WASM`,
    budget: { flatness: 1.5, ratioToPlain: 2, bindingOwnBytesPerFrame: 0 },
    // interleaved: (ns per body per frame at 50 000) / (at 1 000), per round
    flatness: { ...flat, flat: flat.binding.median <= 1.5 },
    ratioToPlain: ratio,
    bindingOwnBytesPerFrame: bytes,
    bindingMinusHandWrittenBytesPerFrame: extra,
    withinBudget: flat.binding.median <= 1.5 && ratio <= 2 && bytes.every((b) => b === 0),
    results,
  };
}
