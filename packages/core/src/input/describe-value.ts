/**
 * Values as error messages show them, for the input and debug modules. Whatever the value — a
 * 10 MB string, an object whose `toString` throws, a hostile `Proxy` — describing it never
 * throws and never echoes more than {@link SHOWN_CHARS} characters of it, so a bad call gets the
 * library's clear error rather than a raw `TypeError` or a message the size of the input.
 */

/** Characters of a value an error message echoes at most; longer values are cut, with their size. */
export const SHOWN_CHARS = 64;

/**
 * `value` as core's `optionError` shows it — strings quoted, numbers and other primitives as
 * written, objects by their tag (`[object Object]`) — but cut to {@link SHOWN_CHARS} characters
 * (a cut string says how long it was) and never throwing.
 */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'string'
        ? JSON.stringify(value.slice(0, SHOWN_CHARS))
        : typeof value === 'object' || typeof value === 'function'
          ? value === null
            ? 'null'
            : Object.prototype.toString.call(value)
          : String(value);
  } catch {
    return 'an unprintable value'; // a Proxy whose traps throw, a poisoned toStringTag
  }
  if (typeof value === 'string') {
    return value.length > SHOWN_CHARS ? `${text}… (${value.length} characters)` : text;
  }
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/**
 * The library's error for option (or argument) `name`, worded as core's `optionError`:
 * `fixedtick: option "‹name›" must be ‹expected›, got ‹value›`. A `RangeError` by default; pass
 * `TypeError` for a wrong kind of object.
 */
export function optionValueError(
  name: string,
  value: unknown,
  expected: string,
  Kind: RangeErrorConstructor | TypeErrorConstructor = RangeError,
): Error {
  return new Kind(`fixedtick: option "${name}" must be ${expected}, got ${describeValue(value)}`);
}
