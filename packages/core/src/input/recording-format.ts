/**
 * The JSON form of an {@link InputRecording}, and its validation. A recording is data that
 * crosses trust boundaries (files, the network, bug reports), so everything is checked before
 * anything is used, sizes are checked against their documented maximum before any work
 * proportional to them, and an error names the place it found the problem (echoing at most
 * 64 characters of what it found there: `SHOWN_CHARS`).
 */
import { describeValue } from './describe-value.ts';
import { INPUT_MAX_KEYS, isKeyName, KEY_EXPECTED, RECORDING_MAX_EVENTS } from './input-limits.ts';
import { InputRecordingError } from './recording-error.ts';
import { checkRecordingText } from './recording-text.ts';

/** The `format` tag of a serialized recording. */
export const RECORDING_FORMAT = 'fixedtick-input';

/**
 * Version of the JSON form. Bumped on any change a reader of the previous version would
 * misread; a reader rejects versions it does not know rather than guess.
 */
export const RECORDING_VERSION = 1;

/**
 * A pointer coordinate in JSON: a number, or the string `"-0"` for negative zero, which
 * `JSON.stringify` writes as `0` (the simulation may tell them apart: `Math.atan2(0, -0)` is π).
 */
export type RecordedCoordinate = number | '-0';

/** One event: `[tick, 'press' | 'release', key]` or `[tick, 'move', x, y]`. */
export type RecordedEventJSON =
  | [tick: number, kind: 'press' | 'release', key: string]
  | [tick: number, kind: 'move', x: RecordedCoordinate, y: RecordedCoordinate];

/**
 * A recording as JSON. Ticks count from the first tick of the recording (0) and are sorted.
 *
 * @example
 * ```json
 * { "format": "fixedtick-input", "version": 1, "fixedDelta": 0.016666666666666666,
 *   "length": 240, "start": { "held": [], "pointer": [0, 0] },
 *   "events": [[12, "press", "Space"], [13, "release", "Space"], [40, "move", 310, 122]] }
 * ```
 */
export interface InputRecordingJSON {
  /** Always {@link RECORDING_FORMAT}. */
  format: typeof RECORDING_FORMAT;
  /** {@link RECORDING_VERSION} of the writer. */
  version: number;
  /** Seconds per tick of the loop it was recorded on; replays need the same. */
  fixedDelta: number;
  /** Ticks the recording covers: events have ticks in `[0, length)`. */
  length: number;
  /** State when the recording began: keys held and the pointer position. */
  start: {
    /** Keys (`KeyboardEvent.code` or pointer button names) held when recording started. */
    held: string[];
    /** Pointer position when recording started: `[x, y]`. */
    pointer: [RecordedCoordinate, RecordedCoordinate];
  };
  /** The events, in delivery order; at most {@link RECORDING_MAX_EVENTS}. */
  events: RecordedEventJSON[];
}

/** A checked recording: what {@link parseRecording} returns, −0 as a number. @internal */
export interface CheckedRecording {
  fixedDelta: number;
  length: number;
  held: string[];
  pointer: [number, number];
  events: (
    | [tick: number, kind: 'press' | 'release', key: string]
    | [tick: number, kind: 'move', x: number, y: number]
  )[];
}

/** `value` as a recording stores it: `"-0"` for negative zero (see {@link RecordedCoordinate}). */
export function toCoordinate(value: number): RecordedCoordinate {
  return value === 0 && 1 / value < 0 ? '-0' : value;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null ? 'an object' : describeValue(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InputRecordingError(
      path,
      `expected a whole number from 0 to 2^53 - 1, got ${describe(value)}`,
    );
  }
  return value + 0; // -0 reads as 0
}

function finite(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InputRecordingError(path, `expected a finite number, got ${describe(value)}`);
  }
  return value;
}

function coordinate(value: unknown, path: string): number {
  return value === '-0' ? -0 : finite(value, path);
}

function keyName(value: unknown, path: string): string {
  if (!isKeyName(value)) {
    throw new InputRecordingError(path, `expected ${KEY_EXPECTED}, got ${describe(value)}`);
  }
  return value;
}

/** An array of at most `max` items, checked before any of them is read. */
function list(value: unknown, path: string, max: number, items: string): unknown[] {
  if (!Array.isArray(value)) {
    throw new InputRecordingError(path, `expected an array, got ${describe(value)}`);
  }
  if (value.length > max) {
    throw new InputRecordingError(path, `more than ${max} ${items} (got ${value.length})`);
  }
  return value;
}

/**
 * Parses and checks a recording. Accepts the JSON text or the parsed value. Throws an
 * {@link InputRecordingError} naming the first problem — also when reading an object passed in
 * throws — and returns a fresh, trusted copy.
 */
