import {
  DEFAULT_FIXED_DELTA,
  DEFAULT_MAX_DELTA_TIME,
  DEFAULT_MAX_STEPS_PER_FRAME,
  MAX_DURATION,
  MAX_FIXED_DELTA,
} from './constants.ts';
import type { InterpolationMode } from './interpolation/pose-buffer.ts';

/** What the loop does with an error thrown by a listener or an adapter. */
export type ErrorPolicy = 'report' | 'throw';

/**
 * Options of {@link FixedLoop}. Every option is validated: a bad value throws a `RangeError`
 * naming the option and the value. All of them are also live properties of the loop.
 */
export interface FixedLoopOptions {
  /**
   * Seconds of game time per fixed step, at most {@link MAX_FIXED_DELTA} (1 s).
   * @defaultValue {@link DEFAULT_FIXED_DELTA} (1/60)
   */
  fixedDelta?: number;
  /**
   * The same as `fixedDelta`, in steps per second (Hz, at least 1). Give one or the other.
   * @defaultValue 60
   */
  tickRate?: number;
  /**
   * Clamp of one frame's game time, in seconds, applied after `timeScale` (Unity
   * `Time.maximumDeltaTime`: "the maximum value of Time.deltaTime in any given frame"; Bevy's
   * `max_delta`). The excess is dropped, never simulated later. `Infinity` disables the clamp.
   * @defaultValue {@link DEFAULT_MAX_DELTA_TIME} (0.25)
   */
  maxDeltaTime?: number;
  /**
   * Cap on fixed steps per frame (Godot `max_physics_steps_per_frame`). Whole excess steps are
   * dropped; the fractional remainder stays for interpolation. `Infinity` disables the cap;
   * `'auto'` is the steps of 2/15 s at the current tick rate (8 at 60 Hz, 40 at 300 Hz).
   * @defaultValue {@link DEFAULT_MAX_STEPS_PER_FRAME} (`'auto'`)
   */
  maxStepsPerFrame?: number | 'auto';
  /**
   * Game time per real time; `0` pauses the simulation (per-frame hooks still run, with delta 0).
   * @defaultValue 1
   */
  timeScale?: number;
  /**
   * Godot's `physics_jitter_fix`: how far (in fractions of a step) a frame may run early or late
   * so that steps per frame stay even. `0` is exact; Godot's default is 0.5.
   * @defaultValue 0
   */
  jitterFix?: number;
  /**
   * When > 0, every frame lasts exactly this many seconds whatever the clock says
   * (Unity `Time.captureDeltaTime`): deterministic recording and tests.
   * @defaultValue 0
   */
  captureDeltaTime?: number;
  /**
   * `'report'` sends listener errors to `onError` (or `console.error`) and goes on; `'throw'`
   * also rethrows the first one after the frame has completed (for tests).
   * @defaultValue `'report'`
   */
  errorPolicy?: ErrorPolicy;
}

/** {@link FixedLoopOptions} with every value resolved. */
export interface ResolvedLoopOptions {
  /** Seconds of game time per step (from `fixedDelta` or `1 / tickRate`). */
  fixedDelta: number;
  /** Steps per second: `tickRate` as given, else `1 / fixedDelta`. */
  tickRate: number;
  /** Clamp of one frame's scaled time, in seconds (`Infinity` = none). */
  maxDeltaTime: number;
  /** Cap on steps per frame (`Infinity` = none; `'auto'` follows the tick rate). */
  maxStepsPerFrame: number | 'auto';
  /** Game time per real time (≥ 0). */
  timeScale: number;
  /** Godot's `physics_jitter_fix` (0 = exact). */
  jitterFix: number;
  /** Fixed frame time when > 0 (0 = off). */
  captureDeltaTime: number;
  /** What the loop does with listener errors. */
  errorPolicy: ErrorPolicy;
}

/** The names of {@link FixedLoopOptions}, in the order the docs list them. */
export const LOOP_OPTION_NAMES: readonly (keyof FixedLoopOptions)[] = Object.freeze([
  'fixedDelta',
  'tickRate',
  'maxDeltaTime',
  'maxStepsPerFrame',
  'timeScale',
  'jitterFix',
  'captureDeltaTime',
  'errorPolicy',
]);

/**
 * Edit distance (insertions, deletions, substitutions, transpositions of neighbours) between two
 * names, ignoring case: `tickrate` is 0 from `tickRate`, `fixedDelat` 1 from `fixedDelta`.
 */
function nameDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  // rows i-2, i-1 and i of the Damerau-Levenshtein table (optimal string alignment)
  let before = new Array<number>(y.length + 1).fill(0);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        best = Math.min(best, before[j - 2] + 1);
      }
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[y.length];
}

