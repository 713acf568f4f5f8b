/**
 * Real React Three Fiber trees in Node, driven frame by frame.
 *
 * `@react-three/test-renderer` mounts a tree on a real R3F root (real reconciler, real three.js
 * `WebGLRenderer` over a mock WebGL context). Frames are then run the ways R3F runs them:
 *
 * - `frameloop: 'always'` / `'demand'`: R3F's own loop, on a `requestAnimationFrame` that this
 *   harness replaces with a queue: `display.frame(timestampMs)` runs what R3F queued, with that
 *   timestamp, exactly as a browser's next animation frame would;
 * - `frameloop: 'never'`: R3F's `advance(timestampMs)` (test-renderer's default mode);
 * - WebXR: R3F's own XR frame callback, captured from `gl.xr.setAnimationLoop` (see `enterXR`).
 *
 * No clock is read: every timestamp is the test's.
 */
import type { RootState } from '@react-three/fiber';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, vi } from 'vitest';

type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>;
type FrameCallback = (timestampMs: number) => void;

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A display whose animation frames the test runs: the page's `requestAnimationFrame`. */
export class ManualDisplay {
  #queue: FrameCallback[] = [];
  #next = 1;
  #ids = new Map<number, FrameCallback>();

  /** Installs this display as `requestAnimationFrame` / `cancelAnimationFrame`. */
  install(): void {
    const g = globalThis as unknown as Record<string, unknown>;
    g.requestAnimationFrame = (callback: FrameCallback): number => {
      const id = this.#next++;
      this.#ids.set(id, callback);
      this.#queue.push(callback);
      return id;
    };
    g.cancelAnimationFrame = (id: number): void => {
      const callback = this.#ids.get(id);
      this.#ids.delete(id);
      this.#queue = this.#queue.filter((c) => c !== callback);
    };
  }

  /** Removes the globals again. */
  uninstall(): void {
    const g = globalThis as unknown as Record<string, unknown>;
    delete g.requestAnimationFrame;
    delete g.cancelAnimationFrame;
    this.#queue = [];
    this.#ids.clear();
  }

  /** Callbacks waiting for the next frame (R3F's loop, when it is running). */
  get pending(): number {
    return this.#queue.length;
  }

  /** One animation frame at `timestampMs`: runs every callback queued before it. */
  frame(timestampMs: number): void {
    const due = this.#queue;
    this.#queue = [];
    this.#ids.clear();
    for (const callback of due) callback(timestampMs);
  }
}

/** Timestamps of a `rate` Hz display from 0 ms: frame `i` at `i * 1000 / rate` (no drift). */
export function timestamps(rate: number, frames: number): number[] {
  return Array.from({ length: frames }, (_, i) => (i * 1000) / rate);
}

/** Mounts `element` on a real R3F root in `frameloop` mode (test-renderer's default: never). */
export function mount(
  element: ReactNode,
  frameloop: RootState['frameloop'] = 'never',
): Promise<Renderer> {
  return ReactThreeTestRenderer.create(element, { frameloop });
}

/**
 * Expects mounting `element` to fail with `message`, React's own console report of the error
 * silenced (the error itself is what the test reads).
 */
export async function expectMountToThrow(element: ReactNode, message: string): Promise<void> {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await expect(mount(element)).rejects.toThrow(message);
  } finally {
    quiet.mockRestore();
  }
}

/** R3F's store state of a mounted tree (its scene's R3F instance holds the root store). */
export function rootState(renderer: Renderer): RootState {
  const scene = renderer.scene.instance as unknown as {
    __r3f: { root: { getState(): RootState } };
  };
  return scene.__r3f.root.getState();
}

/**
 * Starts an immersive WebXR session the way R3F sees one: `gl.xr` presents and fires
 * `sessionstart`, and R3F hands its XR frame callback to `gl.xr.setAnimationLoop`. Returns that
 * callback: call it as the XR session would, with each `XRFrame`'s timestamp.
 */
export function enterXR(renderer: Renderer): (timestampMs: number) => void {
  const xr = rootState(renderer).gl.xr;
  let xrFrame: ((timestampMs: number, frame?: unknown) => void) | null = null;
  xr.setAnimationLoop = (callback) => {
    xrFrame = callback as typeof xrFrame;
  };
  xr.isPresenting = true;
  xr.dispatchEvent({ type: 'sessionstart' });
  if (xrFrame === null) throw new Error('R3F did not take over the XR animation loop');
  const callback: (timestampMs: number, frame?: unknown) => void = xrFrame;
  return (timestampMs) => callback(timestampMs, {});
}

/**
 * Fails the test on any `console.error` (React's dev warnings among them: act, keys, effects),
 * as the e2e tests do for the browser console.
 */
export function failOnConsoleErrors(): void {
  let spy: { mock: { calls: unknown[][] }; mockRestore(): void };
  beforeEach(() => {
    spy = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    expect(spy.mock.calls.map((args: unknown[]) => args.map(String).join(' '))).toEqual([]);
    spy.mockRestore();
  });
}
