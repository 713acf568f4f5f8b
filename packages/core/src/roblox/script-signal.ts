/**
 * Roblox's `RBXScriptSignal` / `RBXScriptConnection`: `signal.Connect(fn)` returns a connection
 * whose `Disconnect()` removes `fn` (`:Connect` in Luau becomes `.Connect` here).
 */
import type { Unsubscribe } from '../hook.ts';

/** What `Connect` returns (Roblox's `RBXScriptConnection`). */
export class RBXScriptConnection {
  #off: Unsubscribe | undefined;

  /** @param off removes the listener; called at most once. */
  constructor(off: Unsubscribe) {
    this.#off = off;
  }

  /** True until `Disconnect()` is called. */
  get Connected(): boolean {
    return this.#off !== undefined;
  }

  /** Stops the listener. Calling it again does nothing. */
  Disconnect(): void {
    const off = this.#off;
    this.#off = undefined;
    off?.();
  }
}

/**
 * A Roblox event (`RBXScriptSignal`) backed by one of the loop's hooks. `subscribe` adds the
 * wrapped listener to the loop and returns its connection.
 */
export class RBXScriptSignal<Args extends unknown[]> {
  readonly #subscribe: (fn: (...args: Args) => void) => RBXScriptConnection;
  readonly #name: string;

  /** @param name used in error messages; @param subscribe adds a listener to the loop. */
  constructor(name: string, subscribe: (fn: (...args: Args) => void) => RBXScriptConnection) {
    this.#name = name;
    this.#subscribe = subscribe;
  }

  /** Calls `fn` every time the event fires, until the connection is disconnected. */
  Connect(fn: (...args: Args) => void): RBXScriptConnection {
    if (typeof fn !== 'function') {
      throw new TypeError(`fixedtick: ${this.#name}.Connect expects a function, got ${typeof fn}`);
    }
    return this.#subscribe(fn);
  }

  /** Calls `fn` the next time the event fires, then disconnects. */
  Once(fn: (...args: Args) => void): RBXScriptConnection {
    if (typeof fn !== 'function') {
      throw new TypeError(`fixedtick: ${this.#name}.Once expects a function, got ${typeof fn}`);
    }
    const connection: RBXScriptConnection = this.#subscribe((...args: Args) => {
      connection.Disconnect();
      fn(...args);
    });
    return connection;
  }
}
