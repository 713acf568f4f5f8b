/**
 * The input latch's key table: one slot per key name, and per slot the three views of that key —
 * live (what the sources said, as it arrives), frame (the live view as it stood when the frame
 * began) and tick (what the simulation has been given). Slots live in typed arrays, so pressing,
 * delivering and the per-frame pass allocate nothing; a released key gives its slot back when
 * room is needed, so the table stays small whatever keys come and go
 * (`docs/input-and-determinism.md#limits`).
 */
import { describeValue } from './describe-value.ts';
import { grown } from './grown.ts';
import { checkKey, INPUT_MAX_KEYS } from './input-limits.ts';

/** A tick that never comes: a key never pressed, released or changed. */
export const NEVER = Number.NEGATIVE_INFINITY;
const INITIAL_KEYS = 32;

/** Key slots and their live, frame and tick views (internal to the input module). */
export class KeyTable {
  /** The slot of each key name the table holds. */
  readonly slots = new Map<string, number>();
  /** The key name of each slot (`''` when free). */
  readonly names: string[] = [];
  /** Slots below this have been used: per-frame passes stop here. */
  top = 0;
  /** Slots holding a key now. */
  used = 0;
  #capacity = INITIAL_KEYS;
  #free = new Int32Array(INITIAL_KEYS);
  #freeCount = 0;

  // Live view: what the sources said, as it arrives.
  liveDown = new Uint8Array(INITIAL_KEYS);
  livePressed = new Uint8Array(INITIAL_KEYS);
  liveReleased = new Uint8Array(INITIAL_KEYS);
  // Frame view: the live view as it stood at the start of the frame.
  frameDown = new Uint8Array(INITIAL_KEYS);
  framePressed = new Uint8Array(INITIAL_KEYS);
  frameReleased = new Uint8Array(INITIAL_KEYS);
  // Tick view: what the simulation has been given.
  held = new Uint8Array(INITIAL_KEYS);
  pressTick = new Float64Array(INITIAL_KEYS).fill(NEVER);
  releaseTick = new Float64Array(INITIAL_KEYS).fill(NEVER);
  /** The last tick in which the key changed state or held an event back for a later tick. */
  busyTick = new Float64Array(INITIAL_KEYS).fill(NEVER);
  /** Events of the key waiting in the queue. */
  queued = new Int32Array(INITIAL_KEYS);

  /** The slot of `key`, or -1 for a key the table does not hold (throwing for a non-key). */
  slotOf(key: string): number {
    const k = this.slots.get(key);
    if (k !== undefined) return k;
    checkKey(key);
    return -1;
  }

  /**
   * A slot for `key` (a valid key name the table does not hold yet). `tick` is the loop's tick:
   * keys that changed since the tick before it keep their slots, for the queries about them.
   */
  intern(key: string, tick: number): number {
    if (this.#freeCount === 0 && this.top === this.#capacity) this.#makeRoom(key, tick);
    const k = this.#freeCount > 0 ? this.#free[--this.#freeCount] : this.top++;
    this.slots.set(key, k);
    this.names[k] = key;
    this.used++;
    return k;
  }

  /** The slot of `key`, interning it if new. */
  slotFor(key: string, tick: number): number {
    return this.slots.get(key) ?? this.intern(key, tick);
  }

  /** The frame begins: the live view becomes the frame view, and the live edges are cleared. */
  beginFrame(): void {
    const n = this.top;
    for (let k = 0; k < n; k++) {
      this.frameDown[k] = this.liveDown[k];
      this.framePressed[k] = this.livePressed[k];
      this.frameReleased[k] = this.liveReleased[k];
      this.livePressed[k] = 0;
      this.liveReleased[k] = 0;
    }
  }

  /** Every key up and unchanged, with nothing queued (a replay takes over). */
  clearTicks(): void {
    const n = this.top;
    for (let k = 0; k < n; k++) {
      this.held[k] = 0;
      this.liveDown[k] = 0;
      this.queued[k] = 0;
      this.pressTick[k] = NEVER;
      this.releaseTick[k] = NEVER;
      this.busyTick[k] = NEVER;
    }
  }

  /**
   * Every slot is taken: forget the keys that no query can answer true for any more, and grow
   * the table if that freed less than a quarter of it (so a game's own keys settle into their
   * slots and are not forgotten and re-learnt over and over).
   */
  #makeRoom(key: string, tick: number): void {
    const freed = this.#forgetReleased(tick);
    if (freed * 4 >= this.#capacity) return;
    if (this.#capacity < INPUT_MAX_KEYS) this.#grow();
    else if (freed === 0) {
      throw new RangeError(
        `fixedtick: an InputLatch tracks at most ${INPUT_MAX_KEYS} keys at once (down, waiting for a tick or changed in the last tick); ${describeValue(key)} would be one more`,
      );
    }
  }

  /** Frees the slot of every key that is up, has no event waiting and changed two ticks ago or more. */
  #forgetReleased(tick: number): number {
    // Tick queries answer for the running tick or the last one that ran: tick - 1 or later.
    const oldest = tick - 1;
    let freed = 0;
    for (let k = 0; k < this.top; k++) {
      const name = this.names[k];
      if (
        name === '' ||
        this.queued[k] !== 0 ||
        this.busyTick[k] >= oldest ||
        (this.liveDown[k] | this.livePressed[k] | this.liveReleased[k] | this.held[k]) !== 0 ||
        (this.frameDown[k] | this.framePressed[k] | this.frameReleased[k]) !== 0
      ) {
        continue;
      }
      this.slots.delete(name);
      this.names[k] = '';
      this.pressTick[k] = NEVER;
      this.releaseTick[k] = NEVER;
      this.busyTick[k] = NEVER;
      this.#free[this.#freeCount++] = k;
      this.used--;
      freed++;
    }
    return freed;
  }

  #grow(): void {
    const size = this.#capacity * 2;
    this.liveDown = grown(this.liveDown, size);
    this.livePressed = grown(this.livePressed, size);
    this.liveReleased = grown(this.liveReleased, size);
    this.frameDown = grown(this.frameDown, size);
    this.framePressed = grown(this.framePressed, size);
    this.frameReleased = grown(this.frameReleased, size);
    this.held = grown(this.held, size);
    this.pressTick = grown(this.pressTick, size, NEVER);
    this.releaseTick = grown(this.releaseTick, size, NEVER);
    this.busyTick = grown(this.busyTick, size, NEVER);
    this.queued = grown(this.queued, size);
    this.#free = grown(this.#free, size);
    this.#capacity = size;
  }
}
