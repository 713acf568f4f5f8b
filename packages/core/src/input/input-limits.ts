/**
 * The sizes input may reach. Input crosses trust boundaries — DOM events from any script on the
 * page, recordings from files and the network — so every size that costs memory or time per
 * frame has a documented maximum, checked before any work proportional to it.
 */
import { optionValueError } from './describe-value.ts';

/**
 * Keys an {@link InputLatch} tracks at once (held, waiting for a tick, or changed in the last
 * tick or frame), and distinct key names in one recording: 1 024.
 *
 * A keyboard has about 150 physical keys and a pointer 5 buttons; 1 024 leaves room for names of
 * your own (gamepad buttons, actions) while keeping the latch's per-frame pass over its keys in
 * the microseconds. A released key is forgotten when room is needed, so over a long session any
 * number of distinct keys may come and go.
 */
export const INPUT_MAX_KEYS = 1024;

/**
 * Characters (UTF-16 code units) of one key name: 256. `KeyboardEvent.code` values are under 20.
 */
export const INPUT_MAX_KEY_LENGTH = 256;

/**
 * Events in one {@link InputRecording}: 1 000 000 — over four hours of 60 Hz pointer movement
 * with keys on top, about 26 MB of JSON, loaded in about half a second.
 */
export const RECORDING_MAX_EVENTS = 1_000_000;

/**
 * Characters (UTF-16 code units; bytes, for the ASCII a recording is written in) of a
 * recording's JSON text: 128 MiB, 134 217 728. A recording of {@link RECORDING_MAX_EVENTS}
 * events is about 26 MB with usual key names and at most about 76 MB of pointer moves; a live
 * recording whose JSON could pass this stops by itself, so every recording this library writes
 * it also reads. Longer text is refused before anything reads it.
 */
export const RECORDING_MAX_TEXT_LENGTH = 128 * 1024 * 1024;

/**
 * Nesting of a recording's JSON text: 3 (the document, `events`, one event; or the document,
 * `start`, `held`). Text nested deeper is refused by a pass over its characters before
 * `JSON.parse` builds anything: 20 MB of nested brackets would otherwise take seconds to parse
 * into ten million arrays only to be refused after.
 */
export const RECORDING_MAX_DEPTH = 3;

/** What a key name must be, as error messages say it. */
export const KEY_EXPECTED = `a key name (a non-empty string of at most ${INPUT_MAX_KEY_LENGTH} characters)`;

/** True for a usable key name. */
export function isKeyName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= INPUT_MAX_KEY_LENGTH;
}

/** Returns `value` if it is a usable key name, else throws the library's `TypeError` for it. */
export function checkKey(value: unknown): string {
  if (!isKeyName(value)) throw optionValueError('key', value, KEY_EXPECTED, TypeError);
  return value;
}
