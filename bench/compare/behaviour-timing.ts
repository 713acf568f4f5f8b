/**
 * Behaviour scenarios that need only a loop: drift, stall clamp, step cap, jump peak. Each runs
 * the same gameplay through every contender (see contenders.ts for how each is driven).
 */
import { CONTENDERS, type ContenderId, type LoopSpec } from './contenders.ts';
import { type Driven, stall, start, steady } from './drive.ts';
import type { Cell, Row } from './report-types.ts';

const noop = (): void => {};

function each(measure: (id: ContenderId) => Cell): Row['cells'] {
  const cells: Row['cells'] = {};
  for (const { id } of CONTENDERS) cells[id] = measure(id);
  return cells;
}

function withRun<T>(id: ContenderId, spec: LoopSpec, body: (d: Driven) => T): T {
  const driven = start(id, spec);
  try {
    return body(driven);
  } finally {
    driven.dispose();
  }
}

/** 120 Hz steps fed 2 s of 144 fps frames: 240 steps exactly, or drift. */
export function drift(): Row {
  const cells = each((id) =>
    withRun(id, { hz: 120, step: noop, render: noop }, (d) => {
      const steps = steady(d, 144, 288).reduce((a, b) => a + b, 0);
      return { value: `${steps} steps`, raw: steps, note: d.run.capNote };
    }),
  );
  return {
    id: 'drift',
    title: 'Drift: steps from 2 s of 144 fps frames at 120 Hz',
    how: '288 frames with vsync timestamps k·1000/144 ms fed to a 120 Hz loop; count the steps (2 s × 120 Hz = 240).',
    expected: '240 steps',
    fixedtickCorrect: cells.fixedtick?.raw === 240,
    cells,
  };
}

/**
 * A stall: one frame of `stallMs` in a 60 Hz display at 60 Hz steps, then a second of normal
 * frames. Reports the steps in the stall frame and the extra (catch-up) steps after it.
 */
function stallScenario(stallMs: number, cap: number | undefined): Row['cells'] {
  return each((id) =>
    withRun(id, { hz: 60, cap, step: noop, render: noop }, (d) => {
      steady(d, 60, 60);
      const inStall = stall(d, stallMs);
      const after = steady(d, 60, 60);
      const afterSteps = after.reduce((a, b) => a + b, 0);
      const catchUp = afterSteps - 60;
      const burstFrames = after.filter((s) => s > 1).length;
      const simulated = (inStall + catchUp) / 60;
      const value =
        catchUp > 1
          ? `${inStall} steps, then +${catchUp} catch-up over ${burstFrames} frames`
          : `${inStall} steps, no catch-up`;
      return {
        value,
        raw: { stallSteps: inStall, catchUpSteps: catchUp, simulatedSeconds: simulated },
        note: `${d.run.capNote}; ${simulated.toFixed(3)} s of the ${(stallMs / 1000).toFixed(1)} s stall simulated`,
      };
    }),
  );
}

/** A 1 s stall with every contender's defaults: is the burst clamped? */
export function stallClamp(): Row {
  const cells = stallScenario(1000, undefined);
  const ft = cells.fixedtick?.raw as { stallSteps: number; catchUpSteps: number } | undefined;
  return {
    id: 'stall-1s',
    title: '1 s stall, defaults: steps in the frame after it',
    how: '60 Hz steps, 60 fps frames; one frame arrives 1000 ms after the previous one (a blocked main thread), then 60 normal frames. Catch-up = steps in those 60 frames beyond 60.',
    expected: 'no burst: at most maxDeltaTime (0.25 s) worth, capped at 8, no catch-up',
    fixedtickCorrect: ft !== undefined && ft.stallSteps <= 8 && ft.catchUpSteps <= 1,
    cells,
  };
}

/** A 0.5 s stall with a cap of 8 steps per frame where the contender takes one. */
export function stallCap(): Row {
  const cells = stallScenario(500, 8);
  const ft = cells.fixedtick?.raw as { stallSteps: number; catchUpSteps: number } | undefined;
  return {
    id: 'stall-cap',
    title: '0.5 s stall at 60 Hz, cap of 8: steps in the frame after it',
    how: 'As above with a 500 ms frame; each contender given a cap of 8 steps per frame where it has such an option.',
    expected: '8 steps',
    fixedtickCorrect: ft !== undefined && ft.stallSteps === 8 && ft.catchUpSteps <= 1,
    cells,
  };
}

/** Peak of a semi-implicit Euler jump (v0 600 px/s, g 1800 px/s²) under 60 Hz steps. */
export function jumpPeak(): Row {
  const rates = [30, 60, 144] as const;
  const cells = each((id) => {
    const peaks = rates.map((fps) => {
      let y = 0;
      let v = 600;
      let peak = 0;
      const spec: LoopSpec = {
        hz: 60,
        step: (dt) => {
          if (v === 0 && y === 0) return;
          v -= 1800 * dt;
          y += v * dt;
          if (y <= 0) {
            y = 0;
            v = 0;
          }
          if (y > peak) peak = y;
        },
        render: noop,
      };
      return withRun(id, spec, (d) => {
        steady(d, fps, Math.ceil(fps * 1.5));
        return peak;
      });
    });
    return {
      value: `${peaks.map((p) => p.toFixed(1)).join(' / ')} px`,
      raw: Object.fromEntries(rates.map((r, i) => [`${r}fps`, peaks[i]])),
      note: 'gameplay y/v integrated in the per-step hook; peak of the simulated y',
    };
  });
  const ft = cells.fixedtick?.raw as Record<string, number> | undefined;
  return {
    id: 'jump',
    title: 'Jump peak at 30 / 60 / 144 fps (60 Hz steps)',
    how: 'v0 = 600 px/s, g = 1800 px/s², semi-implicit Euler in each contender’s per-step hook; 1.5 s of frames at each rate; highest simulated y.',
    expected: '95.0 / 95.0 / 95.0 px',
    fixedtickCorrect: ft !== undefined && Object.values(ft).every((p) => Math.abs(p - 95) < 0.05),
    cells,
  };
}
