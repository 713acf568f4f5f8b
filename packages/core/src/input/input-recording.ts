/**
 * Deterministic input record and replay.
 *
 * Why: a fixed-step simulation is a function of its inputs per tick. If every input event is
 * stored with the tick it was delivered in, feeding the same events at the same ticks reproduces
 * the run exactly, whatever the frame rate of either run — replays, bug reports, regression
 * tests, lockstep multiplayer. See `docs/input-and-determinism.md` for what "exactly" covers.
 *
 * @example
 * ```ts
 * const rec = new InputRecording();
 * rec.record(latch);                       // … play …
 * const json = JSON.stringify(rec);        // store it
 * InputRecording.fromJSON(json).replay(otherLatch); // same ticks, same simulation
 * ```
 */
import type { Unsubscribe } from '../hook.ts';
import { optionValueError } from './describe-value.ts';
import { grown } from './grown.ts';
import {
  type InputEventKind,
  type InputLatch,
  isInputLatch,
  type LatchApply,
  type LatchSource,
  type LatchStart,
  latchInternals,
} from './input-latch.ts';
import { INPUT_MAX_KEYS, RECORDING_MAX_EVENTS, RECORDING_MAX_TEXT_LENGTH } from './input-limits.ts';
import { readOptions } from './read-options.ts';
import {
  type InputRecordingJSON,
  parseRecording,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedEventJSON,
  toCoordinate,
} from './recording-format.ts';

const KINDS: readonly InputEventKind[] = ['press', 'release', 'move'];
const KIND_CODE: Record<InputEventKind, number> = { press: 0, release: 1, move: 2 };
const INITIAL_EVENTS = 256;

// Upper bounds on the JSON text of a recording, so a live one stops before its JSON could pass
// RECORDING_MAX_TEXT_LENGTH: a tick has at most 16 digits (2^53), a number at most 24 characters
// (`-1.2345678901234567e-308`).
/** Everything but the held keys and the events, with the longest numbers. */
const JSON_HEADER_BOUND = 200;
/** `[tick,"move",x,y],` */
const JSON_MOVE_BOUND = 1 + 16 + 8 + 24 + 1 + 24 + 2;
/** `[tick,"release",` and `],`, around the key's JSON. */
const JSON_KEY_EVENT_BOUND = 1 + 16 + 11 + 2;

/** Options of {@link InputRecording.replay}. */
export interface ReplayOptions {
  /**
   * Called once when the replay ends and live input resumes: after its last tick, when the
   * function `replay` returned is called, or when another replay takes the latch over.
   */
  onEnd?: () => void;
}

/**
 * Input events stamped with the tick they were delivered in. Fill it with {@link record}, save it
 * with `JSON.stringify` ({@link toJSON}), load it with {@link InputRecording.fromJSON}, and feed
 * it back with {@link replay}. Events are kept in typed arrays: recording allocates only when
 * they grow.
 */
export class InputRecording {
  #fixedDelta = 0;
  #length = 0;
  #start: LatchStart = { held: [], pointerX: 0, pointerY: 0 };
  #count = 0;
  #ticks = new Float64Array(INITIAL_EVENTS);
  #kinds = new Uint8Array(INITIAL_EVENTS);
  #keyIndex = new Int32Array(INITIAL_EVENTS);
  #xs = new Float64Array(INITIAL_EVENTS);
  #ys = new Float64Array(INITIAL_EVENTS);
  readonly #keyNames: string[] = [];
  /** `JSON.stringify(name).length` of each key name, by id. */
  readonly #keyJSONLengths: number[] = [];
  readonly #keyIds = new Map<string, number>();
  /** An upper bound on the length of this recording's JSON text. */
  #jsonBound = JSON_HEADER_BOUND;
  #recordingFrom: InputLatch | undefined;
  #base = 0;
  #stopRecording: Unsubscribe | undefined;
  #full = false;