export function parseRecording(input: unknown): CheckedRecording {
  let data = input;
  if (typeof input === 'string') {
    checkRecordingText(input);
    try {
      data = JSON.parse(input);
    } catch (error) {
      throw new InputRecordingError('', `not JSON (${describeValue((error as Error).message)})`);
    }
  }
  try {
    return check(data);
  } catch (error) {
    if (error instanceof InputRecordingError) throw error;
    // a getter or Proxy trap of a recording passed as an object threw
    throw new InputRecordingError('', `reading it threw ${describeValue(messageOf(error))}`);
  }
}

function messageOf(error: unknown): unknown {
  try {
    return error instanceof Error ? error.message : error;
  } catch {
    return error;
  }
}

function check(data: unknown): CheckedRecording {
  if (!isRecord(data))
    throw new InputRecordingError('', `expected an object, got ${describe(data)}`);
  if (data.format !== RECORDING_FORMAT) {
    throw new InputRecordingError(
      'format',
      `expected ${JSON.stringify(RECORDING_FORMAT)}, got ${describe(data.format)}`,
    );
  }
  if (data.version !== RECORDING_VERSION) {
    throw new InputRecordingError(
      'version',
      `this library reads version ${RECORDING_VERSION}, got ${describe(data.version)}`,
    );
  }
  const fixedDelta = finite(data.fixedDelta, 'fixedDelta');
  if (fixedDelta <= 0) {
    throw new InputRecordingError('fixedDelta', `expected seconds > 0, got ${fixedDelta}`);
  }
  const length = wholeNumber(data.length, 'length');

  const start = data.start;
  if (!isRecord(start)) {
    throw new InputRecordingError('start', `expected an object, got ${describe(start)}`);
  }
  const startHeld = list(start.held, 'start.held', INPUT_MAX_KEYS, 'keys');
  // every key name seen, to hold the recording to INPUT_MAX_KEYS distinct keys
  const names = new Set<string>();
  const held = new Set<string>();
  for (let i = 0; i < startHeld.length; i++) {
    const name = keyName(startHeld[i], `start.held[${i}]`);
    if (held.has(name))
      throw new InputRecordingError(`start.held[${i}]`, `${describe(name)} twice`);
    held.add(name);
    names.add(name);
  }
  const pointer = start.pointer;
  if (!Array.isArray(pointer) || pointer.length !== 2) {
    throw new InputRecordingError('start.pointer', `expected [x, y], got ${describe(pointer)}`);
  }
  const startX = coordinate(pointer[0], 'start.pointer[0]');
  const startY = coordinate(pointer[1], 'start.pointer[1]');

  const source = list(data.events, 'events', RECORDING_MAX_EVENTS, 'events');
  const down = new Set(held);
  const events: CheckedRecording['events'] = [];
  let previous = 0;
  for (let i = 0; i < source.length; i++) {
    const event = source[i];
    const at = `events[${i}]`;
    if (!Array.isArray(event)) {
      throw new InputRecordingError(
        at,
        `expected an array [tick, kind, …], got ${describe(event)}`,
      );
    }
    const tick = wholeNumber(event[0], `${at}[0]`);
    if (tick < previous) {
      throw new InputRecordingError(
        `${at}[0]`,
        `tick ${tick} comes after tick ${previous}; events must be sorted by tick`,
      );
    }
    if (tick >= length) {
      throw new InputRecordingError(`${at}[0]`, `tick ${tick} is not below length ${length}`);
    }
    previous = tick;
    const kind = event[1];
    if (kind === 'press' || kind === 'release') {
      if (event.length !== 3) {
        throw new InputRecordingError(
          at,
          `a ${kind} event is [tick, kind, key], got ${event.length} items`,
        );
      }
      const key = keyName(event[2], `${at}[2]`);
      if (!names.has(key)) {
        if (names.size === INPUT_MAX_KEYS) {
          throw new InputRecordingError(`${at}[2]`, `more than ${INPUT_MAX_KEYS} distinct keys`);
        }
        names.add(key);
      }
      if (kind === 'press' && down.has(key)) {
        throw new InputRecordingError(at, `press of ${describe(key)} while it is already held`);
      }
      if (kind === 'release' && !down.has(key)) {
        throw new InputRecordingError(at, `release of ${describe(key)} while it is not held`);
      }
      if (kind === 'press') down.add(key);
      else down.delete(key);
      events.push([tick, kind, key]);
    } else if (kind === 'move') {
      if (event.length !== 4) {
        throw new InputRecordingError(
          at,
          `a move event is [tick, "move", x, y], got ${event.length} items`,
        );
      }
      events.push([
        tick,
        'move',
        coordinate(event[2], `${at}[2]`),
        coordinate(event[3], `${at}[3]`),
      ]);
    } else {
      throw new InputRecordingError(
        `${at}[1]`,
        `unknown event kind ${describe(kind)} (known: "press", "release", "move")`,
      );
    }
  }

  return { fixedDelta, length, held: [...held], pointer: [startX, startY], events };
}
