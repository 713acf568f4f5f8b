/** Growing the typed arrays the input module keeps its state in. */

/** The typed arrays the input module grows. */
type Grown = Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

/**
 * A copy of `array` that is `size` long, the new items set to `fill`: the latch's and the
 * recording's tables double this way when full (so growing stays rare: amortised O(1) a push).
 */
export function grown<T extends Grown>(array: T, size: number, fill = 0): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  if (fill !== 0) next.fill(fill);
  (next as Float64Array<ArrayBuffer>).set(array as Float64Array<ArrayBuffer>);
  return next;
}
