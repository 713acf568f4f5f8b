/**
 * What an example publishes for its end-to-end test on `window.__fixedtick`: plain numbers
 * (peaks, frames rendered, ticks run…), so tests assert values and not pixels alone.
 */
export type Exposed = Record<string, unknown>;

declare global {
  interface Window {
    /** Set by the examples: the numbers their end-to-end tests read. */
    __fixedtick?: Exposed;
  }
}

/** Publishes `state` (a live object the example keeps updating) on `window.__fixedtick`. */
export function expose<T extends Exposed>(state: T): T {
  window.__fixedtick = state;
  return state;
}
