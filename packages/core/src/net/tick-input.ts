/**
 * Input as the network carries it: the events one tick delivered, stamped with that tick, and the
 * per-tick key state they build — the same answers an {@link InputLatch} gives inside
 * `fixedUpdate`, rebuilt on the server and in a client's replay.
 *
 * Why: a server runs each client's simulation code on the client's input, and a predicting
 * client runs the same code again when it rewinds. Both must see exactly the `pressed` /
 * `released` / `held` / pointer answers the client's latch gave when the tick first ran, or the
 * replayed states are not the server's. The latch already stamps every event with the tick it is
 * delivered in (`latch.onInput`); a {@link TickInputState} applies those events tick by tick with
 * the latch's rules, so the three places agree bit for bit.
 *
 * Rules (the latch's, docs/input-and-determinism.md):
 * - `pressed(key)` is true in the tick of the press, `released(key)` in the tick of the release,
 *   `held(key)` from the press tick up to the release tick (exclusive).
 * - A key changes at most once per tick: {@link TickInputState.apply} refuses a second change
 *   of the same key in one tick (returns `false`) and the caller delivers it in the next tick.
 * - A press of a key already held and a release of a key not held change nothing.
 * - The pointer position is the last `move` delivered up to and including this tick.
 */
import type { InputLatch } from '../entries/input.ts';
import { INPUT_MAX_KEYS } from '../entries/input.ts';
import { isKeyName } from '../input/input-limits.ts';

/**
 * What simulation code reads of input inside a fixed step: the part of {@link InputLatch} that a
 * server and a replay can answer too. Write the shared step against this type, and pass the
 * latch itself, a {@link TickInputState}, or a prediction's input.
 */
export interface TickInput {
  /** True in exactly one tick per press: the tick it was delivered in. */
  pressed(key: string): boolean;
  /** True in exactly one tick per release. */
  released(key: string): boolean;
  /** True from the tick of the press up to the tick of the release (exclusive). */
  held(key: string): boolean;
  /** The pointer's x as of this tick. */
  readonly pointerX: number;
  /** The pointer's y as of this tick. */
  readonly pointerY: number;
}

/**
 * One delivered input event as it travels: `['press', key]`, `['release', key]` or
 * `['move', x, y]` (the shape of an `InputRecording`'s events, without the tick).
 */
export type TickInputEvent =
  | readonly ['press', string]
  | readonly ['release', string]
  | readonly ['move', number, number];

/**
 * The input of one client for one tick of the server: every event the client's latch delivered
 * in that tick (possibly none). A client sends one per tick it simulates; an empty `events`
 * still tells the server the tick's input is complete.
 */
export interface InputCommand {
  /** The server tick the events are for (the tick the client predicted with them). */
  readonly tick: number;
  /** The events, in delivery order. */
  readonly events: readonly TickInputEvent[];
}

/**
 * True when `event` is a well-formed {@link TickInputEvent}: a known kind, a key name of at most
 * 256 characters, finite pointer coordinates. Network input is checked with this before use.
 */
export function isTickInputEvent(event: unknown): event is TickInputEvent {
  if (!Array.isArray(event)) return false;
  const kind = event[0];
  if (kind === 'press' || kind === 'release') return event.length === 2 && isKeyName(event[1]);
  return (
    kind === 'move' &&
    event.length === 3 &&
    typeof event[1] === 'number' &&
    typeof event[2] === 'number' &&
    Number.isFinite(event[1]) &&
    Number.isFinite(event[2])
  );
}

/**
 * The key state of one input stream, advanced one tick at a time: `beginTick()`, then
 * `apply(event)` for each event delivered in the tick, then the simulation reads it as a
 * {@link TickInput}. See the module doc for the rules.
 *
 * @example
 * ```ts
 * const input = new TickInputState();
 * input.beginTick();
 * input.apply(['press', 'Space']);
 * input.pressed('Space'); // true this tick
 * input.beginTick();
 * input.pressed('Space'); // false; input.held('Space') is still true
 * ```
 */
export class TickInputState implements TickInput {
  readonly #held = new Set<string>();
  readonly #pressed = new Set<string>();
  readonly #released = new Set<string>();
  #x = 0;
  #y = 0;

  /** Starts the next tick: the edges (`pressed`, `released`) of the last one are cleared. */
  beginTick(): void {
    this.#pressed.clear();
    this.#released.clear();
  }

  /**
   * Applies one event to the current tick. Returns `false`, changing nothing, when the event's
   * key already changed in this tick (deliver it in the next tick), or when a press would hold
   * more than `INPUT_MAX_KEYS` keys; `true` otherwise (including presses of held keys and
   * releases of keys not held, which change nothing).
   */
  apply(event: TickInputEvent): boolean {
    if (event[0] === 'move') {
      this.#x = event[1];
      this.#y = event[2];
      return true;
    }
    const key = event[1];
    if (this.#pressed.has(key) || this.#released.has(key)) return false;
    if (event[0] === 'press') {
      if (this.#held.has(key)) return true;
      if (this.#held.size >= INPUT_MAX_KEYS) return false;
      this.#held.add(key);
      this.#pressed.add(key);
    } else if (this.#held.delete(key)) {
      this.#released.add(key);
    }
    return true;
  }

  /** Makes this state equal to `other` (a rewind's starting point). */
  copyFrom(other: TickInputState): void {
    copySet(this.#held, other.#held);
    copySet(this.#pressed, other.#pressed);
    copySet(this.#released, other.#released);
    this.#x = other.#x;
    this.#y = other.#y;
  }

  /** Releases nothing and forgets everything: no key held, pointer at (0, 0). */
  clear(): void {
    this.#held.clear();
    this.beginTick();
    this.#x = 0;
    this.#y = 0;
  }

  /** {@inheritDoc TickInput.pressed} */
  pressed(key: string): boolean {
    return this.#pressed.has(key);
  }

  /** {@inheritDoc TickInput.released} */
  released(key: string): boolean {
    return this.#released.has(key);
  }

  /** {@inheritDoc TickInput.held} */
  held(key: string): boolean {
    return this.#held.has(key);
  }

  /** {@inheritDoc TickInput.pointerX} */
  get pointerX(): number {
    return this.#x;
  }

  /** {@inheritDoc TickInput.pointerY} */
  get pointerY(): number {
    return this.#y;
  }

  /** The keys held now, in the order they were pressed. */
  get heldKeys(): readonly string[] {
    return [...this.#held];
  }
}

function copySet(into: Set<string>, from: Set<string>): void {
  into.clear();
  for (const key of from) into.add(key);
}
