import type { Driver, FrameSink } from '@fixedtick/core';
import type { EngineLike } from './babylon-shapes.ts';

/** What {@link renderLoopDriver} needs from the host; injectable for tests. */
export interface RenderLoopDriverOptions {
  /**
   * The clock read once per render-loop frame, in milliseconds. Babylon calls render-loop
   * functions without the rAF timestamp, so the driver reads the clock Babylon itself uses for
   * `engine.getDeltaTime()`.
   * @defaultValue `performance.now`
   */
  now?: () => number;
  /**
   * The document whose `hidden` state stops the feed; on return the gap is dropped (no catch-up
   * burst). `null` turns visibility handling off.
   * @defaultValue `globalThis.document` when there is one
   */
  document?: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'> | null;
}

/**
 * Drives a loop from Babylon's own render loop (`engine.runRenderLoop`), so Babylon keeps its
 * frame bookkeeping (`beginFrame`/`endFrame`, FPS, views) and the loop renders the scene once
 * per display frame. While the page is hidden it feeds no time; the first frame after it is
 * shown again drops the whole gap.
 */
export function renderLoopDriver(
  engine: Pick<EngineLike, 'runRenderLoop' | 'stopRenderLoop'>,
  options: RenderLoopDriverOptions = {},
): Driver {
  let sink: FrameSink | undefined;
  let wasHidden = false;
  let doc: RenderLoopDriverOptions['document'] = null;
  const now = options.now ?? (() => performance.now());
  const onFrame = (): void => {
    if (!sink) return;
    if (doc?.hidden) {
      wasHidden = true;
      return;
    }
    if (wasHidden) {
      wasHidden = false;
      sink.frameAfterGap(now());
    } else {
      sink.frame(now());
    }
  };
  const onVisibility = (): void => {
    if (doc?.hidden) wasHidden = true;
  };
  return {
    start(target: FrameSink): void {
      if (sink) return;
      sink = target;
      wasHidden = false;
      doc =
        options.document === undefined
          ? ((globalThis as { document?: RenderLoopDriverOptions['document'] }).document ?? null)
          : options.document;
      doc?.addEventListener('visibilitychange', onVisibility);
      engine.runRenderLoop(onFrame);
    },
    stop(): void {
      if (!sink) return;
      sink = undefined;
      engine.stopRenderLoop(onFrame);
      doc?.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
