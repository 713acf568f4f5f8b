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
import {
  type InputEventKind,
  type InputLatch,
  type LatchApply,
  type LatchSource,
  type LatchStart,
  latchInternals,
} from './input-latch.ts';
import {
  type InputRecordingJSON,
  parseRecording,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedEventJSON,
} from './recording-format.ts';

const KINDS: readonly InputEventKind[] = ['press', 'release', 'move'];
const KIND_CODE: Record<InputEventKind, number> = { press: 0, release: 1, move: 2 };
const INITIAL_EVENTS = 256;

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
  readonly #keyIds = new Map<string, number>();
  #recordingFrom: InputLatch | undefined;
  #base = 0;
  #stopRecording: Unsubscribe | undefined;

  /**
   * Loads a recording from its JSON text or parsed JSON. Everything is validated first: a
   * malformed recording (not JSON, another `format` or `version`, unsorted ticks, an unknown
   * event kind, a release of a key that is not held, …) throws an {@link InputRecordingError}
   * saying where, and nothing is created.
   */
  static fromJSON(input: string | unknown): InputRecording {
    const data = parseRecording(input);
    const rec = new InputRecording();
    rec.#fixedDelta = data.fixedDelta;
    rec.#length = data.length;
    rec.#start = {
      held: data.start.held,
      pointerX: data.start.pointer[0],
      pointerY: data.start.pointer[1],
    };
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

  /** True between {@link record} and {@link stop}. */
  get recording(): boolean {
    return this.#recordingFrom !== undefined;
  }

  /**
   * Starts recording what `latch` delivers, from its next tick on (tick 0 of the recording).
   * Clears anything recorded before. Returns the function that stops (same as {@link stop}).
   */
  record(latch: InputLatch): Unsubscribe {
    this.stop();
    const internals = latch[latchInternals];
    this.#count = 0;
    this.#length = 0;
    this.#fixedDelta = latch.loop.fixedDelta;
    this.#start = internals.snapshot();
    this.#base = internals.nextTick();
    this.#recordingFrom = latch;
    const off = latch.onInput((tick, kind, key, x, y) => {
      this.#push(tick - this.#base, kind, key, x, y);
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
    this.#length = latch[latchInternals].nextTick() - this.#base;
    this.#recordingFrom = undefined;
    this.#stopRecording?.();
    this.#stopRecording = undefined;
  }

  /**
   * Feeds the recording into `latch` from its next tick on: the state it started with (held
   * keys, pointer), then each event at its tick. Live input is ignored until the replay ends
   * (after `length` ticks) or the returned function is called. Throws, leaving `latch` as it
   * was, if the loop's `fixedDelta` differs from the recording's — the same events at other
   * ticks would be another simulation.
   */
  replay(latch: InputLatch, options: ReplayOptions = {}): Unsubscribe {
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
      options.onEnd?.();
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
      if (kind === 'move') events.push([this.#ticks[i], 'move', this.#xs[i], this.#ys[i]]);
      else events.push([this.#ticks[i], kind, this.#keyNames[this.#keyIndex[i]]]);
    }
    return {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      fixedDelta: this.#fixedDelta,
      length: this.length,
      start: { held: [...this.#start.held], pointer: [this.#start.pointerX, this.#start.pointerY] },
      events,
    };
  }

  #push(tick: number, kind: InputEventKind, key: string, x: number, y: number): void {
    const n = this.#count;
    if (n === this.#ticks.length) this.#grow();
    this.#ticks[n] = tick;
    this.#kinds[n] = KIND_CODE[kind];
    let id = -1;
    if (kind !== 'move') {
      id = this.#keyIds.get(key) ?? -1;
      if (id < 0) {
        id = this.#keyNames.length;
        this.#keyNames.push(key);
        this.#keyIds.set(key, id);
      }
    }
    this.#keyIndex[n] = id;
    this.#xs[n] = x;
    this.#ys[n] = y;
    this.#count = n + 1;
  }

  #grow(): void {
    const size = this.#ticks.length * 2;
    const ticks = new Float64Array(size);
    ticks.set(this.#ticks);
    this.#ticks = ticks;
    const kinds = new Uint8Array(size);
    kinds.set(this.#kinds);
    this.#kinds = kinds;
    const keyIndex = new Int32Array(size);
    keyIndex.set(this.#keyIndex);
    this.#keyIndex = keyIndex;
    const xs = new Float64Array(size);
    xs.set(this.#xs);
    this.#xs = xs;
    const ys = new Float64Array(size);
    ys.set(this.#ys);
    this.#ys = ys;
  }
}
