import type { Driver } from '../driver.ts';
import { optionError } from '../options.ts';
import { frameCallbackDriver, type VisibilityDocument } from './frame-callback-driver.ts';

/** The browser globals {@link rafDriver} uses; injectable for tests. */
export interface RafHost {
  /** Schedules `callback` for the next display frame with its timestamp in ms (`window.requestAnimationFrame`). */
  requestAnimationFrame(callback: (timestampMs: number) => void): number;
  /** Cancels a scheduled callback (`window.cancelAnimationFrame`). */
  cancelAnimationFrame(handle: number): void;
  /** A `Document`: `hidden` and the `visibilitychange` event. Optional. */
  document?: VisibilityDocument | undefined;
}

/** Options of {@link rafDriver}. */
export interface RafDriverOptions {
  /**
   * Where `requestAnimationFrame` and `document` come from.
   * @defaultValue `globalThis`
   */
  host?: RafHost;
}

/**
 * The browser's default driver: one loop frame per `requestAnimationFrame`, using the timestamp
 * rAF passes (so frames line up with vsync).
 *
 * While the document is hidden it feeds no time; the first frame after the page is shown again
 * drops the whole gap (`frameAfterGap`), so there is no catch-up burst.
 */
export function rafDriver(options: RafDriverOptions = {}): Driver {
  if (options === null || typeof options !== 'object') {
    throw optionError('options', options, 'an object');
  }
  const given = options.host;
  if (given !== undefined && (given === null || typeof given !== 'object')) {
    throw optionError('host', given, 'an object with requestAnimationFrame');
  }
  let handle = 0;
  let host = globalThis as unknown as RafHost;
  // set while running (a callback after stop() finds it unset)
  let onFrame: ((timestampMs: number) => void) | undefined;
  const tick = (timestampMs: number): void => {
    if (onFrame === undefined) return;
    handle = host.requestAnimationFrame(tick);
    onFrame(timestampMs);
  };
  // rAF is a per-frame callback like any engine's; the visibility handling is the shared one
  return frameCallbackDriver(
    {
      start(callback): void {
        host = given ?? (globalThis as unknown as RafHost);
        if (typeof host.requestAnimationFrame !== 'function') {
          throw new Error(
            'fixedtick: rafDriver needs requestAnimationFrame; outside a browser use nodeDriver() or advance()/frame()',
          );
        }
        onFrame = callback;
        handle = host.requestAnimationFrame(tick);
      },
      stop(): void {
        onFrame = undefined;
        host.cancelAnimationFrame(handle);
      },
    },
    // no host given: the page's document, looked up at start()
    { document: given === undefined ? undefined : (given.document ?? null) },
  );
}
