/**
 * The pass a recording's JSON text goes through before `JSON.parse`. Parsing costs time and
 * memory in proportion to what the text builds, not only to its length: 20 MB of nested
 * brackets take V8 seconds to parse into ten million arrays, an object of a million keys
 * likewise, only for the result to be refused after. This pass reads each character once,
 * builds nothing, and refuses text that could not be a recording — too long, nested deeper than
 * a recording, an object with more members or an array with more items than a recording has —
 * so whatever text is given, refusing it costs about what loading a valid recording of the same
 * length costs (see `docs/input-and-determinism.md#limits`).
 */
import {
  INPUT_MAX_KEYS,
  RECORDING_MAX_DEPTH,
  RECORDING_MAX_EVENTS,
  RECORDING_MAX_TEXT_LENGTH,
} from './input-limits.ts';
import { InputRecordingError } from './recording-error.ts';

/**
 * Members of one object in a recording: the document has six (`format`, `version`,
 * `fixedDelta`, `length`, `start`, `events`) and `start` two; 16 leaves room for fields a later
 * version adds.
 */
const MAX_MEMBERS = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Throws an {@link InputRecordingError} if `text` is longer than
 * {@link RECORDING_MAX_TEXT_LENGTH}, nested deeper than {@link RECORDING_MAX_DEPTH}, or has an
 * object or array larger than any in a recording (16 members; {@link RECORDING_MAX_EVENTS}
 * items, {@link INPUT_MAX_KEYS} at the third level, where the held keys and the events are).
 * Malformed JSON passes: `JSON.parse` says what is wrong with it, in time proportional to the
 * text once it is this shallow.
 */
export function checkRecordingText(text: string): void {
  if (text.length > RECORDING_MAX_TEXT_LENGTH) {
    throw new InputRecordingError(
      '',
      `longer than RECORDING_MAX_TEXT_LENGTH (${RECORDING_MAX_TEXT_LENGTH} characters): got ${text.length}`,
    );
  }
  // The open container's commas so far and the most it may have (its items or members − 1);
  // the enclosing containers' are saved by depth (1 = the document). A recording nests 3 deep,
  // so these stay 4 numbers. At depth 0 a comma is JSON.parse's to refuse.
  let depth = 0;
  let commas = 0;
  let maxCommas = Number.POSITIVE_INFINITY;
  const savedCommas = [0, 0, 0, 0];
  const savedMax = [0, 0, 0, 0];
  const isObject = [false, false, false, false];
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      if (++commas > maxCommas) throw tooLarge(isObject[depth], maxCommas + 1, i);
    } else if (c === QUOTE) {
      // skip the string: brackets and commas inside it are text
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === RECORDING_MAX_DEPTH) {
        throw new InputRecordingError(
          '',
          `nested deeper than RECORDING_MAX_DEPTH (${RECORDING_MAX_DEPTH} levels) at character ${i}`,
        );
      }
      savedCommas[depth] = commas;
      savedMax[depth] = maxCommas;
      depth++;
      isObject[depth] = c === OPEN_OBJECT;
      commas = 0;
      maxCommas = (c === OPEN_OBJECT ? MAX_MEMBERS : maxItems(depth)) - 1;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) {
      depth--;
      commas = savedCommas[depth];
      maxCommas = savedMax[depth];
    }
  }
}

function tooLarge(object: boolean, max: number, at: number): InputRecordingError {
  const what = object
    ? `an object of more than ${max} members`
    : `an array of more than ${max} items`;
  return new InputRecordingError('', `${what} at character ${at} (no recording has one)`);
}

/** Items an array at `depth` (1 = the document) may hold: the events, or a held-key list or event. */
function maxItems(depth: number): number {
  return depth < RECORDING_MAX_DEPTH ? RECORDING_MAX_EVENTS : INPUT_MAX_KEYS;
}
