import { type Driver, type FixedLoop, frameCallbackDriver } from '@fixedtick/three';

/** R3F's `frameloop` modes (`Canvas` prop), as the feed compares them. */
type Frameloop = 'always' | 'demand' | 'never';

/**
 * Turns React Three Fiber's frames into loop frames.
 *
 * R3F hands a `useFrame` callback its own clock's `delta`, not the frame's timestamp. The
 * timestamp reaches R3F's *global* effects instead (`addEffect`): the page's
 * `requestAnimationFrame` time, the `XRFrame`'s time in an immersive WebXR session (R3F's XR loop
 * calls `advance(timestamp, true, state, frame)`), or what `advance(timestampMs)` was given in
 * `frameloop="never"`. So {@link R3fFrameFeed.stamp} records it and {@link R3fFrameFeed.frame}
 * (FixedTick's `useFrame` callback, later in the same R3F frame) feeds it to the loop. A frame
 * that brought no timestamp (`@react-three/test-renderer`'s `advanceFrames(n, delta)` calls
 * `useFrame` callbacks alone) continues the last timestamp by R3F's `delta`, in seconds.
 *
 * The loop runs on core's {@link frameCallbackDriver} over these frames, so a hidden page feeds no
 * time and the first frame back drops the gap. Two R3F situations start a new time origin the
 * same way (the gap is not simulated): R3F stopped its loop in `frameloop="demand"` (its tail
 * effects ran: nothing asked for a frame), and the canvas switched `frameloop` mode.
 *
 * Nothing is allocated per frame: the callbacks are fields bound once.
 */
export class R3fFrameFeed {
  /** The driver to start the loop on; frames reach it only through {@link R3fFrameFeed.frame}. */
  readonly driver: Driver;
  readonly #loop: FixedLoop;
  #onFrame: ((timestampMs?: number) => void) | undefined;
  #stampMs = 0;
  #fresh = false;
  #lastMs = 0;
  #frameloop: Frameloop | undefined;
  #idle = false;

  /** @param loop the loop this feed drives (once {@link R3fFrameFeed.start} is called). */
  constructor(loop: FixedLoop) {
    this.#loop = loop;
    this.driver = frameCallbackDriver({
      start: (onFrame) => {
        this.#onFrame = onFrame;
      },
      stop: () => {
        this.#onFrame = undefined;
      },
    });
  }

  /** R3F global effect (`addEffect`): this frame's timestamp, in ms. */
  readonly stamp = (timestampMs: number): void => {
    this.#stampMs = timestampMs;
    this.#fresh = true;
  };

  /** R3F tail effect (`addTail`): R3F's own loop stopped; in demand mode, the clock rests. */
  readonly rest = (): void => {
    if (this.#frameloop === 'demand') this.#idle = true;
  };

  /** Starts the loop on this feed: the next frame sets its time origin. */
  start(): void {
    this.#loop.start(this.driver);
  }

  /** Stops the loop (if this feed still drives it). */
  stop(): void {
    if (this.#onFrame !== undefined) this.#loop.stop();
  }

  /**
   * One R3F frame of a root in `frameloop` mode, `deltaSeconds` after the last by R3F's clock:
   * one loop frame. Does nothing while the loop runs on another driver or is stopped.
   */
  frame(frameloop: Frameloop, deltaSeconds: number): void {
    if (this.#onFrame === undefined) return;
    if (frameloop !== this.#frameloop || this.#idle) {
      // a new source of frames, or frames again after R3F rested: a new time origin
      if (this.#frameloop !== undefined) this.start();
      this.#frameloop = frameloop;
      this.#idle = false;
    }
    let timestampMs: number;
    if (this.#fresh) {
      this.#fresh = false;
      timestampMs = this.#stampMs;
    } else {
      timestampMs = this.#lastMs + deltaSeconds * 1000;
    }
    // a bad value goes to the loop (counted there as an anomaly), never into the feed's clock
    if (Number.isFinite(timestampMs)) this.#lastMs = timestampMs;
    this.#onFrame?.(timestampMs);
  }
}
