/**
 * The `'none'` mode's kernel: the frame shows the latest simulation pose as it is.
 * @internal
 */
import { POSE_STRIDE } from './pose-layout.ts';

/** Output ← current for row `slot`. */
export function holdRow(current: Float64Array, output: Float64Array, slot: number): void {
  const r = slot * POSE_STRIDE;
  for (let k = 0; k < POSE_STRIDE; k++) output[r + k] = current[r + k];
}
