import { type Driver, frameCallbackDriver, type VisibilityDocument } from '@fixedtick/core';

/**
 * The part of a three.js renderer Fixedtick uses: `WebGLRenderer` and `WebGPURenderer` both
 * have it. Typed structurally so any renderer with these two methods works.
 */
export interface ThreeRenderer {
  /** three's animation loop: rAF on a page, the XR session's rAF in WebXR; `null` stops it. */
  setAnimationLoop(callback: ((time: number, frame?: unknown) => void) | null): unknown;
  /** Draws `scene` from `camera`. */
  render(scene: never, camera: never): unknown;
}

/**
 * Drives a loop from `renderer.setAnimationLoop`, using the timestamp three passes to its
 * callback. That timestamp is the display's (rAF's on a page, the `XRFrame`'s in an immersive
 * WebXR session, where the page's own `requestAnimationFrame` stops firing), so the loop keeps
 * time correctly in and out of VR/AR.
 *
 * While `document` (by default the page's) is hidden no time is fed; the first frame after it is
 * shown again drops the gap (`frameAfterGap`), so there is no catch-up burst: core's
 * {@link frameCallbackDriver} over the renderer's loop.
 *
 * @param renderer the renderer whose `setAnimationLoop` runs the frames.
 * @param document whose visibility pauses the loop; `null` for none.
 *   Default: the page's `document` (none outside a browser).
 */
export function animationLoopDriver(
  renderer: ThreeRenderer,
  document?: VisibilityDocument | null,
): Driver {
  return frameCallbackDriver(
    {
      start: (onFrame) => renderer.setAnimationLoop(onFrame),
      stop: () => renderer.setAnimationLoop(null),
    },
    { document },
  );
}