/**
 * The known name closest to `name`, if it is close enough to be a typo of it: at most a third
 * of the name's letters apart (at least one), or one of the two a start of the other of at least
 * four letters (`maxDelta`, `fixedDeltaTime`), which counts as one edit. Ties go to the first
 * listed.
 */
function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  const lower = name.toLowerCase();
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    const truncated =
      Math.min(lower.length, other.length) >= 4 &&
      (other.startsWith(lower) || lower.startsWith(other));
    const distance = Math.min(nameDistance(name, candidate), truncated ? 1 : Infinity);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) {
    return String(value);
  }
  return Object.prototype.toString.call(value);
}

/**
 * The library's standard `RangeError` for option `name`, for the caller to throw: the option,
 * what it must be and the value given (strings quoted, objects by their tag), so a bad call says
 * what to fix. Exported so the engine adapters and your own wrappers word their errors the same
 * way: `throw optionError('renderer', value, 'a three.js renderer')`.
 */
export function optionError(name: string, value: unknown, expected: string): RangeError {
  return new RangeError(`fixedtick: option "${name}" must be ${expected}, got ${show(value)}`);
}

/**
 * Validates `fixedDelta` (seconds per step, > 0 and ≤ {@link MAX_FIXED_DELTA}). A step over one
 * second is refused with a hint that the unit is seconds: `fixedDelta: 16` — "did you mean
 * 16 ms = 0.016 s?".
 */
export function checkFixedDelta(value: unknown, name = 'fixedDelta'): number {
  if (typeof value !== 'number' || !(value > 0 && value <= MAX_FIXED_DELTA)) {
    const error = optionError(name, value, `a number of seconds > 0 and ≤ ${MAX_FIXED_DELTA}`);
    if (typeof value === 'number' && value > MAX_FIXED_DELTA && value <= 1000) {
      error.message += ` — ${name} is in seconds: did you mean ${value} ms = ${value / 1000} s?`;
    }
    throw error;
  }
  return value;
}

/**
 * Validates `tickRate` (Hz, finite, ≥ 1 / {@link MAX_FIXED_DELTA}) and returns the matching
 * `fixedDelta`. A rate under 1 Hz is refused with a hint: it is usually a step in seconds given
 * as a rate (`tickRate: 0.016`, which is `fixedDelta: 0.016`).
 */
export function checkTickRate(value: unknown, name = 'tickRate'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value >= 1 / MAX_FIXED_DELTA)) {
    const error = optionError(name, value, `a finite rate in Hz ≥ ${1 / MAX_FIXED_DELTA}`);
    if (typeof value === 'number' && value >= 0.001 && value < 1) {
      error.message += ` — ${name} is in Hz: for a step of ${value} s, write fixedDelta: ${value}`;
    }
    throw error;
  }
  return 1 / value;
}

/** Validates `maxDeltaTime` (seconds > 0, ≤ {@link MAX_DURATION} or `Infinity`). */
export function checkMaxDeltaTime(value: unknown, name = 'maxDeltaTime'): number {
  if (
    typeof value !== 'number' ||
    !((value > 0 && value <= MAX_DURATION) || value === Number.POSITIVE_INFINITY)
  ) {
    throw optionError(name, value, 'a number of seconds > 0 and ≤ 1e9 (or Infinity)');
  }
  return value;
}

/** Validates a step cap such as Godot's `max_physics_steps_per_frame` (whole ≥ 1, or `Infinity`). */
export function checkMaxSteps(value: unknown, name = 'maxStepsPerFrame'): number {
  if (!isStepCap(value)) throw optionError(name, value, 'a whole number ≥ 1 (or Infinity)');
  return value;
}

/** Validates the loop's `maxStepsPerFrame`: a whole number ≥ 1, `Infinity`, or `'auto'`. */
export function checkMaxStepsOrAuto(value: unknown): number | 'auto' {
  if (value === 'auto' || isStepCap(value)) return value;
  throw optionError('maxStepsPerFrame', value, 'a whole number ≥ 1, Infinity or "auto"');
}

function isStepCap(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1))
  );
}

/** Validates `timeScale` (finite, ≥ 0). */
export function checkTimeScale(value: unknown, name = 'timeScale'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw optionError(name, value, 'a finite number ≥ 0');
  }
  return value;
}

/** Validates `jitterFix` (0 to 2, Godot's range). */
export function checkJitterFix(value: unknown, name = 'jitterFix'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 2) {
    throw optionError(name, value, 'a number from 0 to 2');
  }
  return value;
}

