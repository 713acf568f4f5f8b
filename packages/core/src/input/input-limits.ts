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
