/**
 * Shapes of the comparison's results: one row per scenario, one cell per contender.
 */
import type { ContenderId } from './contenders.ts';

/** One measured value. `value` is what the table shows; `raw` is the number(s) behind it. */
export interface Cell {
  value: string;
  raw?: unknown;
  /** How the contender was set up for this scenario, or why it cannot take part. */
  note?: string | undefined;
}

/** One scenario measured through every contender that can express it. */
export interface Row {
  id: string;
  title: string;
  /** What the scenario does, in one or two sentences (the report prints it under the table). */
  how: string;
  /** The correct answer, which Fixedtick's cell must show. */
  expected: string;
  /** Whether Fixedtick's cell equals {@link expected} (speed rows: ratio ≤ 1 where comparable). */
  fixedtickCorrect?: boolean;
  cells: Partial<Record<ContenderId, Cell>>;
}

/**
 * A cell for a contender that cannot run a scenario, with the reason; "n/a (not built)" when the
 * reason is a Fixedtick part that does not exist yet.
 */
export function na(reason: string): Cell {
  return { value: reason.includes('not built') ? 'n/a (not built)' : 'n/a', note: reason };
}
