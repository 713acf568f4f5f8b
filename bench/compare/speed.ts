/**
 * Speed scenarios: Fixedtick against each contender doing the same work, timed interleaved
 * (`compare` from bench/lib.ts: A, B, A, B, … rounds, medians). Ratio = Fixedtick's time / the
 * contender's time; ≤ 1.0 means Fixedtick is as fast or faster.
 *
 * Each pair runs in a fresh child process (speed-worker.ts), started by the same
 * `npm run bench:compare`: how fast a JavaScript function runs depends on what V8 saw before
 * (type feedback, inlining, deoptimisations), and a pair measured after other contenders' code
 * had run in the same process came out up to 8× apart from the same pair measured fresh.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Tracker } from '../../packages/core/src/entries/tracking.ts';
import { compare } from '../lib.ts';
import { type BodyRig, bodyRig } from './bodies.ts';
import { CONTENDERS, type ContenderId, type LoopSpec } from './contenders.ts';
import { type Driven, start } from './drive.ts';
import { fixedtickHavokRig, lockstepRig } from './havok.ts';
import { type Cell, na, type Row } from './report-types.ts';

function fmtNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/** A speed cell: the contender's time per frame and Fixedtick's ratio against it. */
function speedCell(r: { aNs: number; bNs: number; ratio: number }, note?: string): Cell {
  return {
    value: `${fmtNs(r.bNs)}/frame (Fixedtick ${fmtNs(r.aNs)}; ratio ${r.ratio.toFixed(2)})`,
    raw: {
      fixedtickNs: r.aNs,
      contenderNs: r.bNs,
      ratio: Number(r.ratio.toFixed(3)),
    },
    note,
  };
}

/** The measured ratios of a row, by contender. */
function ratiosOf(cells: Row['cells']): [string, number][] {
  const out: [string, number][] = [];
  for (const [id, c] of Object.entries(cells)) {
    const ratio = (c?.raw as { ratio?: number } | undefined)?.ratio;
    if (id !== 'fixedtick' && ratio !== undefined) out.push([id, ratio]);
  }
  return out;
}

function fixedtickSummary(cells: Row['cells']): Cell {
  const ratios = ratiosOf(cells).map(([id, ratio]) => `${id} ${ratio.toFixed(2)}`);
  return {
    value: ratios.length > 0 ? `ratios: ${ratios.join(', ')}` : 'n/a',
    note: 'ratio = Fixedtick time / contender time',
  };
}

function allAtMostOne(cells: Row['cells']): boolean {
  return ratiosOf(cells).every(([, ratio]) => ratio <= 1);
}

/** A frame function over a driven contender: 144 fps timestamps forever. */
function frames(d: Driven): () => void {
  let k = 0;
  return () => {
    k++;
    d.at((k * 1000) / 144);
  };
}

/** Per-frame loop overhead of Fixedtick against contender `id` (one pair). */
export function overheadPair(id: ContenderId): Cell {
  // Listeners write into a typed array, so they allocate nothing and cost the same everywhere.
  const sink = new Float64Array(1);
  const spec = (): LoopSpec => ({
    hz: 60,
    step: (dt) => {
      sink[0] += dt;
    },
    render: (alpha) => {
      sink[0] -= alpha;
    },
  });
  const ft = start('fixedtick', spec());
  const other = start(id, spec());
  try {
    const ftFrame = frames(ft);
    const otherFrame = frames(other);
    // Long warm-up of both, so neither is measured while V8 is still tiering it up.
    for (let i = 0; i < 50_000; i++) {
      ftFrame();
      otherFrame();
    }
    const r = compare(ftFrame, otherFrame, 5_000, 21);
    return speedCell(
      r,
      id === 'cannon' ? 'world.step on an empty world (its loop cannot run without it)' : undefined,
    );
  } finally {
    other.dispose();
    ft.dispose();
  }
}

