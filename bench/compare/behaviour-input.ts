/**
 * Input scenario: a key pressed just before a frame that runs 0 fixed steps (and, for contrast,
 * before one that runs 2). Fixedtick uses its `InputLatch`; the alternatives have no input latch,
 * so the gameplay uses the per-frame pattern their users write: the keydown handler sets a
 * `justPressed` flag, the per-step code reads it, and the flag is cleared when the frame ends.
 */
import type { FixedLoop } from '../../packages/core/src/index.ts';
import { CONTENDERS, type ContenderId, type LoopSpec } from './contenders.ts';
import { start, steady } from './drive.ts';
import { loadFixedtick } from './fixedtick-parts.ts';
import { type Cell, na, type Row } from './report-types.ts';

interface PressResult {
  frameSteps: number;
  seen: number;
}

/** Latch the Fixedtick side uses (loaded if it has been built). */
type Latch = {
  press(key: string): void;
  release(key: string): void;
  pressed(key: string): boolean;
};

/**
 * Runs `warmFrames` frames at `fps`, presses before frame `warmFrames + 1`, runs 10 more.
 * Returns the steps the press frame ran and how many steps saw the press.
 */
function pressAt(
  id: ContenderId,
  fps: number,
  warmFrames: number,
  makeLatch: ((loop: FixedLoop) => Latch) | undefined,
): PressResult {
  let justPressed = false;
  let seen = 0;
  let latch: Latch | undefined;
  const spec: LoopSpec = {
    hz: 60,
    step: () => {
      if (latch ? latch.pressed('Space') : justPressed) seen++;
    },
    render: () => {
      justPressed = false;
    },
  };
  const d = start(id, spec);
  try {
    if (id === 'fixedtick' && makeLatch) latch = makeLatch(d.run.handles.loop as FixedLoop);
    steady(d, fps, warmFrames);
    // The keydown event arrives between two frames.
    if (latch) latch.press('Space');
    else justPressed = true;
    const [frameSteps] = steady(d, fps, 1);
    steady(d, fps, 5);
    if (latch) latch.release('Space');
    steady(d, fps, 5);
    return { frameSteps, seen };
  } finally {
    d.dispose();
  }
}

/** First frame index ≥ `from` in which contender `id` runs `steps` steps at `fps`. */
function findFrame(id: ContenderId, fps: number, from: number, steps: number): number {
  const d = start(id, { hz: 60, step: () => {}, render: () => {} });
  try {
    const perFrame = steady(d, fps, from + 3 * fps);
    for (let i = from; i < perFrame.length; i++) if (perFrame[i] === steps) return i;
    throw new Error(`bench: ${id} never ran ${steps} steps in a frame at ${fps} fps`);
  } finally {
    d.dispose();
  }
}

async function scenario(fps: number, wantSteps: number): Promise<Row['cells']> {
  const parts = await loadFixedtick();
  const cells: Row['cells'] = {};
  for (const { id } of CONTENDERS) {
    if (id === 'fixedtick' && !parts.InputLatch) {
      cells[id] = na(`InputLatch: ${parts.missing.InputLatch}`);
      continue;
    }
    const Latch = parts.InputLatch;
    const index = findFrame(id, fps, fps, wantSteps);
    const r = pressAt(
      id,
      fps,
      index,
      id === 'fixedtick' && Latch ? (loop) => new Latch(loop) as Latch : undefined,
    );
    const verdict = r.seen === 0 ? 'lost' : r.seen === 1 ? 'seen once' : `seen ${r.seen} times`;
    const cell: Cell = {
      value: verdict,
      raw: r,
      note:
        id === 'fixedtick'
          ? `InputLatch.pressed() in onFixedUpdate; the press frame ran ${r.frameSteps} steps`
          : `per-frame justPressed flag read in the step hook; the press frame ran ${r.frameSteps} steps`,
    };
    cells[id] = cell;
  }
  return cells;
}

/** A press before a 0-step frame (60 Hz steps, 144 fps). */
export async function pressZeroStep(): Promise<Row> {
  const cells = await scenario(144, 0);
  const ft = cells.fixedtick?.raw as PressResult | undefined;
  return {
    id: 'press-0-step',
    title: 'Key press in a 0-step frame',
    how: '60 Hz steps, 144 fps; a key goes down just before a frame that runs no step; count the steps that see the press. None of the alternatives has input handling, so their gameplay uses the common per-frame pattern (keydown sets `justPressed`, cleared at the end of the frame); a user who hand-writes a latch (cleared by the step that consumes it) would get "seen once" — that hand-written latch is what `InputLatch` packages, with release/held and replay.',
    expected: 'seen once',
    fixedtickCorrect: ft !== undefined && ft.seen === 1 && ft.frameSteps === 0,
    cells,
  };
}

/** A press before a 2-step frame (60 Hz steps, 30 fps). */
export async function pressTwoStep(): Promise<Row> {
  const cells = await scenario(30, 2);
  const ft = cells.fixedtick?.raw as PressResult | undefined;
  return {
    id: 'press-2-step',
    title: 'Key press in a 2-step frame',
    how: '60 Hz steps, 30 fps; a key goes down just before a frame that runs two steps; count the steps that see the press (same gameplay as the row above).',
    expected: 'seen once',
    fixedtickCorrect: ft !== undefined && ft.seen === 1 && ft.frameSteps === 2,
    cells,
  };
}
