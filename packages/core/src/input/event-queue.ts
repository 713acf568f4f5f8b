/**
 * The input latch's event queue: presses and releases waiting for a tick, in arrival order, in
 * typed arrays (nothing allocated per event). Each event has a kind, a key slot, a time (ms, with
 * timestamp timing) and the tick it waits for; a tick takes the events due to it, at most one
 * change per key, and keeps the rest in order (`docs/input-and-determinism.md`).
 */
import type { FrameTimeMap } from './frame-time-map.ts';
import { grown } from './grown.ts';
import type { KeyTable } from './key-table.ts';

/** What an input event did: a key went down or up, or the pointer moved. */
export type InputEventKind = 'press' | 'release' | 'move';

/** Kind code of a press in the queue. */
export const PRESS = 0;
/** Kind code of a release in the queue. */
export const RELEASE = 1;
/** The names of the kind codes. */
export const KIND_NAMES: readonly InputEventKind[] = ['press', 'release', 'move'];
/** The tick an event without a mapped time waits for: none, it goes to the next tick. */
const NEXT_TICK = Number.NEGATIVE_INFINITY;
const INITIAL_QUEUE = 64;

/** Events waiting for a tick (internal to the input module). */
export class EventQueue {
  #kind = new Uint8Array(INITIAL_QUEUE);
  #key = new Int32Array(INITIAL_QUEUE);
  #time = new Float64Array(INITIAL_QUEUE);
  /** The tick each event waits for: NEXT_TICK, or NaN while a timed event is not mapped yet. */
  #target = new Float64Array(INITIAL_QUEUE);
  /** Events waiting. */
  length = 0;
  /** Timed events not given a tick yet. */
  unmapped = 0;

  /** Queues an event of key slot `k`; `timeMs` is used when `timed` (timestamp timing). */
  push(kind: number, k: number, timeMs: number | undefined, timed: boolean): void {
    const n = this.length;
    if (n === this.#kind.length) this.#grow();
    this.#kind[n] = kind;
    this.#key[n] = k;
    if (timed && timeMs !== undefined) {
      this.#time[n] = timeMs;
      this.#target[n] = Number.NaN;
      this.unmapped++;
    } else {
      this.#target[n] = NEXT_TICK;
    }
    this.length = n + 1;
  }

  /** Gives each timed event that arrived since the last mapping its tick. */
  mapPending(map: FrameTimeMap): void {
    map.map(this.#time, this.#target, this.length);
    this.unmapped = 0;
  }

  /** Drops every event (a replay takes over). */
  clear(): void {
    this.length = 0;
    this.unmapped = 0;
  }

  /**
   * Hands tick `tick` its events, calling `apply(kind, k)` for each in arrival order, and keeps
   * the others: an event for a later tick, and any event of a key that already changed in this
   * tick (with its later events behind it), so a key changes at most once per tick.
   */
  deliver(tick: number, keys: KeyTable, apply: (kind: number, k: number) => void): void {
    const kinds = this.#kind;
    const slots = this.#key;
    const times = this.#time;
    const targets = this.#target;
    const busy = keys.busyTick;
    const n = this.length;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const k = slots[i];
      if (busy[k] === tick || targets[i] > tick) {
        busy[k] = tick;
        kinds[kept] = kinds[i];
        slots[kept] = k;
        times[kept] = times[i];
        targets[kept] = targets[i];
        kept++;
      } else {
        keys.queued[k]--;
        apply(kinds[i], k);
      }
    }
    this.length = kept;
  }

  #grow(): void {
    const size = this.#kind.length * 2;
    this.#kind = grown(this.#kind, size);
    this.#key = grown(this.#key, size);
    this.#time = grown(this.#time, size);
    this.#target = grown(this.#target, size);
  }
}
