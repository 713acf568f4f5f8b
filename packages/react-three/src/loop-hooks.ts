import {
  type FrameListener,
  type ListenerOptions,
  optionError,
  type StepListener,
  type ThreeFixedLoop,
} from '@fixedtick/three';
import { useLayoutEffect, useRef } from 'react';
import { useFixedTickState } from './fixed-tick-context.ts';

/** The loop hooks a component can listen to, by the loop method that subscribes to each. */
type HookMethod =
  | 'onFixedUpdate'
  | 'onPostSimulation'
  | 'onUpdate'
  | 'onLateUpdate'
  | 'onPreRender';

/** The latest callback a component rendered with. */
interface Latest {
  current: (a: number, b: number) => void;
}

/*
 * The listener the loop calls forwards to the latest callback. Step and frame listeners get a
 * forwarder each, not one for both, or V8 boxes the numbers passed on (docs/performance.md).
 */
function forwardStep(latest: Latest): StepListener {
  return (fixedDelta, tick) => latest.current(fixedDelta, tick);
}
function forwardFrame(latest: Latest): FrameListener {
  return (delta, alpha) => latest.current(delta, alpha);
}

/**
 * Subscribes the component to one loop hook for its life: subscribed when it mounts (or when
 * `priority` changes), unsubscribed when it unmounts, so Strict Mode's mount-unmount-mount leaves
 * one subscription. The listener calls the latest `fn` the component rendered with, so a new
 * closure per render never re-subscribes (and never moves the listener within its priority).
 */
function useLoopHook(
  hook: string,
  method: HookMethod,
  forward: (latest: Latest) => (a: number, b: number) => void,
  fn: (a: number, b: number) => void,
  options: ListenerOptions | undefined,
): void {
  const { loop } = useFixedTickState(hook);
  if (typeof fn !== 'function') throw optionError('fn', fn, `a function (the listener of ${hook})`);
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  const priority = options?.priority;
  useLayoutEffect(
    () => loop[method](forward(latest), priority === undefined ? undefined : { priority }),
    [loop, method, forward, priority],
  );
}

/**
 * Runs `fn(fixedDelta, tick)` in every fixed step of the nearest `<FixedTick>`: gameplay and
 * physics, always with exactly `fixedDelta` whatever the display's rate (Unity `FixedUpdate`,
 * Godot `_physics_process`). Inside it tracked objects hold their simulation pose: move them
 * here. `options.priority` orders listeners (lower first).
 */
export function useFixedUpdate(fn: StepListener, options?: ListenerOptions): void {
  useLoopHook('useFixedUpdate', 'onFixedUpdate', forwardStep, fn, options);
}

/**
 * Runs `fn(fixedDelta, tick)` after the physics step of every fixed step (Roblox
 * `PostSimulation`): read what physics did; tracked objects still hold their simulation pose.
 */
export function usePostSimulation(fn: StepListener, options?: ListenerOptions): void {
  useLoopHook('usePostSimulation', 'onPostSimulation', forwardStep, fn, options);
}

/**
 * Runs `fn(delta, alpha)` once per frame after the steps (Unity `Update`): `delta` is the
 * frame's scaled game time, `alpha` how far rendering is between the last two steps. Tracked
 * objects show their interpolated pose here; a pose written to one is a teleport.
 */
export function useUpdate(fn: FrameListener, options?: ListenerOptions): void {
  useLoopHook('useUpdate', 'onUpdate', forwardFrame, fn, options);
}

/**
 * Runs `fn(delta, alpha)` once per frame after every `useUpdate` (Unity `LateUpdate`): follow
 * cameras here, on the interpolated poses, and they do not jitter.
 */
export function useLateUpdate(fn: FrameListener, options?: ListenerOptions): void {
  useLoopHook('useLateUpdate', 'onLateUpdate', forwardFrame, fn, options);
}

/**
 * Runs `fn(delta, alpha)` once per frame, last before R3F renders the scene (Roblox
 * `PreRender`): visual-only touches on top of the interpolated poses.
 */
export function usePreRender(fn: FrameListener, options?: ListenerOptions): void {
  useLoopHook('usePreRender', 'onPreRender', forwardFrame, fn, options);
}

/**
 * The nearest `<FixedTick>`'s `ThreeFixedLoop`: its state (`tick`, `alpha`, `fixedTime`,
 * `stats`), its controls (`pause()`, `stepOnce()`, `teleport(object3d, position)`) and every
 * option as a live property. The same loop for the component's whole life.
 */
export function useFixedLoop(): ThreeFixedLoop {
  return useFixedTickState('useFixedLoop').loop;
}
