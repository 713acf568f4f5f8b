/**
 * A driver for any engine loop that calls back once per display frame: three's
 * `renderer.setAnimationLoop`, Babylon's `engine.runRenderLoop`, a game shell's own loop. The
 * engine keeps owning the frame (so WebXR sessions, engine pauses and render-loop plumbing keep
 * working); this adds what every such driver needs and what engines leave out: no time fed while
 * the page is hidden, and the gap dropped (`frameAfterGap`) when it is shown again.
 */
import type { Driver, FrameSink } from '../driver.ts';
import { optionError } from '../options.ts';

/** The document a driver watches: `hidden` and the `visibilitychange` event. */
export type VisibilityDocument = Pick<
  Document,
  'hidden' | 'addEventListener' | 'removeEventListener'
>;

/** An engine's per-frame callback loop, as {@link frameCallbackDriver} starts and stops it. */
export interface FrameCallbackSource {
  /**
   * Starts calling `onFrame` once per display frame, with the frame's timestamp in ms if the
   * engine has one (three's `setAnimationLoop` does; Babylon's `runRenderLoop` does not).
   */
  start(onFrame: (timestampMs?: number) => void): void;
  /** Stops calling `onFrame`. */
  stop(onFrame: (timestampMs?: number) => void): void;
}

/** Options of {@link frameCallbackDriver}. */
export interface FrameCallbackDriverOptions {
  /**
   * The clock for frames whose callback brings no timestamp, in ms.
   * @defaultValue `performance.now()`
   */
  now?: () => number;
  /**
   * The document whose visibility pauses the loop, read at `start()`; `null` for none.
   * @defaultValue `globalThis.document` (none outside a browser)
   */
  document?: VisibilityDocument | null | undefined;
}

/**
 * Drives a loop from `source`'s per-frame callback: each callback is one loop frame at the
 * timestamp the engine passes (or `now()`). While the document is hidden (as its
 * `visibilitychange` events tell) no time is fed; the first frame after it is shown again drops
 * the gap (`frameAfterGap`), so there is no catch-up burst. Allocates nothing per frame.
 *
 * @example
 * ```ts
 * // an engine with `onTick(callback)` / `offTick(callback)`
 * loop.start(frameCallbackDriver({ start: (f) => game.onTick(f), stop: (f) => game.offTick(f) }));
 * ```
 */
export function frameCallbackDriver(
  source: FrameCallbackSource,
  options: FrameCallbackDriverOptions = {},
): Driver {
  let sink: FrameSink | undefined;
  let doc: VisibilityDocument | null | undefined;
  // kept by the visibilitychange listener, so a frame reads a local, not the DOM
  let hidden = false;
  let wasHidden = false;
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw optionError('now', options.now, 'a function returning milliseconds');
  }
  const now = options.now ?? (() => performance.now());
  const onFrame = (timestampMs?: number): void => {
    if (sink === undefined) return;
    if (hidden) {
      wasHidden = true;
    } else if (wasHidden) {
      wasHidden = false;
      sink.frameAfterGap(timestampMs ?? now());
    } else {
      sink.frame(timestampMs ?? now());
    }
  };
  const onVisibility = (): void => {
    hidden = doc?.hidden === true;
    if (hidden) wasHidden = true;
  };
  return {
    start(target: FrameSink): void {
      if (sink !== undefined) return;
      source.start(onFrame); // may throw (no engine loop here): nothing has changed yet
      sink = target;
      doc =
        options.document === undefined
          ? (globalThis as { document?: VisibilityDocument }).document
          : options.document;
      // started hidden: the first visible frame drops the time before it
      hidden = doc?.hidden === true;
      wasHidden = hidden;
      doc?.addEventListener('visibilitychange', onVisibility);
    },
    stop(): void {
      if (sink === undefined) return;
      sink = undefined;
      source.stop(onFrame);
      doc?.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
