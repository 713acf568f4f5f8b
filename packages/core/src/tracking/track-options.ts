/**
 * What `track`, `trackInstance`, `teleport`, `stream` and a `Tracker` take, and their checks:
 * the same errors in every adapter.
 */
import type { InterpolationMode } from '../interpolation/pose-layout.ts';
import { checkInterpolationMode, optionError } from '../options.ts';
import { type ComponentMask, POSITION, ROTATION } from './components.ts';

/** A position, as `teleport` takes it: a three or Babylon `Vector3`, or any `{ x, y, z }`. */
export interface Vector3Like {
  /** X component. */
  x: number;
  /** Y component. */
  y: number;
  /** Z component. */
  z: number;
}

/** A rotation quaternion, as `teleport` takes it: an engine's `Quaternion` or `{ x, y, z, w }`. */
export interface QuaternionLike extends Vector3Like {
  /** Scalar part. */
  w: number;
}

/** Options of `track`. */
export interface TrackOptions {
  /**
   * How the node is drawn between fixed steps; see {@link InterpolationMode}. Without it the node
   * follows the tracker's `defaultInterpolation`, also when that changes later.
   * @defaultValue the tracker's `defaultInterpolation`
   */
  interpolation?: InterpolationMode;
}

/** Options of `trackInstance`. */
export interface InstanceTrackOptions extends TrackOptions {
  /**
   * Put the instance's simulation matrix back into the mesh's matrix buffer before the steps,
   * so that code reading it inside `fixedUpdate` (`mesh.getMatrixAt`) reads the simulation, not
   * the interpolated matrix. Off by default: a step that only writes instance matrices, or reads
   * poses with `getSimulationPose`, needs no restore, and skipping it saves a matrix copy per
   * instance per frame.
   * @defaultValue false
   */
  restore?: boolean;
}

/** Options of a {@link Tracker}. */
export interface TrackerOptions {
  /** See {@link Tracker.defaultInterpolation}. @defaultValue `'interpolate'` */
  defaultInterpolation?: InterpolationMode;
  /** What the adapter calls a node in its API, for error messages. @defaultValue `'node'` */
  nodeName?: string;
}

/**
 * What kind of thing `value` is, for an error message: `a Vector3` (its class), `a plain
 * object`, `an array`, `null`, `the number 5`, `the string "box"`.
 */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value !== 'object' && typeof value !== 'function') {
    return `the ${typeof value} ${String(value)}`;
  }
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  const prototype = Object.getPrototypeOf(value);
  const name: unknown = prototype?.constructor?.name;
  if (prototype === null || prototype === Object.prototype || typeof name !== 'string' || !name) {
    return 'a plain object';
  }
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

/**
 * The `TypeError` for an argument of the wrong kind (`track({})`): names the argument, what it
 * must be and what was given (docs/errors.md).
 */
export function kindError(argument: string, value: unknown, expected: string): TypeError {
  return new TypeError(`fixedtick: ${argument} must be ${expected}, got ${describeKind(value)}`);
}

/** True if `v` is an `{ x, y, z }` (with `w`, if `w`) of finite numbers; allocates nothing. */
export function isFiniteVector(v: unknown, w: boolean): boolean {
  if (v === null || typeof v !== 'object') return false;
  const o = v as { x: unknown; y: unknown; z: unknown; w?: unknown };
  return (
    Number.isFinite(o.x) &&
    Number.isFinite(o.y) &&
    Number.isFinite(o.z) &&
    (!w || Number.isFinite(o.w))
  );
}

/** The mode an options object asks for (`undefined`: follow the default); throws for a bad one. */
export function modeOption(options: TrackOptions): InterpolationMode | undefined {
  if (options === null || typeof options !== 'object') {
    throw optionError('options', options, 'an object');
  }
  return options.interpolation === undefined
    ? undefined
    : checkInterpolationMode(options.interpolation, 'interpolation');
}

/** Checks a teleport's position and rotation; returns the components it moves. */
export function checkTeleport(
  position: Vector3Like,
  rotation: QuaternionLike | undefined,
): ComponentMask {
  if (!isFiniteVector(position, false)) {
    throw optionError('position', position, 'an { x, y, z } of finite numbers');
  }
  if (rotation !== undefined && !isFiniteVector(rotation, true)) {
    throw optionError('rotation', rotation, 'an { x, y, z, w } of finite numbers');
  }
  return rotation === undefined ? POSITION : POSITION | ROTATION;
}

/** Writes a teleport's position and, if given, rotation into row `r` of `rows`. */
export function setTeleported(
  rows: Float64Array,
  r: number,
  position: Vector3Like,
  rotation: QuaternionLike | undefined,
): void {
  rows[r] = position.x;
  rows[r + 1] = position.y;
  rows[r + 2] = position.z;
  if (rotation === undefined) return;
  rows[r + 3] = rotation.x;
  rows[r + 4] = rotation.y;
  rows[r + 5] = rotation.z;
  rows[r + 6] = rotation.w;
}

/** `value` as a stream's seconds (`delay`, `maxExtrapolation`) from 0 to 1e9 (`undefined` passes); a `RangeError` naming `name` otherwise. */
export function checkStreamSeconds(name: string, value: unknown): number | undefined {
  if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= 1e9)) {
    throw optionError(name, value, 'a number of seconds from 0 to 1e9');
  }
  return value;
}

/** `value` as a stream's render tick source (`PoseStreamOptions.clock`) (`undefined` passes); a `TypeError` for another kind. */
export function checkRenderTickSource(value: unknown): { readonly renderTick: number } | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || !('renderTick' in value)) {
    throw kindError('clock', value, 'an object with a renderTick (a TickClock)');
  }
  return value as { readonly renderTick: number };
}
