/**
 * The server's queue of one client's input: commands arrive from the network whenever they do,
 * each stamped with the server tick it is for, and {@link TickInputQueue.deliver} hands each
 * tick exactly its events.
 *
 * The rules (docs/multiplayer.md, "The tick contract"):
 * - **On time**: a command for a tick that has not run yet waits and is delivered in that tick.
 * - **Late**: a command for a tick that already ran is delivered in the next tick that runs
 *   (its events keep their order, ahead of that tick's own), and counted in `stats.late`. The
 *   server never rewinds for one client's input; the client's prediction is corrected by the
 *   state the server sends back.
 * - **Duplicate**: a second command for a tick already received is dropped and counted
 *   (`stats.duplicates`): transports that resend (redundant inputs over UDP) are safe.
 * - **Early**: a command more than `maxLeadTicks` ahead of the next tick is refused and counted
 *   (`stats.early`): a client cannot make the server hold unbounded input.
 * - **Invalid**: anything that is not a well-formed command is refused and counted
 *   (`stats.invalid`); the queue never throws on network input.
 * - **One change per key per tick**: an event whose key already changed in its tick moves to the
 *   next tick (`stats.deferred`), as in the latch.
 */
import { optionError } from '../options.ts';
import {
  type InputCommand,
  isTickInputEvent,
  type TickInputEvent,
  type TickInputState,
} from './tick-input.ts';

/** Options of a {@link TickInputQueue}. */
export interface TickInputQueueOptions {
  /**
   * How far ahead of the next tick a command may be, in ticks; further ones are refused. Two
   * seconds at 60 Hz covers any client whose prediction leads by a round trip.
   * @defaultValue 120
   */
  maxLeadTicks?: number;
  /**
   * Most events one command may carry; a larger one is refused as invalid.
   * @defaultValue 64
   */
  maxEventsPerCommand?: number;
}

/** What {@link TickInputQueue.receive} did with a command. */
export type InputReceipt = 'queued' | 'late' | 'duplicate' | 'early' | 'invalid';

/** Counts of a {@link TickInputQueue}, updated in place. */
export interface TickInputQueueStats {
  /** Commands accepted (on time or late). */
  readonly received: number;
  /** Commands that arrived after their tick ran and were delivered in a later tick. */
  readonly late: number;
  /** Commands for a tick already received, dropped. */
  readonly duplicates: number;
  /** Commands too far ahead, refused. */
  readonly early: number;
  /** Malformed commands, refused. */
  readonly invalid: number;
  /** Events moved to the next tick because their key already changed in theirs. */
  readonly deferred: number;
}

const DEFAULT_MAX_LEAD_TICKS = 120;
const DEFAULT_MAX_EVENTS = 64;

/**
 * One client's input on the server; see the module doc for the rules.
 *
 * @example
 * ```ts
 * const queue = new TickInputQueue();
 * const input = new TickInputState();
 * room.onMessage('input', (command) => queue.receive(command, loop.tick));
 * loop.onFixedUpdate((dt, tick) => {
 *   queue.deliver(tick, input);
 *   step(player, input, dt);
 * }, { priority: -1 });
 * ```
 */
export class TickInputQueue {
  readonly #maxLead: number;
  readonly #maxEvents: number;
  /** Events waiting, by the tick they are for. */
  readonly #waiting = new Map<number, TickInputEvent[]>();
  /** Ticks received, so a second command for one is a duplicate (see `#seenTicks`). */
  readonly #seen: Float64Array;
  /** Late and deferred events, delivered first in the next tick. */
  #carry: TickInputEvent[] = [];
  #spare: TickInputEvent[] = [];
  #next = 0;
  #newest = -1;
  readonly #stats = { received: 0, late: 0, duplicates: 0, early: 0, invalid: 0, deferred: 0 };

  /** @throws RangeError naming the option when an option is not a whole number ≥ 1. */
  constructor(options: TickInputQueueOptions = {}) {
    this.#maxLead = wholeOption('maxLeadTicks', options.maxLeadTicks ?? DEFAULT_MAX_LEAD_TICKS);
    this.#maxEvents = wholeOption(
      'maxEventsPerCommand',
      options.maxEventsPerCommand ?? DEFAULT_MAX_EVENTS,
    );
    // Every tick that can still be waiting fits: the lead ahead, and as many behind.
    this.#seen = new Float64Array(2 * this.#maxLead + 2).fill(-1);
  }

  /**
   * Takes one command from the network. `nextTick` is the server's next tick to run (the loop's
   * `tick` outside a step). Never throws; see {@link InputReceipt} and the module doc.
   */
  receive(command: unknown, nextTick: number): InputReceipt {
    const stats = this.#stats;
    if (!this.#wellFormed(command)) {
      stats.invalid++;
      return 'invalid';
    }
    const { tick, events } = command as InputCommand;
    if (nextTick > this.#next) this.#next = nextTick;
    if (tick > this.#next + this.#maxLead) {
      stats.early++;
      return 'early';
    }
    const slot = tick % this.#seen.length;
    if (this.#seen[slot] === tick || tick <= this.#newest - this.#seen.length) {
      // Received already, or so old its slot was reused: a resend either way.
      stats.duplicates++;
      return 'duplicate';
    }
    this.#seen[slot] = tick;
    if (tick > this.#newest) this.#newest = tick;
    stats.received++;
    if (tick < this.#next) {
      stats.late++;
      for (const event of events) this.#carry.push(event);
      return 'late';
    }
    if (events.length > 0) this.#waiting.set(tick, events.slice());
    return 'queued';
  }

  /**
   * Starts tick `tick` of `into` (`beginTick`) and applies its events: those carried from
   * earlier ticks first, then the tick's own. Call it once per tick, in tick order, before the
   * simulation reads `into`.
   */
  deliver(tick: number, into: TickInputState): void {
    into.beginTick();
    this.#next = tick + 1;
    const carried = this.#carry;
    this.#carry = this.#spare;
    for (const event of carried) this.#apply(event, into);
    carried.length = 0;
    this.#spare = carried;
    const own = this.#waiting.get(tick);
    if (own !== undefined) {
      this.#waiting.delete(tick);
      for (const event of own) this.#apply(event, into);
    }
    // Commands for ticks that were skipped (`deliver` not called for them) count as late.
    for (const [at, events] of this.#waiting) {
      if (at >= tick) continue;
      this.#waiting.delete(at);
      this.#stats.late++;
      for (const event of events) this.#apply(event, into);
    }
  }

  /** The newest tick a command was received for (-1 before the first). */
  get newestTick(): number {
    return this.#newest;
  }

  /** Commands waiting for their tick. */
  get pending(): number {
    return this.#waiting.size;
  }

  /** Running counts; see {@link TickInputQueueStats}. */
  get stats(): TickInputQueueStats {
    return this.#stats;
  }

  #apply(event: TickInputEvent, into: TickInputState): void {
    if (!into.apply(event)) {
      this.#stats.deferred++;
      this.#carry.push(event);
    }
  }

  #wellFormed(command: unknown): boolean {
    if (command === null || typeof command !== 'object') return false;
    const { tick, events } = command as { tick?: unknown; events?: unknown };
    if (typeof tick !== 'number' || !Number.isSafeInteger(tick) || tick < 0) return false;
    if (!Array.isArray(events) || events.length > this.#maxEvents) return false;
    return events.every(isTickInputEvent);
  }
}

function wholeOption(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw optionError(name, value, 'a whole number ≥ 1');
  }
  return value;
}
