/**
 * What can go wrong with a physics worker, as the main loop's `onError` hears it: an error thrown
 * by the worker's step code (`'step'`, with the worker's stack), a worker that stopped
 * (`'stopped'`: it exited or was terminated from outside) or one that fell behind past the hang
 * limit (`'hung'`). Errors wait here until the next frame, where the loop reports them in order
 * (at most {@link MAX_PENDING_FAULTS} kept; the rest are counted).
 */

/** Kinds of {@link WorkerPhysicsError}. */
export type WorkerFault = 'step' | 'stopped' | 'hung';

/** Faults kept between two frames; a worker throwing faster than frames are drawn loses the rest. */
export const MAX_PENDING_FAULTS = 16;

/**
 * An error of a physics worker, reported to the main loop's `onError` (source
 * `adapter.beginFrame`). `kind` says which: `'step'` — the worker's code threw at `tick` (`stack`
 * is the worker's); `'stopped'` — the worker is gone (`cause`: the uncaught error that ended it,
 * if any); `'hung'` — the worker has published nothing for `hangTicks` ticks. A stopped or hung
 * worker is reported once; its bodies keep their last poses.
 */
export class WorkerPhysicsError extends Error {
  /** Which fault. */
  readonly kind: WorkerFault;
  /** The tick the worker was at (the tick that threw, for `'step'`). */
  readonly tick: number;

  /** Made by `WorkerPhysics`. @internal */
  constructor(kind: WorkerFault, tick: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkerPhysicsError';
    this.kind = kind;
    this.tick = tick;
  }
}

/** The faults waiting for the next frame. @internal */
export class FaultQueue {
  readonly #pending: WorkerPhysicsError[] = [];
  /** Faults dropped because {@link MAX_PENDING_FAULTS} were waiting. */
  dropped = 0;

  add(fault: WorkerPhysicsError): void {
    if (this.#pending.length >= MAX_PENDING_FAULTS) this.dropped++;
    else this.#pending.push(fault);
  }

  /** Throws the oldest waiting fault, if any (the loop reports it and goes on). */
  throwNext(): void {
    const fault = this.#pending.shift();
    if (fault !== undefined) throw fault;
  }
}

/** The error a worker's `{ type: 'error' }` message describes, with the worker's stack. */
export function stepError(
  tick: number,
  name: string,
  message: string,
  stack: string,
): WorkerPhysicsError {
  const error = new WorkerPhysicsError(
    'step',
    tick,
    `fixedtick: the physics worker's code threw at tick ${tick}: ${name}: ${message}`,
  );
  error.stack = `${error.name}: ${error.message}\n  in the worker:\n${stack}`;
  return error;
}