/** Per-frame loop overhead: 60 Hz steps at 144 fps, a trivial step and render. */
export function overhead(): Row {
  const cells: Row['cells'] = {};
  for (const { id } of CONTENDERS) {
    if (id === 'fixedtick') continue;
    cells[id] =
      id === 'babylon'
        ? na('its loop is scene.render(): measured in the Havok row')
        : inChild('overhead', id);
  }
  cells.fixedtick = fixedtickSummary(cells);
  return {
    id: 'speed-overhead',
    title: 'Speed: per-frame loop overhead',
    how: '60 Hz steps, 144 fps frames from requestAnimationFrame, a one-line step and render; time per frame, Fixedtick (FixedLoop on its rAF driver) and the contender interleaved after 50 000 warm-up frames each, 21 rounds of 5 000 frames, medians; each pair in a fresh process.',
    expected: 'ratio ≤ 1.0 against every contender doing the same work',
    fixedtickCorrect: allAtMostOne(cells),
    cells,
  };
}

/** Per-frame time of the three adapter's phases, measured by timing its tracker's methods. */
export interface PhaseBreakdown {
  framesTimed: number;
  fixedtickMsPerFrame: number;
  handMsPerFrame: number;
  /** ms per frame spent in each core `Tracker` method (restore = beforeSteps). */
  phases: Record<string, number>;
}

/**
 * Times the three adapter's phases over `frames` frames of `ft`, and the hand-written rig over as
 * many, by wrapping the methods of the core tracker the adapter runs for the duration.
 */
async function phases(
  ft: BodyRig,
  hand: BodyRig,
  frames: number,
): Promise<PhaseBreakdown | string> {
  const proto = Tracker.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names = ['beginFrame', 'beforeSteps', 'afterStep', 'interpolate'].filter(
    (n) => typeof proto[n] === 'function',
  );
  const spent: Record<string, number> = {};
  const originals = names.map((n) => proto[n]);
  names.forEach((n, i) => {
    const original = originals[i];
    spent[n] = 0;
    proto[n] = function timed(this: unknown, ...args: unknown[]) {
      const t0 = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        spent[n] += Number(process.hrtime.bigint() - t0);
      }
    };
  });
  try {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < frames; i++) ft.frame();
    const ftNs = Number(process.hrtime.bigint() - t0);
    t0 = process.hrtime.bigint();
    for (let i = 0; i < frames; i++) hand.frame();
    const handNs = Number(process.hrtime.bigint() - t0);
    const perFrame = (ns: number) => Number((ns / frames / 1e6).toFixed(3));
    return {
      framesTimed: frames,
      fixedtickMsPerFrame: perFrame(ftNs),
      handMsPerFrame: perFrame(handNs),
      phases: Object.fromEntries(names.map((n) => [n, perFrame(spent[n])])),
    };
  } finally {
    names.forEach((n, i) => {
      proto[n] = originals[i];
    });
  }
}

/** Interpolating 10 000 bodies, Fixedtick against contender `id` (one pair). */
export async function interpolationPair(id: ContenderId): Promise<Cell> {
  const N = 10_000;
  const ft = await bodyRig('fixedtick', N);
  if (typeof ft === 'string') return na(ft);
  const other = (await bodyRig(id, N)) as BodyRig;
  try {
    const r = compare(
      () => ft.frame(),
      () => other.frame(),
      72,
      21,
    );
    const cell = speedCell(r);
    if (id === 'three') {
      const breakdown = await phases(ft, other, 144);
      cell.raw = { ...(cell.raw as object), breakdown };
    }
    return cell;
  } finally {
    other.dispose();
    ft.dispose();
  }
}

/** Interpolating 10 000 bodies: the whole frame of each body rig. */
export function interpolation(): Row {
  const cells: Row['cells'] = {};
  for (const { id } of CONTENDERS) {
    if (id === 'fixedtick') continue;
    if (id === 'babylon') cells[id] = na('does not interpolate (see the Havok row)');
    else if (id === 'cannon') {
      cells[id] = na(
        'interpolation only inside world.step, together with its physics of the same bodies: not the same work',
      );
    } else cells[id] = inChild('interpolation', id);
  }
  const breakdown = (cells.three?.raw as { breakdown?: PhaseBreakdown | string } | undefined)
    ?.breakdown;
  const fixedtick = ratiosOf(cells).length > 0 ? fixedtickSummary(cells) : cells.mainloop;
  if (fixedtick !== undefined) cells.fixedtick = fixedtick;
  if (breakdown !== undefined && cells.fixedtick) {
    const summary = cells.fixedtick;
    summary.note =
      typeof breakdown === 'string'
        ? `${summary.note}; phase breakdown: ${breakdown}`
        : `${summary.note}; phases (ms/frame, 144 frames): ${Object.entries(breakdown.phases)
            .map(([k, v]) => `${k} ${v}`)
            .join(
              ', ',
            )}; whole frame ${breakdown.fixedtickMsPerFrame} against the three.js hand-written loop's ${breakdown.handMsPerFrame}`;
  }
  return interpolationRow(cells);
}

