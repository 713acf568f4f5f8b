/**
 * The `'interpolate'` kernel and its written-out loop (packages/core/src/interpolation/
 * interpolate.ts) give the same numbers, bit for bit, for rows of every kind: near and far
 * rotations (nlerp and slerp), opposite hemispheres, equal ends, ends far apart, with and without
 * the slerp cache filled, at alphas from 0 to 1.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/support/random.ts';
import { interpolateRow, interpolateRows } from '../src/interpolation/interpolate.ts';
import { POSE_STRIDE } from '../src/interpolation/pose-layout.ts';

function randomRows(count: number, next: () => number): Float64Array {
  const rows = new Float64Array(count * POSE_STRIDE);
  for (let s = 0; s < count; s++) {
    const r = s * POSE_STRIDE;
    const kind = s % 5;
    for (let k = 0; k < 3; k++)
      rows[r + k] = kind === 4 ? (2 * next() - 1) * 1.7e308 : next() * 100;
    let len = 0;
    for (let k = 3; k < 7; k++) {
      rows[r + k] = next() * 2 - 1;
      len += rows[r + k] ** 2;
    }
    for (let k = 3; k < 7; k++) rows[r + k] /= Math.sqrt(len);
    for (let k = 7; k < 10; k++) rows[r + k] = 0.5 + next();
  }
  return rows;
}

describe('interpolateRows holds interpolateRow bit for bit', () => {
  it.each([0, 0.25, 0.5, 0.999, 1])('at alpha %s', (alpha) => {
    const count = 200;
    const next = mulberry32(42 + alpha * 1000);
    const previous = randomRows(count, next);
    const current = randomRows(count, next);
    for (let s = 0; s < count; s++) {
      const r = s * POSE_STRIDE;
      // near rotations (nlerp), equal rotations, opposite hemispheres, equal rows
      if (s % 4 === 1) for (let k = 3; k < 7; k++) current[r + k] = previous[r + k] + 1e-4;
      if (s % 4 === 2) for (let k = 3; k < 7; k++) current[r + k] = previous[r + k];
      if (s % 4 === 3) for (let k = 3; k < 7; k++) current[r + k] = -current[r + k];
      if (s % 7 === 0) for (let k = 0; k < 10; k++) current[r + k] = previous[r + k];
    }
    const clock = new Float64Array([alpha, 1 / 60]);
    const list = new Int32Array(count).map((_, i) => count - 1 - i);
    const one = new Float64Array(count * POSE_STRIDE);
    const all = new Float64Array(count * POSE_STRIDE);
    const cacheOne = new Float64Array(count * 3).fill(Number.NaN);
    const cacheAll = new Float64Array(count * 3).fill(Number.NaN);
    // twice: the second pass reads the slerp cache the first one filled
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < count; s++) interpolateRow(previous, current, one, cacheOne, s, clock);
      interpolateRows(previous, current, all, cacheAll, list, count, clock);
      const differing = one.findIndex((v, k) => !Object.is(v, all[k]));
      expect(differing).toBe(-1);
      expect(Array.from(cacheAll)).toEqual(Array.from(cacheOne));
    }
  });
});