  /**
   * Loads a recording from its JSON text or parsed JSON. Everything is validated first: a
   * malformed recording (not JSON, another `format` or `version`, unsorted ticks, an unknown
   * event kind, a release of a key that is not held, more than {@link RECORDING_MAX_EVENTS}
   * events or {@link INPUT_MAX_KEYS} distinct keys, …) throws an {@link InputRecordingError}
   * saying where, and nothing is created. Sizes are checked before the work proportional to
   * them; text is parsed first (`JSON.parse`, in time proportional to its length).
   */
  static fromJSON(input: string | unknown): InputRecording {
    const data = parseRecording(input);
    const rec = new InputRecording();
    rec.#fixedDelta = data.fixedDelta;
    rec.#length = data.length;
    rec.#start = { held: data.held, pointerX: data.pointer[0], pointerY: data.pointer[1] };
    for (const event of data.events) {
      if (event[1] === 'move') rec.#push(event[0], 'move', '', event[2], event[3]);
      else rec.#push(event[0], event[1], event[2], 0, 0);
    }
    return rec;
  }

  /** Seconds per tick of the loop this was recorded on (0 before anything was recorded). */
  get fixedDelta(): number {
    return this.#fixedDelta;
  }

  /** Ticks covered, from the first tick recorded; grows while recording. */
  get length(): number {
    const latch = this.#recordingFrom;
    return latch === undefined ? this.#length : latch[latchInternals].nextTick() - this.#base;
  }

  /** Events stored. */
  get eventCount(): number {
    return this.#count;
  }

  /** True between {@link record} and {@link stop} (or until the recording is {@link full}). */
  get recording(): boolean {
    return this.#recordingFrom !== undefined;
  }

  /**
   * True when the recording stopped by itself because one more event would have passed
   * {@link RECORDING_MAX_EVENTS} events or {@link INPUT_MAX_KEYS} distinct keys, or could have
   * made its JSON longer than {@link RECORDING_MAX_TEXT_LENGTH}: it then covers the ticks before
   * the one that did not fit, complete.
   */
  get full(): boolean {
    return this.#full;
  }

