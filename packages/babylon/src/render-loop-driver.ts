import { type Driver, frameCallbackDriver, type VisibilityDocument } from '@fixedtick/core';
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
  document?: VisibilityDocument | null | undefined;
}

/**
 * Drives a loop from Babylon's own render loop (`engine.runRenderLoop`), so Babylon keeps its
 * frame bookkeeping (`beginFrame`/`endFrame`, FPS, views) and the loop renders the scene once
 * per display frame. While the page is hidden it feeds no time; the first frame after it is
 * shown again drops the whole gap: core's `frameCallbackDriver` over the engine's render loop.
 */
export function renderLoopDriver(
  engine: Pick<EngineLike, 'runRenderLoop' | 'stopRenderLoop'>,
  options: RenderLoopDriverOptions = {},
): Driver {
  return frameCallbackDriver(
    {
      // Babylon calls render-loop functions with no argument: the driver reads `now()`
      start: (onFrame) => engine.runRenderLoop(onFrame),
      stop: (onFrame) => engine.stopRenderLoop(onFrame),
    },
    options,
  );
}
