/**
 * The storage under a {@link PoseBuffer}: its packed rows, and which slots are in use. Slots are
 * handed out lowest-freed first; the rows grow by doubling; freeing the highest slot in use
 * shortens `size` (passes over the slots stop there), and freeing the last one gives the storage
 * of the peak back (docs/performance.md, "Storage follows what is tracked").
 * @internal
 */
import { POSE_STRIDE, SLERP_CACHE_STRIDE, VELOCITY_STRIDE } from './pose-layout.ts';

/** A slot's mode code for a slot not in use. */
export const FREE = 0;

function grow<T extends Float64Array | Int32Array | Uint8Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}

/** Rows and slots of a pose buffer; see the module doc. */
export class PoseStorage {
  readonly initialCapacity: number;
  capacity = 0;
  /** One past the highest slot in use. */
  size = 0;
  /** Slots in use. */
  count = 0;
  previous = new Float64Array(0);
  current = new Float64Array(0);
  output = new Float64Array(0);
  velocity = new Float64Array(0);
  /** By slot: its mode code, {@link FREE} when not in use. */
  mode = new Uint8Array(0);
  /** By slot: 1 while the velocity row holds an engine's velocity. */
  hasVelocity = new Uint8Array(0);
  /** The slerp cache of the `'interpolate'` kernel (interpolate.ts), by slot. */
  slerp = new Float64Array(0);
  #free = new Int32Array(0);
  #freeCount = 0;

  /** @param capacity slots to allocate up front. */
  constructor(capacity: number) {
    this.initialCapacity = capacity;
    this.#allocate(capacity);
  }

  /** A slot for a new body, with mode code `code` (its rows are left as they were). */
  take(code: number): number {
    let slot = -1;
    // a freed slot at or above `size` was trimmed off the end (see `free`): skip it
    while (this.#freeCount > 0 && slot === -1) {
      const free = this.#free[--this.#freeCount];
      if (free < this.size) slot = free;
    }
    if (slot === -1) {
      if (this.size === this.capacity) this.#grow(this.capacity * 2);
      slot = this.size++;
    }
    this.count++;
    this.mode[slot] = code;
    return slot;
  }

  /** Gives `slot` (in use) back. */
  free(slot: number): void {
    this.mode[slot] = FREE;
    this.hasVelocity[slot] = 0;
    this.count--;
    if (this.count === 0) {
      this.#allocate(this.initialCapacity);
      return;
    }
    if (slot === this.size - 1) {
      let size = slot;
      while (size > 0 && this.mode[size - 1] === FREE) size--;
      this.size = size;
      return;
    }
    if (this.#freeCount === this.#free.length) this.#free = grow(this.#free, this.capacity);
    this.#free[this.#freeCount++] = slot;
  }

  /** Fresh, empty storage for `capacity` slots. */
  #allocate(capacity: number): void {
    this.capacity = capacity;
    this.size = 0;
    this.#freeCount = 0;
    this.previous = new Float64Array(capacity * POSE_STRIDE);
    this.current = new Float64Array(capacity * POSE_STRIDE);
    this.output = new Float64Array(capacity * POSE_STRIDE);
    this.velocity = new Float64Array(capacity * VELOCITY_STRIDE);
    this.mode = new Uint8Array(capacity);
    this.hasVelocity = new Uint8Array(capacity);
    this.#free = new Int32Array(capacity);
    this.slerp = new Float64Array(capacity * SLERP_CACHE_STRIDE).fill(Number.NaN);
  }

  #grow(capacity: number): void {
    this.capacity = capacity;
    this.previous = grow(this.previous, capacity * POSE_STRIDE);
    this.current = grow(this.current, capacity * POSE_STRIDE);
    this.output = grow(this.output, capacity * POSE_STRIDE);
    this.velocity = grow(this.velocity, capacity * VELOCITY_STRIDE);
    this.mode = grow(this.mode, capacity);
    this.hasVelocity = grow(this.hasVelocity, capacity);
    const slerp = new Float64Array(capacity * SLERP_CACHE_STRIDE).fill(Number.NaN);
    slerp.set(this.slerp);
    this.slerp = slerp;
  }
}
