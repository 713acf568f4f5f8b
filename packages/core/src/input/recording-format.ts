/**
 * The JSON form of an {@link InputRecording}, and its validation. A recording is data that
 * crosses trust boundaries (files, the network, bug reports), so everything is checked before
 * anything is used, and an error names the place it found the problem.
 */

/** The `format` tag of a serialized recording. */
export const RECORDING_FORMAT = 'fixedtick-input';

/**
 * Version of the JSON form. Bumped on any change a reader of the previous version would
 * misread; a reader rejects versions it does not know rather than guess.
 */
export const RECORDING_VERSION = 1;

/** One event: `[tick, 'press' | 'release', key]` or `[tick, 'move', x, y]`. */
export type RecordedEventJSON =
  | [tick: number, kind: 'press' | 'release', key: string]
  | [tick: number, kind: 'move', x: number, y: number];

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
    pointer: [number, number];
  };
  /** The events, in delivery order. */
  events: RecordedEventJSON[];
}

/**
 * A recording that cannot be used: not JSON, a version this library does not read, or data
 * that does not hold together. `path` says where (`events[3][0]`).
 */
export class InputRecordingError extends Error {
  /** Where in the recording the problem is (`''` for the whole document). */
  readonly path: string;

  /** @param path where; @param problem what is wrong there. */
  constructor(path: string, problem: string) {
    super(`fixedtick: bad input recording${path === '' ? '' : ` at ${path}`}: ${problem}`);
    this.name = 'InputRecordingError';
    this.path = path;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InputRecordingError(path, `expected a whole number ≥ 0, got ${describe(value)}`);
  }
  return value;
}

function finite(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InputRecordingError(path, `expected a finite number, got ${describe(value)}`);
  }
  return value;
}

function keyName(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InputRecordingError(
      path,
      `expected a key name (non-empty string), got ${describe(value)}`,
    );
  }
  return value;
}

/**
 * Parses and checks a recording. Accepts the JSON text or the parsed value. Throws an
 * {@link InputRecordingError} naming the first problem; returns a fresh, trusted copy.
 */
export function parseRecording(input: unknown): InputRecordingJSON {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (error) {
      throw new InputRecordingError('', `not JSON (${(error as Error).message})`);
    }
  }
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
  if (!Array.isArray(start.held)) {
    throw new InputRecordingError('start.held', `expected an array, got ${describe(start.held)}`);
  }
  const held = new Set<string>();
  start.held.forEach((key, i) => {
    const name = keyName(key, `start.held[${i}]`);
    if (held.has(name))
      throw new InputRecordingError(`start.held[${i}]`, `${describe(name)} twice`);
    held.add(name);
  });
  const pointer = start.pointer;
  if (!Array.isArray(pointer) || pointer.length !== 2) {
    throw new InputRecordingError('start.pointer', `expected [x, y], got ${describe(pointer)}`);
  }
  const startX = finite(pointer[0], 'start.pointer[0]');
  const startY = finite(pointer[1], 'start.pointer[1]');

  if (!Array.isArray(data.events)) {
    throw new InputRecordingError('events', `expected an array, got ${describe(data.events)}`);
  }
  const down = new Set(held);
  const events: RecordedEventJSON[] = [];
  let previous = 0;
  data.events.forEach((event, i) => {
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
      events.push([tick, 'move', finite(event[2], `${at}[2]`), finite(event[3], `${at}[3]`)]);
    } else {
      throw new InputRecordingError(
        `${at}[1]`,
        `unknown event kind ${describe(kind)} (known: "press", "release", "move")`,
      );
    }
  });

  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    fixedDelta,
    length,
    start: { held: [...held], pointer: [startX, startY] },
    events,
  };
}
