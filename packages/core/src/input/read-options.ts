/**
 * Options objects of the input and debug modules, read safely: anything that is not an object,
 * an unknown (misspelt) name, or an object that throws when read (a hostile `Proxy`) gets the
 * library's `RangeError` rather than a silently ignored option or a raw `TypeError`.
 */
import { describeValue } from './describe-value.ts';

/**
 * Reads the options `known` of `owner` (`'bindKeyboard'`, …) from `options` into a plain
 * object; `undefined` reads as `{}`. Throws `fixedtick: ‹owner› options must be an object, got
 * ‹value›` or `fixedtick: unknown ‹owner› option "‹name›" (known: ‹names›)`.
 */
export function readOptions(
  options: unknown,
  owner: string,
  known: readonly string[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (options === undefined) return values;
  const notAnObject = (): RangeError =>
    new RangeError(`fixedtick: ${owner} options must be an object, got ${describeValue(options)}`);
  if (typeof options !== 'object' || options === null) throw notAnObject();
  let names: string[];
  try {
    names = Object.keys(options);
    for (const name of known) values[name] = (options as Record<string, unknown>)[name];
  } catch {
    throw notAnObject();
  }
  for (const name of names) {
    if (!known.includes(name)) {
      throw new RangeError(
        `fixedtick: unknown ${owner} option ${describeValue(name)} (known: ${known.join(', ')})`,
      );
    }
  }
  return values;
}
