/**
 * The library's standard option error, in the core's message format: the option, what it must be
 * and the value given (strings quoted, objects by their tag), so a bad call says what to fix.
 */

/** `value` as an error message shows it. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value !== null && typeof value === 'object') return Object.prototype.toString.call(value);
  return String(value);
}

/** `fixedtick: option "‹name›" must be ‹expected›, got ‹value›`, as a `RangeError`. */
export function optionError(name: string, value: unknown, expected: string): RangeError {
  return new RangeError(`fixedtick: option "${name}" must be ${expected}, got ${describe(value)}`);
}
