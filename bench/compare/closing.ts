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
    'What Fixedtick does per frame that a bare accumulator does not: it sanitises the frame time, ' +
    'applies the clamp, the cap, the time scale and the pause, keeps `time`/`unscaledTime`/`stats`, ' +
    'fills a `FrameInfo`, and dispatches nine hooks (three of them empty here), each through a ' +
    'listener list that isolates errors with try/catch. The hand-written accumulator and ' +
    '@thi.ng/timestep do one subtraction loop and call the two callbacks directly. The absolute ' +
    'difference is tens of nanoseconds per frame — a thousandth of a 144 fps frame budget. ' +
    'Closing it entirely would mean dropping the guarantees (error isolation, stats, sanitising), ' +
    'which is not worth it; the remaining per-hook cost could be cut by dispatching empty hooks ' +
    'not at all (a size check before each `emit`).',
  'speed-interpolation':
    'Fixedtick’s three.js adapter does more per body than the hand-written equivalent: it ' +
    'interpolates scale as well as position and rotation, restores the simulation pose before the ' +
    'steps and captures it after them through typed arrays, and checks every tracked object for ' +
    'a teleport (a pose written outside the fixed step) each frame — the check that makes a ' +
    'teleport render with 0 px smear where the hand-written loops smear. What it would take is ' +
    'in the issue report (measured per phase).',
  'speed-havok':
    'Babylon’s lockstep does not interpolate: between two Havok steps every frame shows the same ' +
    'poses, which is the stutter Fixedtick exists to remove. Fixedtick does the same Havok steps ' +
    'plus restore, capture and interpolation of 1 000 bodies each frame, so a ratio above 1.0 is ' +
    'the price of smooth motion, not the same work.',
};

/** One note per speed row. */
export function closingNotes(speed: readonly Row[]): Record<string, string> {
  const notes: Record<string, string> = {};
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
