import type { Driver, FrameSink } from '@fixedtick/core';

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

/** The document globals the driver watches; injectable for tests. */
type VisibilityHost = Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;

/**
 * Drives a loop from `renderer.setAnimationLoop`, using the timestamp three passes to its
 * callback. That timestamp is the display's (rAF's on a page, the `XRFrame`'s in an immersive
 * WebXR session, where the page's own `requestAnimationFrame` stops firing), so the loop keeps
 * time correctly in and out of VR/AR.
 *
 * While the document is hidden no time is fed; the first frame after it is shown again drops the
 * gap (`frameAfterGap`), so there is no catch-up burst.
 */
export function animationLoopDriver(
  renderer: ThreeRenderer,
  document: VisibilityHost | undefined = (globalThis as { document?: VisibilityHost }).document,
): Driver {
  let sink: FrameSink | undefined;
  let wasHidden = false;
  const onFrame = (timestampMs: number): void => {
    if (sink === undefined) return;
    if (document?.hidden) {
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
    if (document?.hidden) wasHidden = true;
  };
  return {
    start(target: FrameSink): void {
      if (sink !== undefined) return;
      sink = target;
      wasHidden = false;
      document?.addEventListener('visibilitychange', onVisibility);
      renderer.setAnimationLoop(onFrame);
    },
    stop(): void {
      if (sink === undefined) return;
      sink = undefined;
      renderer.setAnimationLoop(null);
      document?.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