/** Validates `captureDeltaTime` (seconds, 0 = off, up to {@link MAX_DURATION}). */
export function checkCaptureDeltaTime(value: unknown, name = 'captureDeltaTime'): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_DURATION)) {
    throw optionError(name, value, 'a number of seconds from 0 (off) to 1e9');
  }
  return value;
}

/** Validates a duration argument in seconds: ≥ 0, and ≤ {@link MAX_DURATION} unless `infinite`. */
export function checkSeconds(value: unknown, name: string, infinite: boolean): number {
  const ok =
    typeof value === 'number' &&
    ((value >= 0 && value <= MAX_DURATION) || (infinite && value === Number.POSITIVE_INFINITY));
  if (!ok) {
    const range = infinite ? 'from 0 to 1e9 (or Infinity)' : 'from 0 to 1e9';
    throw optionError(name, value, `a number of seconds ${range}`);
  }
  return value;
}

/** Validates `errorPolicy`. */
export function checkErrorPolicy(value: unknown): ErrorPolicy {
  if (value !== 'report' && value !== 'throw') {
    throw optionError('errorPolicy', value, '"report" or "throw"');
  }
  return value;
}

/**
 * Validates an interpolation mode given as option `name` (an adapter's `defaultInterpolation`,
 * a track option): returns it, or throws the standard `RangeError` naming the three modes.
 */
export function checkInterpolationMode(value: unknown, name: string): InterpolationMode {
  if (value !== 'none' && value !== 'interpolate' && value !== 'extrapolate') {
    throw optionError(name, value, '"none", "interpolate" or "extrapolate"');
  }
  return value;
}

/**
 * Validates a whole options object and fills in defaults. Unknown keys are rejected, so a typo
 * such as `tickrate` fails loudly instead of silently keeping the default: the `RangeError`
 * names the key, suggests the closest known name (`unknown option "tickrate" — did you mean
 * "tickRate"?`) and lists every known option.
 *
 * An engine adapter whose constructor takes the loop's options and its own in one object passes
 * its own names as `adapterOptionNames`: they are then accepted (and ignored here), suggested and
 * listed with the loop's, so its users see one error for the object they wrote:
 * `resolveOptions(options, ['renderer', 'scene', 'camera', 'defaultInterpolation'])`.
 */
export function resolveOptions(
  options: FixedLoopOptions = {},
  adapterOptionNames: readonly string[] = [],
): ResolvedLoopOptions {
  if (options === null || typeof options !== 'object') {
    throw new RangeError(`fixedtick: options must be an object, got ${show(options)}`);
  }
  const known: readonly string[] =
    adapterOptionNames.length === 0
      ? LOOP_OPTION_NAMES
      : [...LOOP_OPTION_NAMES, ...adapterOptionNames];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const suggestion = closestName(key, known);
      const hint = suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`;
      throw new RangeError(
        `fixedtick: unknown option ${JSON.stringify(key)}${hint} (known: ${known.join(', ')})`,
      );
    }
  }
  let fixedDelta = DEFAULT_FIXED_DELTA;
  let tickRate = 1 / DEFAULT_FIXED_DELTA;
  const o = options as Record<string, unknown>;
  if (o.fixedDelta !== undefined) {
    fixedDelta = checkFixedDelta(o.fixedDelta);
    tickRate = 1 / fixedDelta;
  }
  if (o.tickRate !== undefined) {
    const fromRate = checkTickRate(o.tickRate);
    if (o.fixedDelta !== undefined && Math.abs(fromRate - fixedDelta) > 1e-12) {
      throw new RangeError(
        `fixedtick: options "fixedDelta" (${show(o.fixedDelta)}) and "tickRate" (${show(o.tickRate)}) disagree; give one of them`,
      );
    }
    fixedDelta = fromRate;
    tickRate = o.tickRate as number;
  }
  return {
    fixedDelta,
    tickRate,
    maxDeltaTime:
      o.maxDeltaTime === undefined ? DEFAULT_MAX_DELTA_TIME : checkMaxDeltaTime(o.maxDeltaTime),
    maxStepsPerFrame:
      o.maxStepsPerFrame === undefined
        ? DEFAULT_MAX_STEPS_PER_FRAME
        : checkMaxStepsOrAuto(o.maxStepsPerFrame),
    timeScale: o.timeScale === undefined ? 1 : checkTimeScale(o.timeScale),
    jitterFix: o.jitterFix === undefined ? 0 : checkJitterFix(o.jitterFix),
    captureDeltaTime:
      o.captureDeltaTime === undefined ? 0 : checkCaptureDeltaTime(o.captureDeltaTime),
    errorPolicy: o.errorPolicy === undefined ? 'report' : checkErrorPolicy(o.errorPolicy),
  };
}
