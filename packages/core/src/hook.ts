/** Options of a hook subscription. */
export interface ListenerOptions {
  /**
   * Lower runs first; ties run in subscription order. Roblox's `BindToRenderStep` rides on it.
   * @defaultValue 0
   */
  priority?: number;
}

/** Removes the listener it was returned for. Calling it twice is harmless. */
export type Unsubscribe = () => void;

interface Entry<F> {
  readonly fn: F;
  readonly priority: number;
  readonly order: number;
}

/** Receives the error thrown by a listener, with the name of the hook it came from. */
export type ErrorSink = (error: unknown, source: string) => void;

let nextOrder = 0;

/** A value for an error message; never throws (a value whose `String()` throws is shown by type). */
function showValue(value: unknown): string {
  try {
    return typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    return typeof value;
  }
}

/**
 * What {@link Hook.run} is while a hook has no listener: the dispatch compares with it and
 * skips the call (docs/performance.md, "The loop").
 */
export function nothing(): void {}

/**
 * An ordered list of listeners for one hook.
 *
 * Copy-on-write: subscribing or unsubscribing builds a new array, so a dispatch that is under way
 * keeps iterating the snapshot it started with. A change made during dispatch therefore takes
 * effect from the next dispatch and never skips or repeats another listener; dispatch itself
 * allocates nothing.
 *
 * {@link run} is the one fast path for dispatch (docs/performance.md, "The loop"): the listener
 * itself while there is exactly one, so the caller's call site is monomorphic and V8 inlines the
 * listener with its number arguments unboxed; otherwise {@link emit} or a no-op.
 */
export class Hook<F extends (...args: never[]) => unknown> {
  /** The hook's public name, used in error reports (`onFixedUpdate`, …). */
  readonly name: string;
  #entries: readonly Entry<F>[] = [];
  /** The listeners' functions in dispatch order, parallel to `#entries` (one load per call). */
  #fns: readonly F[] = [];
  #sink: ErrorSink;

  /**
   * Dispatches to every listener: the single listener itself (which may throw: the caller
   * reports it with {@link report}), {@link emit} bound to this hook when there are several (it
   * reports errors itself and never throws), or a no-op. Replaced when the listeners change.
   */
  run: F;
  readonly #emitAll: F;

  /** @param name used in error reports; @param sink receives listener errors. */
  constructor(name: string, sink: ErrorSink) {
    this.name = name;
    this.#sink = sink;
    this.#emitAll = ((a?: unknown, b?: unknown) => this.emit(a, b)) as unknown as F;
    this.run = nothing as unknown as F;
  }

  /** The listeners in dispatch order (a snapshot: never mutated, replaced on change). */
  get fns(): readonly F[] {
    return this.#fns;
  }

  /** Sends a listener's error to the sink, as `emit` does. */
  report(error: unknown): void {
    this.#sink(error, this.name);
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.#entries.length;
  }

  /** Adds `fn`; returns the function that removes it. */
  add(fn: F, options?: ListenerOptions): Unsubscribe {
    if (typeof fn !== 'function') {
      throw new TypeError(`fixedtick: ${this.name} expects a function, got ${typeof fn}`);
    }
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw new RangeError(
        `fixedtick: ${this.name} options must be an object such as { priority: 10 }, got ${showValue(options)}`,
      );
    }
    // only a missing priority means the default: null is a mistake, not "none"
    const priority = options?.priority === undefined ? 0 : options.priority;
    if (typeof priority !== 'number' || Number.isNaN(priority)) {
      throw new RangeError(
        `fixedtick: option "priority" must be a number, got ${showValue(priority)}`,
      );
    }
    const entry: Entry<F> = { fn, priority, order: nextOrder++ };
    const next = this.#entries.slice();
    let i = next.length;
    while (i > 0 && next[i - 1].priority > priority) i--;
    next.splice(i, 0, entry);
    this.#set(next);
    return () => {
      const at = this.#entries.indexOf(entry);
      if (at < 0) return;
      const rest = this.#entries.slice();
      rest.splice(at, 1);
      this.#set(rest);
    };
  }

  #set(entries: Entry<F>[]): void {
    this.#entries = entries;
    this.#fns = entries.map((e) => e.fn);
    this.run =
      entries.length === 1
        ? entries[0].fn
        : entries.length === 0
          ? (nothing as unknown as F)
          : this.#emitAll;
  }

  /** Removes every listener, including from a dispatch that is under way (dispose). */
  clear(): void {
    this.#set([]);
    this.#generation++;
  }

  #generation = 0;

  /** Calls every listener with `(a, b)`; an error goes to the sink and the others still run. */
  emit(a?: unknown, b?: unknown): void {
    const fns = this.#fns as unknown as readonly ((x: unknown, y: unknown) => void)[];
    const generation = this.#generation;
    let i = 0;
    // One try around the whole run (cheaper than one per call); after a throw, resume with the
    // next listener.
    while (i < fns.length) {
      try {
        for (; i < fns.length && generation === this.#generation; i++) fns[i](a, b);
        return;
      } catch (error) {
        i++;
        this.#sink(error, this.name);
      }
    }
  }
}
