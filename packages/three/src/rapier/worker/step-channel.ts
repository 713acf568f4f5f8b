/**
 * The step commands over shared memory (the `'shared'` transport): each tick the main thread
 * writes its tick, its `fixedDelta` and how many ordered messages it had posted before it into a
 * ring in a `SharedArrayBuffer`, bumps the written count and wakes the worker
 * (`Atomics.notify`; the worker sleeps in `Atomics.waitAsync`). No message and no allocation per
 * tick on the main thread: the messages that remain (input events, teleports, user messages,
 * syncs) are the rare ones.
 *
 * **Order.** Steps and messages travel on two channels, so each carries what puts it in order:
 * a step, the number of ordered messages posted before it (the worker runs it only once it has
 * received that many); a message, the number of steps written before it (the worker handles it
 * only once it has run that many). So the worker sees everything in the order the main thread
 * sent it, as over one channel.
 *
 * A worker more than {@link STEP_RING} steps behind has its further steps kept on the main
 * thread until there is room (a hung worker is reported long before).
 */

/** `Atomics.waitAsync` (ES2024; not in every browser: Firefox before 145 has none). */
type WaitAsync = (
  cells: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

/** Steps the ring holds: about 68 s of 60 Hz ticks. */
export const STEP_RING = 4096;

/** Int32 cells: steps written (main), steps run (worker); then per slot, messages posted before. */
const WRITTEN = 0;
const DONE = 1;
const HEADER_INTS = 2;

/** Bytes of the channel's buffer. */
function channelBytes(): number {
  return 8 * 2 * STEP_RING + 4 * (HEADER_INTS + STEP_RING);
}

/** The two views of the channel's buffer. */
function views(buffer: SharedArrayBuffer): { numbers: Float64Array; ints: Int32Array } {
  return {
    numbers: new Float64Array(buffer, 0, 2 * STEP_RING),
    ints: new Int32Array(buffer, 8 * 2 * STEP_RING, HEADER_INTS + STEP_RING),
  };
}

/** The main thread's end: writes steps. @internal */
export class StepWriter {
  readonly buffer = new SharedArrayBuffer(channelBytes());
  readonly #numbers: Float64Array;
  readonly #ints: Int32Array;
  /** Steps that found the ring full, as `tick, fixedDelta, posted` triples. */
  readonly #waiting: number[] = [];
  /** Ordered messages posted so far. */
  posted = 0;

  constructor() {
    const { numbers, ints } = views(this.buffer);
    this.#numbers = numbers;
    this.#ints = ints;
  }

  /** Steps written so far (what a message posted now is stamped with). */
  get written(): number {
    return this.#ints[WRITTEN];
  }

  /** Writes the step of `tick` and wakes the worker. */
  write(tick: number, fixedDelta: number): void {
    if (this.#waiting.length > 0 || !this.#put(tick, fixedDelta, this.posted)) {
      this.#waiting.push(tick, fixedDelta, this.posted);
    }
    this.flush();
  }

  /** Writes the steps kept while the ring was full, as far as there is room. */
  flush(): void {
    const waiting = this.#waiting;
    let taken = 0;
    while (
      taken < waiting.length &&
      this.#put(waiting[taken], waiting[taken + 1], waiting[taken + 2])
    ) {
      taken += 3;
    }
    if (taken > 0) waiting.splice(0, taken);
  }

  #put(tick: number, fixedDelta: number, posted: number): boolean {
    const ints = this.#ints;
    const written = ints[WRITTEN];
    if (written - Atomics.load(ints, DONE) >= STEP_RING) return false;
    const slot = written % STEP_RING;
    this.#numbers[2 * slot] = tick;
    this.#numbers[2 * slot + 1] = fixedDelta;
    ints[HEADER_INTS + slot] = posted;
    Atomics.store(ints, WRITTEN, written + 1);
    Atomics.notify(ints, WRITTEN);
    return true;
  }
}

/** A step as the worker reads it. @internal */
export interface ChannelStep {
  tick: number;
  fixedDelta: number;
  /** Ordered messages the main thread had posted before this step. */
  posted: number;
}

/** The worker's end: reads steps, and sleeps until the next is written. @internal */
export class StepReader {
  readonly #numbers: Float64Array;
  readonly #ints: Int32Array;
  readonly #step: ChannelStep = { tick: 0, fixedDelta: 0, posted: 0 };
  #sleeping = false;

  constructor(buffer: SharedArrayBuffer) {
    const { numbers, ints } = views(buffer);
    this.#numbers = numbers;
    this.#ints = ints;
  }

  /** Steps run so far. */
  get done(): number {
    return this.#ints[DONE];
  }

  /** The next step to run (valid until the next call), or `undefined` if none is written. */
  peek(): ChannelStep | undefined {
    const done = this.#ints[DONE];
    if (done >= Atomics.load(this.#ints, WRITTEN)) return undefined;
    const slot = done % STEP_RING;
    const step = this.#step;
    step.tick = this.#numbers[2 * slot];
    step.fixedDelta = this.#numbers[2 * slot + 1];
    step.posted = this.#ints[HEADER_INTS + slot];
    return step;
  }

  /** Marks the step `peek` gave as run. */
  finish(): void {
    Atomics.store(this.#ints, DONE, this.#ints[DONE] + 1);
  }

  /** True where `Atomics.waitAsync` exists: else the main thread sends a `wake` per step. */
  get canSleep(): boolean {
    return typeof (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync === 'function';
  }

  /**
   * Calls `wake` once a step is written after those written now, if `Atomics.waitAsync`
   * exists (else the main thread sends a wake-up message); false if it does not.
   */
  sleep(wake: () => void): boolean {
    const atomics = Atomics as unknown as { waitAsync?: WaitAsync };
    if (typeof atomics.waitAsync !== 'function') return false;
    if (this.#sleeping) return true;
    // steps written but waiting for their messages wake nobody: the messages' arrival does
    const written = Atomics.load(this.#ints, WRITTEN);
    const result = atomics.waitAsync(this.#ints, WRITTEN, written);
    if (!result.async) {
      wake();
      return true;
    }
    this.#sleeping = true;
    void result.value.then(() => {
      this.#sleeping = false;
      wake();
    });
    return true;
  }
}