function interpolationRow(cells: Row['cells']): Row {
  return {
    id: 'speed-interpolation',
    title: 'Speed: 10 000 interpolated bodies',
    how: '60 Hz steps, 144 fps; each step moves and turns 10 000 three.js Object3D, each frame renders them interpolated (the body rigs of the allocation row); time per frame, interleaved, 21 rounds of 72 frames (30 steps each), medians; each pair in a fresh process.',
    expected: 'ratio ≤ 1.0 against every contender doing the same work',
    fixedtickCorrect: allAtMostOne(cells),
    cells,
  };
}

/** 1 000 Havok bodies: BabylonFixedLoop against deterministicLockstep (one pair). */
export async function havokPair(): Promise<Cell> {
  const ft = await fixedtickHavokRig(1000);
  if (typeof ft === 'string') return na(ft);
  const bl = await lockstepRig(1000);
  try {
    let ftSteps = 0;
    let blSteps = 0;
    let ftFrames = 0;
    let blFrames = 0;
    const r = compare(
      () => {
        ft.frame();
        ftSteps += ft.lastSteps;
        ftFrames++;
      },
      () => {
        bl.frame();
        blSteps += bl.lastSteps;
        blFrames++;
      },
      144,
      11,
    );
    const cell = speedCell(
      r,
      `lockstep does not interpolate: between steps every frame shows the same poses (stutter at 144 fps); Fixedtick interpolates all 1 000. Havok steps run: Fixedtick ${ftSteps} in ${ftFrames} frames, lockstep ${blSteps} in ${blFrames} frames`,
    );
    cell.raw = { ...(cell.raw as object), ftSteps, ftFrames, blSteps, blFrames };
    return cell;
  } finally {
    bl.dispose();
    ft.dispose();
  }
}

/** 1 000 Havok bodies: BabylonFixedLoop against deterministicLockstep. */
export function havok(): Row {
  const cells: Row['cells'] = {};
  for (const { id } of CONTENDERS) {
    if (id !== 'fixedtick' && id !== 'babylon') cells[id] = na('no Havok');
  }
  cells.babylon = inChild('havok', 'babylon');
  cells.fixedtick = ratiosOf(cells).length > 0 ? fixedtickSummary(cells) : cells.babylon;
  return {
    id: 'speed-havok',
    title: 'Speed: 1 000 Havok bodies, 60 Hz steps, 144 fps',
    how: 'NullEngine, 1 000 falling spheres on a ground; whole frame (steps + scene.render()); BabylonFixedLoop (steps + interpolation) against deterministicLockstep (steps, no interpolation), interleaved, 11 rounds of 144 frames, medians; in a fresh process.',
    expected: 'the cost of interpolating on top of the same Havok steps (lockstep does less work)',
    cells,
  };
}

/** Which pair a worker runs. */
export type PairKind = 'overhead' | 'interpolation' | 'havok';

/** Runs one pair in this process (the worker's entry). */
export async function runPair(kind: PairKind, id: ContenderId): Promise<Cell> {
  if (kind === 'overhead') return overheadPair(id);
  if (kind === 'interpolation') return interpolationPair(id);
  return havokPair();
}

/** Runs one pair in a fresh Node process with this process's flags; its cell, or why it failed. */
function inChild(kind: PairKind, id: ContenderId): Cell {
  const worker = fileURLToPath(new URL('./speed-worker.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...process.execArgv, worker, kind, id], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) {
    return na(`the ${kind} worker for ${id} failed (exit ${result.status ?? result.signal})`);
  }
  return JSON.parse(result.stdout) as Cell;
}

/** Every speed row. */
export function speedRows(): Row[] {
  return [overhead(), interpolation(), havok()];
}

export type { ContenderId };
