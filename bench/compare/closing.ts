/**
 * The closing notes of the report: for each speed row, which contenders Fixedtick is slower
 * than in this run (from the measured ratios), why, and what it would take. The explanations
 * are written from profiling the code paths involved (see the issue report); the measured part
 * is inserted per run.
 */
import { CONTENDERS } from './contenders.ts';
import type { Row } from './report-types.ts';

const WHY: Record<string, string> = {
  'speed-overhead':
    'These rows time a frame that does almost nothing, so they measure the loops themselves, and ' +
    'Fixedtick’s does more: it sanitises the frame time (NaN, negative, backwards timestamps), ' +
    'applies capture mode, the time scale and pause, then the clamp on the scaled delta, keeps the ' +
    '12-frame step history Godot’s jitter fix needs (also while the fix is off), applies the step ' +
    'cap, keeps `time`/`unscaledTime`/`stats`/`FrameInfo`, guards against re-entrant frames with ' +
    'try/finally, and calls listeners through hook lists that isolate errors and honour ' +
    'priorities and mid-dispatch unsubscription. A hand-written accumulator (or @thi.ng/timestep) ' +
    'is one clamp, one subtraction loop and two direct calls. Measured directly (no rAF, ' +
    '`advance(1/144)`, two listeners) Fixedtick’s frame costs about 40–170 ns against 12–40 ns ' +
    'for the bare loop on this machine (the spread is the machine’s load); replacing the hook ' +
    'dispatch with direct calls recovers only 15–30 % of it, so no single hot spot explains the ' +
    'gap — it is the sum of the guarantees. Either way it is well under a microsecond per frame, ' +
    'under 0.01 % of a 144 fps frame. One part was the driver, not the loop: `rafDriver` read ' +
    '`host.document?.hidden` on every frame; it now reads the visibility its listener keeps, ' +
    'which measured 15–20 % faster per frame, as fast as calling `loop.frame(t)` from one’s ' +
    'own rAF callback. What it would take to reach ratio 1.0: a separate ' +
    '“unchecked” frame path that skips sanitising, stats and error isolation — the guarantees the ' +
    'spec asks for — so this is left as a documented cost, not a bug. cannon-es’s loop cannot ' +
    'run without stepping its (here empty) world, so its cell compares more work than a loop.',
  'speed-interpolation':
    'The three.js adapter does more per body and frame than the hand-written equivalent: a fused ' +
    'interpolation pass (capture of the last step, teleport check, lerp/slerp/lerp of position, ' +
    'rotation and scale, write-back with the Euler angles three keeps in sync) and, in frames ' +
    'that run steps, a restore pass that writes every simulation pose back into the objects so ' +
    'that gameplay reads simulation state (the adapter rule). On top, gameplay that writes a ' +
    'tracked object’s quaternion pays three’s Euler synchronisation on every write, which the ' +
    'hand-written state (plain `Quaternion`s outside the scene graph) does not. The per-phase ' +
    'times measured in this run are in the Fixedtick cell’s note below. What the hand-written ' +
    'loops give up for their speed: they smear teleports (see the teleport row), interpolate no ' +
    'scale, and keep two copies of every pose in user code. Bodies at rest are already skipped ' +
    'by the restore, the lerp and the write (docs/performance.md, "The tracker"); what a moving ' +
    'body costs on top of the hand-written loop is the compare with what the adapter last wrote, ' +
    'the restore and the read after each step — the price of gameplay reading and moving the real ' +
    '`Object3D` and of writes outside the step being teleports. Reaching ratio 1.0 would take a ' +
    'way for gameplay to write simulation poses straight into the typed arrays instead of through ' +
    '`Object3D`, which avoids the restore, the read and three’s Euler callback.',
  'speed-havok':
    'Babylon’s lockstep does not interpolate: between two Havok steps every frame shows the same ' +
    'poses, which is the stutter Fixedtick exists to remove. Fixedtick runs the same 60 Hz Havok ' +
    'steps plus restore, capture and interpolation of 1 000 bodies every frame, and its meshes ' +
    'move on every frame rather than only on frames with a step, so `scene.render()` has more to ' +
    'update. A ratio above 1.0 here is the price of smooth motion, not the same work.',
};

const ALLOCATION =
  'Nothing Fixedtick allocates grows with the number of bodies: an object, array or boxed number ' +
  'per body would be at least 16 B per body, 16 kB per frame here. What remains is tens to a few ' +
  'hundred bytes per frame, the same order as the contenders, and it varies from run to run with ' +
  'what V8 has optimised: a fractional number (the rAF timestamp, alpha, delta) passed to a ' +
  'function V8 did not inline is boxed as a 16-byte heap number, which no JavaScript loop that ' +
  'calls user callbacks avoids entirely (the core boxes each value once per change and hands the ' +
  'same box to every listener). The harness is part of it: its frame function passes the fake ' +
  'display a fractional timestamp, and the display passes one to each rAF callback. To see where ' +
  'the bytes of a run come from, run the scenario under V8’s sampling heap profiler ' +
  '(`HeapProfiler.startSampling`, collected objects included): in the run of 1 December on an ' +
  'AMD EPYC host, 15.5 of Fixedtick’s 16 B per frame were allocated in the harness’s frame ' +
  'function (bench/compare/bodies.ts) and 0.4 B in the adapter’s rotation write; the code before ' +
  'that day’s changes measured the same 15 B on that host and 0 B on the Intel host of the run ' +
  'before. The adapter’s own frame path is measured without the harness by `npm run bench -- ' +
  'three`: 0 B per frame at 10 000 bodies.';

/** One note per speed row, and one for the allocation row. */
export function closingNotes(
  behaviour: readonly Row[],
  speed: readonly Row[],
): Record<string, string> {
  const notes: Record<string, string> = {};
  const alloc = behaviour.find((row) => row.id === 'alloc-1000');
  if (alloc) {
    const raw = alloc.cells.fixedtick?.raw as { bytesPerCall?: number } | undefined;
    const measured =
      raw?.bytesPerCall === undefined
        ? 'Fixedtick’s three adapter was not measured in this run.'
        : `In this run Fixedtick allocated ${Math.round(raw.bytesPerCall)} B per frame, ${(raw.bytesPerCall / 1000).toFixed(2)} B per body.`;
    notes[alloc.id] =
      raw?.bytesPerCall === 0
        ? `${measured} Nothing on its frame path allocates: the loop hands its numbers to listeners directly, adapters read alpha from the loop, and poses live in typed arrays. Each contender is measured in a fresh process: in one shared process, what V8 had compiled for an earlier contender made later ones box the numbers they pass around (a 12–16 B heap number per call V8 does not inline).`
        : `${measured} ${ALLOCATION}`;
  }
  for (const row of speed) {
    const slower = CONTENDERS.filter((c) => {
      const raw = row.cells[c.id]?.raw as { ratio?: number } | undefined;
      return c.id !== 'fixedtick' && raw?.ratio !== undefined && raw.ratio > 1;
    }).map((c) => {
      const raw = row.cells[c.id]?.raw as { ratio: number };
      return `${c.name} (ratio ${raw.ratio.toFixed(2)})`;
    });
    const measured =
      slower.length === 0
        ? 'In this run Fixedtick was as fast or faster than every contender measured here.'
        : `In this run Fixedtick was slower than: ${slower.join(', ')}.`;
    notes[row.id] = `${measured} ${WHY[row.id] ?? ''}`.trim();
  }
  return notes;
}
