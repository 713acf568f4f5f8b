/**
 * Virtual time for a `nodeDriver`: a clock and a timer queue that move only when the test runs
 * them. `latencyMs` makes every timer fire that much after its due time (a busy event loop).
 */
import type { NodeScheduler } from '@fixedtick/core/node';

interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

/** See the module doc. */
export class FakeTimers implements NodeScheduler {
  now = 1_000;
  latencyMs = 0;
  #timers: Timer[] = [];
  #nextId = 1;

  /** The clock to inject as `now`. */
  readonly clock = (): number => this.now;

  setTimeout(callback: () => void, delayMs: number): unknown {
    const id = this.#nextId++;
    this.#timers.push({ id, due: this.now + delayMs + this.latencyMs, fn: callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Timers armed and not yet fired. */
  get pending(): number {
    return this.#timers.length;
  }

  /**
   * Fires every timer due in the next `ms` in order, moving the clock to each; after each one
   * awaits `between()` (to let real I/O run, e.g. sockets flush).
   */
  async runFor(ms: number, between: () => Promise<unknown>): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.due - b.due || a.id - b.id);
      const next = this.#timers[0];
      if (next === undefined || next.due > end) break;
      this.#timers.shift();
      this.now = Math.max(this.now, next.due);
      next.fn();
      await between();
    }
    this.now = end;
  }
}
