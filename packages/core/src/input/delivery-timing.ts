/**
 * When a latched event reaches the simulation: the `timing` option of an {@link InputLatch}
 * (`'arrival'`, or `'timestamp'` through a {@link FrameTimeMap}), and the checks on the times
 * events carry. The rule, worked out at 30, 60 and 144 fps, is in
 * `docs/input-and-determinism.md#input-on-the-tick-of-its-timestamp`.
 */
import type { FixedLoop } from '../fixed-loop.ts';
import { optionValueError } from './describe-value.ts';
import { FrameTimeMap } from './frame-time-map.ts';
import { readOptions } from './read-options.ts';

/**
 * When a latched event reaches the simulation: see {@link InputLatchOptions.timing}.
 * `'arrival'` is the default.
 */
export type InputTiming = 'arrival' | 'timestamp';

/** Options of {@link InputLatch}. */
export interface InputLatchOptions {
  /**
   * When an event reaches the simulation.
   *
   * - `'arrival'`: the first tick that runs after `press`/`release` is called.
   * - `'timestamp'`: an event that carries a time (`event.timeStamp` through the DOM bindings, or
   *   `press(key, timeMs)` / `release(key, timeMs)`, on the clock of the frame timestamps) goes
   *   to the first tick whose simulated span `(k·fixedDelta, (k+1)·fixedDelta]` ends at or after
   *   that moment, mapped through the loop's frame timestamps: a press at the same real moment
   *   lands on the same tick at 30, 60 or 144 Hz. Never a tick that has already run; a moment
   *   after the last step boundary of the frame `'arrival'` would deliver it in goes to the next
   *   tick, one tick later. Events without a time, and frames run by `advance()` /
   *   `stepOnce()`, keep `'arrival'`.
   *
   * See `docs/input-and-determinism.md` for the rule worked out at 30, 60 and 144 fps.
   * @defaultValue `'arrival'`
   */
  timing?: InputTiming;
}

/**
 * The `timing` of `options` (an `InputLatch`'s), checked, with the {@link FrameTimeMap} that
 * timestamp timing needs (`undefined` for arrival timing).
 */
export function readTiming(
  options: unknown,
  loop: FixedLoop,
): { timing: InputTiming; timeMap: FrameTimeMap | undefined } {
  const { timing } = readOptions(options, 'InputLatch', ['timing']);
  if (timing === undefined || timing === 'arrival')
    return { timing: 'arrival', timeMap: undefined };
  if (timing === 'timestamp') return { timing, timeMap: new FrameTimeMap(loop) };
  throw optionValueError('timing', timing, '"arrival" or "timestamp"');
}

/**
 * Throws the library's `RangeError` for a press or release time that is not a finite number or
 * `undefined`. It returns nothing: a double returned (or passed) through a call V8 does not
 * inline is boxed, and events must allocate nothing, so the time travels as the caller's value.
 */
export function checkTime(timeMs: unknown): void {
  if (timeMs !== undefined && !(typeof timeMs === 'number' && Number.isFinite(timeMs))) {
    throw optionValueError('timeMs', timeMs, 'a finite number of milliseconds (or undefined)');
  }
}

/** True for a loop a latch can subscribe to (a FixedLoop or an adapter's loop). */
export function isLoop(value: unknown): value is FixedLoop {
  try {
    const loop = value as FixedLoop;
    return (
      typeof loop === 'object' &&
      loop !== null &&
      typeof loop.onFixedUpdate === 'function' &&
      typeof loop.onFrameStart === 'function'
    );
  } catch {
    return false; // a Proxy whose traps throw
  }
}
