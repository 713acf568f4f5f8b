import type { Driver, FrameSink } from '../driver.ts';

/** The browser globals {@link rafDriver} uses; injectable for tests. */
export interface RafHost {
  /** Schedules `callback` for the next display frame with its timestamp in ms (`window.requestAnimationFrame`). */
  requestAnimationFrame(callback: (timestampMs: number) => void): number;
  /** Cancels a scheduled callback (`window.cancelAnimationFrame`). */
  cancelAnimationFrame(handle: number): void;
  /** A `Document`: `hidden` and the `visibilitychange` event. Optional. */
  document?: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;
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
  let handle = 0;
  let running = false;
  let sink: FrameSink | undefined;
  let host: RafHost | undefined;
  let wasHidden = false;
  // Kept up to date by the visibilitychange listener, so frames read a local, not the DOM.
  let hidden = false;

  const onFrame = (timestampMs: number): void => {
    if (!running || !host || !sink) return;
    handle = host.requestAnimationFrame(onFrame);
    if (hidden) {
      wasHidden = true;
      return;
    }
    if (wasHidden) {
      wasHidden = false;
      sink.frameAfterGap(timestampMs);
    } else {
      sink.frame(timestampMs);
    }
  };
  const onVisibility = (): void => {
    hidden = host?.document?.hidden === true;
    if (hidden) wasHidden = true;
  };

  return {
    start(target: FrameSink): void {
      if (running) return;
      host = options.host ?? (globalThis as unknown as RafHost);
      if (typeof host.requestAnimationFrame !== 'function') {
        throw new Error(
          'fixedtick: rafDriver needs requestAnimationFrame; outside a browser use nodeDriver() or advance()/frame()',
        );
      }
      sink = target;
      running = true;
      hidden = host.document?.hidden === true;
      wasHidden = hidden;
      host.document?.addEventListener('visibilitychange', onVisibility);
      handle = host.requestAnimationFrame(onFrame);
    },
    stop(): void {
      if (!running) return;
      running = false;
      host?.cancelAnimationFrame(handle);
      host?.document?.removeEventListener('visibilitychange', onVisibility);
      sink = undefined;
    },
  };
}
