/**
 * `WorkerPhysics`'s options and how the transport is chosen (docs/rapier.md, "Physics in a
 * worker").
 */
import { optionError } from '@fixedtick/core';
import type { InputLatch } from '@fixedtick/core/input';

/** How poses travel from the worker: a shared ring, or transferred message packets. */
export type WorkerTransport = 'shared' | 'message';

/** Options of `WorkerPhysics`. */
export interface WorkerPhysicsOptions {
  /**
   * The input latch whose events reach the worker with each tick (`scope.input` there): the
   * events the latch delivers to tick N travel with tick N's step.
   */
  input?: InputLatch;
  /**
   * `'shared'`: a `SharedArrayBuffer` ring (needs a cross-origin isolated page, or Node);
   * `'message'`: a transferred packet per tick; `'auto'`: shared where it can be.
   * @defaultValue `'auto'`
   */
  transport?: WorkerTransport | 'auto';
  /**
   * Bodies a frame has room for at first; the worker makes room for more when it publishes more.
   * @defaultValue 1024
   */
  capacity?: number;
  /**
   * Seconds behind the loop's present the bodies are drawn. The worker's tick N is ready one
   * frame after the main loop ran tick N, so the default draws one step later than main-thread
   * mode does (main-thread mode's own interpolation is one step behind).
   * @defaultValue two steps (`2 * fixedDelta`, following the loop's step)
   */
  delay?: number;
  /**
   * Ticks the worker may fall behind the loop (steps sent, not yet published) before it is
   * reported hung (once; `physics.status` is `'hung'` until it catches up). Counted on the loop's
   * clock, from the worker's `ready`.
   * @defaultValue 60
   */
  hangTicks?: number;
}

const KNOWN = new Set(['input', 'transport', 'capacity', 'delay', 'hangTicks']);

/** The options, checked, with their defaults. @internal */
export interface CheckedWorkerOptions {
  input: InputLatch | undefined;
  transport: WorkerTransport;
  capacity: number;
  delay: number | undefined;
  hangTicks: number;
}

/** True where a `SharedArrayBuffer` can be shared with a worker. */
export function canShareMemory(): boolean {
  const scope = globalThis as { crossOriginIsolated?: boolean };
  return typeof SharedArrayBuffer === 'function' && scope.crossOriginIsolated !== false;
}

/** Checks `options`; a `RangeError` naming a bad or unknown option. @internal */
export function checkWorkerOptions(options: WorkerPhysicsOptions): CheckedWorkerOptions {
  if (options === null || typeof options !== 'object') {
    throw optionError('options', options, 'an object');
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) {
      throw new RangeError(`fixedtick: unknown option "${key}" (known: ${[...KNOWN].join(', ')})`);
    }
  }
  const { input, transport = 'auto', capacity = 1024, delay, hangTicks = 60 } = options;
  if (input !== undefined && typeof input?.onInput !== 'function') {
    throw new TypeError(optionError('input', input, 'an InputLatch').message);
  }
  if (transport !== 'auto' && transport !== 'shared' && transport !== 'message') {
    throw optionError('transport', transport, "'auto', 'shared' or 'message'");
  }
  if (transport === 'shared' && typeof SharedArrayBuffer !== 'function') {
    throw optionError('transport', transport, "'message' or 'auto' here (no SharedArrayBuffer)");
  }
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > 1 << 24) {
    throw optionError('capacity', capacity, 'a whole number from 1 to 16777216');
  }
  if (delay !== undefined && !(typeof delay === 'number' && delay >= 0 && delay <= 1e9)) {
    throw optionError('delay', delay, 'a number of seconds from 0 to 1e9');
  }
  if (!Number.isInteger(hangTicks) || hangTicks < 1) {
    throw optionError('hangTicks', hangTicks, 'a whole number of ticks ≥ 1');
  }
  return {
    input,
    transport: transport === 'auto' ? (canShareMemory() ? 'shared' : 'message') : transport,
    capacity,
    delay,
    hangTicks,
  };
}
