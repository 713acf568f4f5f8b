/**
 * Replay into an input latch: what drives a latch instead of live input while an
 * `InputRecording` plays, and the module-internal surface the recording reaches the latch
 * through. A replay sets the tick view from the recording's start state, applies each recorded
 * event at its tick, and hands the latch back to live input when it ends
 * (`docs/input-and-determinism.md#record-and-replay`).
 */
import type { InputEventKind } from './event-queue.ts';
import type { KeyTable } from './key-table.ts';

/**
 * What drives a latch instead of live input during a replay (internal to the input module).
 * `deliver` is called once per tick with the tick number relative to the replay's start; it
 * applies that tick's events through `apply`, and returns false once the replay is over.
 * @internal
 */
export interface LatchSource {
  deliver(relativeTick: number, apply: LatchApply): boolean;
}

/** Applies one recorded event to a latch (internal to the input module). @internal */
export type LatchApply = (kind: InputEventKind, key: string, x: number, y: number) => void;

/** The state a replay starts from (internal to the input module). @internal */
export interface LatchStart {
  held: readonly string[];
  pointerX: number;
  pointerY: number;
}

/** Module-internal access to a latch, for `InputRecording`. Not part of the public API. @internal */
export const latchInternals = Symbol('fixedtick.latchInternals');

/** The internal control surface behind {@link latchInternals}. @internal */
export interface LatchInternals {
  /** The next tick whose events are not delivered yet. */
  nextTick(): number;
  /** Keys held in the simulation now, and the pointer position it sees. */
  snapshot(): LatchStart;
  /** Hands the latch to `source` from the next tick on (`undefined` gives it back to live input). */
  drive(source: LatchSource | undefined, start?: LatchStart, onEnd?: () => void): void;
}

/** The replay driving a latch, if any (internal to the input module). */
export class LatchReplay {
  /** The recording being played, or `undefined` while live input drives the latch. */
  source: LatchSource | undefined;
  /** The latch tick that is the replay's tick 0. */
  #base = 0;
  #onEnd: (() => void) | undefined;

  /**
   * Starts `source` at latch tick `base`, ending a replay already running first. The keys'
   * tick view is cleared, then set from `start`; the latch sets the pointer.
   */
  begin(
    source: LatchSource,
    base: number,
    keys: KeyTable,
    tick: number,
    start: LatchStart | undefined,
    onEnd: (() => void) | undefined,
  ): void {
    this.#onEnd?.();
    this.source = source;
    this.#onEnd = onEnd;
    this.#base = base;
    keys.clearTicks();
    if (start === undefined) return;
    for (const key of start.held) {
      const k = keys.slotFor(key, tick);
      keys.held[k] = 1;
      keys.liveDown[k] = 1;
    }
  }

  /** Applies tick `tick`'s recorded events; ends the replay after its last tick. */
  deliver(tick: number, keys: KeyTable, apply: LatchApply): void {
    const source = this.source as LatchSource;
    if (!source.deliver(tick - this.#base, apply)) this.end(keys);
  }

  /** Ends the replay (if one runs): live input resumes from the state it left. */
  end(keys: KeyTable): void {
    if (this.source === undefined) return;
    const onEnd = this.#onEnd;
    this.source = undefined;
    this.#onEnd = undefined;
    keys.liveDown.set(keys.held.subarray(0, keys.top));
    onEnd?.();
  }

  /** Forgets the replay without calling its `onEnd` (the latch is disposed). */
  drop(): void {
    this.source = undefined;
    this.#onEnd = undefined;
  }
}
