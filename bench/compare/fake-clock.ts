/**
 * A controllable display for the comparison: `requestAnimationFrame`, `performance.now()` and
 * `Date.now()` as a browser would give them, but advanced by the harness one frame at a time.
 *
 * Why: every contender is driven the way its docs drive it — from `requestAnimationFrame`
 * callbacks that receive the frame's timestamp — and some read the clock themselves
 * (three's `Timer` at construction, Babylon's `PerformanceMonitor`, cannon-es's sub-step bail
 * out). So the clock must be the same one they read, and it must move only when the harness says.
 *
 * Several contenders may be alive at once (speed comparisons interleave two of them), so each
 * one gets its own {@link FakeDisplay}; the global functions talk to whichever display is
 * running a frame (or is being set up inside {@link FakeDisplay.run}). Outside any display they
 * fall back to the real clock, so nothing else in the process is affected.
 *
 * Babylon.js on Node (no `window`) reads `Date.now()`, which has whole-millisecond resolution;
 * in a browser it reads `performance.now()`. The fake returns the same fractional milliseconds
 * from both, so Babylon sees the timing it would see in a browser.
 */

type FrameCallback = (timestampMs: number) => void;

let active: FakeDisplay | undefined;
let installed = false;
const realPerformanceNow = performance.now.bind(performance);
const realDateNow = Date.now;

/** Installs the global fakes once; they delegate to the active display, else the real clock. */
function install(): void {
  if (installed) return;
  installed = true;
  const g = globalThis as unknown as Record<string, unknown>;
  g.requestAnimationFrame = (cb: FrameCallback): number => {
    if (!active) throw new Error('bench: requestAnimationFrame outside a fake display');
    return active.requestAnimationFrame(cb);
  };
  g.cancelAnimationFrame = (handle: number): void => active?.cancelAnimationFrame(handle);
  Object.defineProperty(performance, 'now', {
    configurable: true,
    writable: true,
    value: () => (active ? active.nowMs : realPerformanceNow()),
  });
  Date.now = () => (active ? active.epochMs + active.nowMs : realDateNow());
}

/** One fake display: a rAF queue and a clock that moves when {@link frame} is called. */
export class FakeDisplay {
  /** Current `performance.now()` in ms. */
  nowMs = 1000;
  /** What `Date.now()` adds to {@link nowMs}. */
  readonly epochMs = 1_700_000_000_000;
  // Two queues (the one filling for the next frame, the one being run), each an array with an
  // explicit count: truncating an array (`length = 0`) frees its backing store and the next push
  // allocates a new one, which would be the harness's allocation, not the contender's.
  #queue: FrameCallback[] = [];
  #handles: number[] = [];
  #count = 0;
  #spare: FrameCallback[] = [];
  #spareHandles: number[] = [];
  #runningHandles: number[] | undefined;
  #runningCount = 0;
  #nextHandle = 1;
  #cancelled = new Set<number>();

  constructor() {
    install();
  }

  /** The `requestAnimationFrame` this display serves. */
  requestAnimationFrame(cb: FrameCallback): number {
    const handle = this.#nextHandle++;
    this.#queue[this.#count] = cb;
    this.#handles[this.#count] = handle;
    this.#count++;
    return handle;
  }

  /** The `cancelAnimationFrame` this display serves. */
  cancelAnimationFrame(handle: number): void {
    const queued = this.#handles.indexOf(handle);
    const running = this.#runningHandles?.indexOf(handle) ?? -1;
    if ((queued >= 0 && queued < this.#count) || (running >= 0 && running < this.#runningCount)) {
      this.#cancelled.add(handle);
    }
  }

  /** Runs `body` with this display as the clock and rAF (setup code that reads the clock). */
  run<T>(body: () => T): T {
    const previous = active;
    active = this;
    try {
      return body();
    } finally {
      active = previous;
    }
  }

  /**
   * Moves the clock to `timestampMs` and runs the callbacks queued for this frame (those queued
   * during it wait for the next frame, as in a browser). Allocates nothing in steady state.
   */
  frame(timestampMs: number): void {
    const previous = active;
    active = this;
    this.nowMs = timestampMs;
    const run = this.#queue;
    const runHandles = this.#handles;
    const n = this.#count;
    this.#queue = this.#spare;
    this.#handles = this.#spareHandles;
    this.#count = 0;
    this.#runningHandles = runHandles;
    this.#runningCount = n;
    try {
      for (let i = 0; i < n; i++) {
        if (this.#cancelled.size > 0 && this.#cancelled.delete(runHandles[i])) continue;
        run[i](timestampMs);
      }
    } finally {
      this.#spare = run;
      this.#spareHandles = runHandles;
      this.#runningHandles = undefined;
      this.#runningCount = 0;
      active = previous;
    }
  }

  /** Drops every queued callback (the contender is done). */
  clear(): void {
    this.#count = 0;
    this.#queue = [];
    this.#handles = [];
    this.#spare = [];
    this.#spareHandles = [];
    this.#cancelled.clear();
  }
}
