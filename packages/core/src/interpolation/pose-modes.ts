/**
 * Interpolation modes as a pose buffer stores them, one byte per slot (0 is a free slot,
 * pose-storage.ts).
 * @internal
 */
import type { InterpolationMode } from './pose-layout.ts';

/** `'none'`. */
export const NONE = 1;
/** `'interpolate'`. */
export const INTERPOLATE = 2;
/** `'extrapolate'`. */
export const EXTRAPOLATE = 3;

/** The code of `mode`; a `RangeError` for anything else. */
export function modeCode(mode: unknown): number {
  if (mode === 'interpolate') return INTERPOLATE;
  if (mode === 'none') return NONE;
  if (mode === 'extrapolate') return EXTRAPOLATE;
  throw new RangeError(
    `fixedtick: option "interpolation" must be "none", "interpolate" or "extrapolate", got ${
      typeof mode === 'string' ? JSON.stringify(mode) : String(mode)
    }`,
  );
}

/** The mode of a code. */
export function modeName(code: number): InterpolationMode {
  return code === NONE ? 'none' : code === EXTRAPOLATE ? 'extrapolate' : 'interpolate';
}
