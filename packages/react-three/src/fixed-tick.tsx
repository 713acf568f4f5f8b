import { optionError, ThreeFixedLoop } from '@fixedtick/three';
import { addEffect, addTail, useFrame } from '@react-three/fiber';
import { type ReactNode, useLayoutEffect, useState } from 'react';
import { FixedTickContext, type FixedTickState } from './fixed-tick-context.ts';
import { applyLoopOptions, type FixedTickLoopOptions, pickLoopOptions } from './loop-options.ts';
import { R3fFrameFeed } from './r3f-frame-feed.ts';

/**
 * The `useFrame` priority `<FixedTick>` runs its loop at by default: -100.
 *
 * Negative, so the loop's frame (steps, interpolation, `update`, `lateUpdate`, `preRender`) runs
 * before every `useFrame` callback left at R3F's default priority 0, which therefore sees the
 * interpolated poses, as a camera must; and not positive, because a positive priority tells R3F
 * that the callback renders the scene itself, and R3F then stops rendering on its own. Low
 * enough to leave room for code that must run before the loop (`useFrame(fn, -200)`).
 */
export const DEFAULT_FRAME_PRIORITY = -100;

/** Props of {@link FixedTick}: the loop's options, its `useFrame` priority and the scene. */
export interface FixedTickProps extends FixedTickLoopOptions {
  /** The components that use the loop (`useFixedUpdate`, `useTracked`, …). */
  children?: ReactNode;
  /**
   * The `useFrame` priority of the loop's frame: a finite number ≤ 0.
   * @defaultValue {@link DEFAULT_FRAME_PRIORITY} (-100)
   */
  framePriority?: number | undefined;
}

/**
 * One fixed-timestep loop for the React Three Fiber scene below it. Place it inside `<Canvas>`;
 * the hooks (`useFixedUpdate`, `useTracked`, `useInputLatch`, …) find it from any component
 * below. It owns one `ThreeFixedLoop` for its whole life, driven by R3F's own frame loop: each
 * R3F frame runs one loop frame at the frame's timestamp (the display's, or the `XRFrame`'s in
 * WebXR) from a `useFrame` callback at `framePriority`, and R3F renders after it.
 *
 * Every prop is a loop option (`tickRate`, `fixedDelta`, `maxDeltaTime`, `maxStepsPerFrame`,
 * `timeScale`, `jitterFix`, `captureDeltaTime`, `errorPolicy`, `defaultInterpolation`), applied
 * live: a change takes effect from the next frame, a removed prop goes back to its default, a
 * bad value throws a `RangeError` naming it.
 *
 * @example
 * ```tsx
 * <Canvas>
 *   <FixedTick tickRate={60}>
 *     <Player />
 *   </FixedTick>
 * </Canvas>
 * ```
 */
export function FixedTick(props: FixedTickProps): ReactNode {
  const { children, framePriority = DEFAULT_FRAME_PRIORITY } = props;
  if (typeof framePriority !== 'number' || !Number.isFinite(framePriority) || framePriority > 0) {
    throw optionError(
      'framePriority',
      framePriority,
      'a finite number ≤ 0 (a positive useFrame priority turns off R3F’s own render)',
    );
  }
  const options = pickLoopOptions(props as unknown as Record<string, unknown>);
  // Created once, in render, so the hooks below can subscribe in their own effects (which run
  // before this component's). Strict Mode may call this twice and keep one: the other loop was
  // never started and nothing holds it.
  const [tick] = useState(() => {
    const loop = new ThreeFixedLoop();
    const applied: Record<string, unknown> = {};
    applyLoopOptions(loop, applied, options);
    const state: FixedTickState = { loop, extras: new Map() };
    return { state, applied, feed: new R3fFrameFeed(loop) };
  });
  const { state, applied, feed } = tick;
  // Props changed since the last render reach the live loop before the next frame.
  useLayoutEffect(() => applyLoopOptions(state.loop, applied, options));
  useLayoutEffect(() => {
    const offStamp = addEffect(feed.stamp);
    const offRest = addTail(feed.rest);
    feed.start();
    return () => {
      // The loop is not disposed: it stays this component's for a Strict Mode remount, and
      // nothing outside holds it once the component is gone (the hooks below unsubscribe
      // themselves as they unmount).
      feed.stop();
      offStamp();
      offRest();
    };
  }, [feed]);
  useFrame((root, delta) => feed.frame(root.frameloop, delta), framePriority);
  return <FixedTickContext value={state}>{children}</FixedTickContext>;
}