  /**
   * Starts recording what `latch` delivers, from its next tick on (tick 0 of the recording).
   * Clears anything recorded before. Returns the function that stops (same as {@link stop}).
   * @throws TypeError when `latch` is not an `InputLatch`.
   */
  record(latch: InputLatch): Unsubscribe {
    if (!isInputLatch(latch)) throw optionValueError('latch', latch, 'an InputLatch', TypeError);
    this.stop();
    const internals = latch[latchInternals];
    this.#count = 0;
    this.#length = 0;
    this.#full = false;
    this.#keyNames.length = 0;
    this.#keyJSONLengths.length = 0;
    this.#keyIds.clear();
    this.#jsonBound = JSON_HEADER_BOUND;
    this.#fixedDelta = latch.loop.fixedDelta;
    this.#start = internals.snapshot();
    for (const key of this.#start.held) {
      this.#keyId(key);
      this.#jsonBound += this.#keyJSONLength(key) + 1;
    }
    this.#base = internals.nextTick();
    this.#recordingFrom = latch;
    const off = latch.onInput((tick, kind, key, x, y) => {
      const at = tick - this.#base;
      const newKey = kind !== 'move' && !this.#keyIds.has(key);
      const bound =
        this.#jsonBound +
        (kind === 'move' ? JSON_MOVE_BOUND : JSON_KEY_EVENT_BOUND + this.#keyJSONLength(key));
      if (
        this.#count === RECORDING_MAX_EVENTS ||
        (newKey && this.#keyNames.length === INPUT_MAX_KEYS) ||
        bound > RECORDING_MAX_TEXT_LENGTH
      ) {
        this.#fill(at);
        return;
      }
      this.#jsonBound = bound;
      this.#push(at, kind, key, x, y);
    });
    this.#stopRecording = off;
    return () => {
      if (this.#stopRecording === off) this.stop();
    };
  }

  /** Stops recording; the recording then covers every tick up to the last one that ran. */
  stop(): void {
    const latch = this.#recordingFrom;
    if (latch === undefined) return;
    this.#end(latch[latchInternals].nextTick() - this.#base);
  }

  #end(length: number): void {
    this.#length = length;
    this.#recordingFrom = undefined;
    this.#stopRecording?.();
    this.#stopRecording = undefined;
  }

  /** Full: end the recording before tick `at`, dropping the events of `at` already stored. */
  #fill(at: number): void {
    while (this.#count > 0 && this.#ticks[this.#count - 1] === at) this.#count--;
    this.#full = true;
    this.#end(at);
  }

  /**
   * Feeds the recording into `latch` from its next tick on: the state it started with (held
   * keys, pointer), then each event at its tick. Live input is ignored until the replay ends
   * (after `length` ticks) or the returned function is called. Throws, leaving `latch` as it
   * was, if the loop's `fixedDelta` differs from the recording's — the same events at other
   * ticks would be another simulation.
   * @throws TypeError when `latch` is not an `InputLatch` or `onEnd` not a function.
   */
  replay(latch: InputLatch, options?: ReplayOptions): Unsubscribe {
    if (!isInputLatch(latch)) throw optionValueError('latch', latch, 'an InputLatch', TypeError);
    const { onEnd } = readOptions(options, 'replay', ['onEnd']);
    if (onEnd !== undefined && typeof onEnd !== 'function') {
      throw optionValueError('onEnd', onEnd, 'a function', TypeError);
    }
    if (this.#recordingFrom !== undefined) {
      throw new Error(
        'fixedtick: cannot replay an InputRecording that is still recording; stop() it first',
      );
    }
    const loopDelta = latch.loop.fixedDelta;
    if (this.#count > 0 || this.#length > 0) {
      if (loopDelta !== this.#fixedDelta) {
        throw new RangeError(
          `fixedtick: this recording was made at fixedDelta ${this.#fixedDelta} s, the loop runs at ${loopDelta} s; replay it on a loop with the same step`,
        );
      }
    }
    const internals = latch[latchInternals];
    let cursor = 0;
    const length = this.#length;
    const source: LatchSource = {
      deliver: (tick: number, apply: LatchApply): boolean => {
        if (tick >= length) return false;
        const ticks = this.#ticks;
        while (cursor < this.#count && ticks[cursor] <= tick) {
          const kind = KINDS[this.#kinds[cursor]];
          apply(
            kind,
            kind === 'move' ? '' : this.#keyNames[this.#keyIndex[cursor]],
            this.#xs[cursor],
            this.#ys[cursor],
          );
          cursor++;
        }
        return true;
      },
    };
    let active = true;
    internals.drive(source, this.#start, () => {
      active = false;
      (onEnd as (() => void) | undefined)?.();
    });
    return () => {
      if (active) internals.drive(undefined);
    };
  }

  /** The JSON form (see {@link InputRecordingJSON}); `JSON.stringify(recording)` calls it. */
  toJSON(): InputRecordingJSON {
    const events: RecordedEventJSON[] = [];
    for (let i = 0; i < this.#count; i++) {
      const kind = KINDS[this.#kinds[i]];
      if (kind === 'move') {
        events.push([this.#ticks[i], 'move', toCoordinate(this.#xs[i]), toCoordinate(this.#ys[i])]);
      } else events.push([this.#ticks[i], kind, this.#keyNames[this.#keyIndex[i]]]);
    }
    return {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      fixedDelta: this.#fixedDelta,
      length: this.length,
      start: {
        held: [...this.#start.held],
        pointer: [toCoordinate(this.#start.pointerX), toCoordinate(this.#start.pointerY)],
      },
      events,
    };
  }

  #push(tick: number, kind: InputEventKind, key: string, x: number, y: number): void {
    const n = this.#count;
    if (n === this.#ticks.length) this.#grow();
    this.#ticks[n] = tick;
    this.#kinds[n] = KIND_CODE[kind];
    this.#keyIndex[n] = kind === 'move' ? -1 : this.#keyId(key);
    this.#xs[n] = x;
    this.#ys[n] = y;
    this.#count = n + 1;
  }

  #keyId(key: string): number {
    let id = this.#keyIds.get(key);
    if (id === undefined) {
      id = this.#keyNames.length;
      this.#keyNames.push(key);
      this.#keyJSONLengths.push(JSON.stringify(key).length);
      this.#keyIds.set(key, id);
    }
    return id;
  }

  /** The length of `key` as JSON, quotes and escapes included (stored for known keys). */
  #keyJSONLength(key: string): number {
    const id = this.#keyIds.get(key);
    return id === undefined ? JSON.stringify(key).length : this.#keyJSONLengths[id];
  }

  #grow(): void {
    const size = this.#ticks.length * 2;
    this.#ticks = grown(this.#ticks, size);
    this.#kinds = grown(this.#kinds, size);
    this.#keyIndex = grown(this.#keyIndex, size);
    this.#xs = grown(this.#xs, size);
    this.#ys = grown(this.#ys, size);
  }
}
