/**
 * Unity's `Time` class over one {@link FixedLoop}, so a ported C# script reads its clock with the
 * same names and gets the same answers.
 *
 * The facade owns no clock: every member reads or writes the loop. Its one piece of Unity
 * behaviour is *context*: inside `FixedUpdate` (the loop's fixed step) `deltaTime` answers
 * `fixedDeltaTime` and `time` answers `fixedTime`, exactly as Unity does, so code written
 * `x += speed * Time.deltaTime` is correct in both places.
 *
 * Guarantees (each has a test):
 * - Inside a fixed step `deltaTime === fixedDeltaTime` and `time === fixedTime`.
 * - `maximumDeltaTime >= fixedDeltaTime`, whichever of the two is set (Unity clamps it too).
 * - `captureFramerate === Math.round(1 / captureDeltaTime)` (0 when capture is off), whichever of
 *   the two is set.
 * - Registered behaviours run `FixedUpdate` × steps → `Update` → `LateUpdate` each frame.
 *
 * @example
 * ```ts
 * const loop = new FixedLoop(presets.unity); // 50 Hz, maximumDeltaTime 1/3 s
 * const Time = new UnityTime(loop);
 * Time.register({
 *   FixedUpdate() { body.velocity.y -= 9.81 * Time.deltaTime; }, // 0.02
 *   Update() { label.text = `${Time.time.toFixed(1)} s`; },
 * });
 * loop.start();
 * ```
 * @see https://docs.unity3d.com/ScriptReference/Time.html
 */
import type { FixedLoop } from '../fixed-loop.ts';
import type { Unsubscribe } from '../hook.ts';
import {
  checkCaptureDeltaTime,
  checkFixedDelta,
  checkMaxDeltaTime,
  checkTimeScale,
  optionError,
} from '../options.ts';
import type { UnityBehaviour } from './mono-behaviour.ts';

/** Runs first in a fixed step, before any behaviour, to record the step's real duration. */
const FIRST = Number.NEGATIVE_INFINITY;
/** Runs last in a fixed step, after every listener, to close the step's unscaled time. */
const LAST = Number.POSITIVE_INFINITY;

interface Registration {
  readonly unsubscribe: Unsubscribe;
}

/**
 * Unity's `Time`, bound to one loop: `const Time = new UnityTime(loop)`. Create it once per loop;
 * `dispose()` detaches it and every behaviour registered through it.
 */
export class UnityTime {
  /** The loop this facade reads and drives. */
  readonly loop: FixedLoop;
  #fixedUnscaledDelta: number;
  #fixedUnscaledTime = 0;
  #subscriptions: Unsubscribe[];
  #behaviours = new Map<UnityBehaviour, Registration>();
  #disposed = false;

  /** @param loop the one clock; `presets.unity` gives Unity's defaults. */
  constructor(loop: FixedLoop) {
    if (loop === null || typeof loop !== 'object' || typeof loop.onFixedUpdate !== 'function') {
      throw new TypeError('fixedtick: UnityTime needs a FixedLoop');
    }
    this.loop = loop;
    if (loop.maxDeltaTime < loop.fixedDelta) loop.maxDeltaTime = loop.fixedDelta;
    this.#fixedUnscaledDelta = this.#stepRealDuration();
    this.#subscriptions = [
      loop.onFixedUpdate(
        () => {
          this.#fixedUnscaledDelta = this.#stepRealDuration();
        },
        { priority: FIRST },
      ),
      loop.onPostSimulation(
        () => {
          this.#fixedUnscaledTime += this.#fixedUnscaledDelta;
        },
        { priority: LAST },
      ),
    ];
  }

  /** Real seconds one fixed step stands for at the current time scale. */
  #stepRealDuration(): number {
    const scale = this.loop.timeScale;
    return scale > 0 ? this.loop.fixedDelta / scale : this.loop.fixedDelta;
  }

  // ---- Time members ---------------------------------------------------------------------

  /**
   * Game seconds of the current frame: the frame time scaled by `timeScale`, then clamped by
   * `maximumDeltaTime` ("the maximum value of Time.deltaTime in any given frame"), so it never
   * exceeds `maximumDeltaTime` at any time scale. Inside `FixedUpdate` it answers
   * `fixedDeltaTime`, as in Unity.
   */
  get deltaTime(): number {
    const loop = this.loop;
    return loop.inFixedStep ? loop.fixedDelta : loop.lastFrame.delta;
  }

  /**
   * Game seconds per fixed step (Unity's default is 0.02). Raising it above `maximumDeltaTime`
   * raises `maximumDeltaTime` with it, as Unity does.
   */
  get fixedDeltaTime(): number {
    return this.loop.fixedDelta;
  }
  set fixedDeltaTime(value: number) {
    const next = checkFixedDelta(value, 'fixedDeltaTime');
    this.loop.fixedDelta = next;
    if (this.loop.maxDeltaTime < next) this.loop.maxDeltaTime = next;
  }

  /**
   * The most game time one frame may advance (Unity's default is 1/3 s), after `timeScale`; the
   * excess is dropped, never simulated, so a frame runs at most
   * `maximumDeltaTime / fixedDeltaTime` FixedUpdates at any time scale. Never below
   * `fixedDeltaTime`: a smaller value is raised to it (Unity does the same), so every frame can
   * run at least one step.
   */
  get maximumDeltaTime(): number {
    return this.loop.maxDeltaTime;
  }
  set maximumDeltaTime(value: number) {
    const next = checkMaxDeltaTime(value, 'maximumDeltaTime');
    this.loop.maxDeltaTime = Math.max(next, this.loop.fixedDelta);
  }

  /** Game time per real time; `0` pauses: no `FixedUpdate` runs, `deltaTime` is 0. */
  get timeScale(): number {
    return this.loop.timeScale;
  }
  set timeScale(value: number) {
    this.loop.timeScale = checkTimeScale(value, 'timeScale');
  }

  /** Game seconds since start. Inside `FixedUpdate` it answers `fixedTime`, as in Unity. */
  get time(): number {
    const loop = this.loop;
    return loop.inFixedStep ? loop.fixedTime : loop.time;
  }

  /**
   * Game seconds simulated by fixed steps. Inside `FixedUpdate`: the time the step starts from
   * (0 in the first one); elsewhere: the end of the last step, so
   * `fixedTime <= time < fixedTime + fixedDeltaTime`, as in Unity.
   */
  get fixedTime(): number {
    return this.loop.fixedTime;
  }

  /**
   * Real seconds of the current frame: never clamped by `maximumDeltaTime`, not changed by
   * `timeScale` or `captureDeltaTime` (Unity: "not affected by Time.timeScale and
   * Time.maximumDeltaTime"). Inside `FixedUpdate` it answers `fixedUnscaledDeltaTime`, as in
   * Unity.
   */
  get unscaledDeltaTime(): number {
    const loop = this.loop;
    return loop.inFixedStep ? this.#fixedUnscaledDelta : loop.lastFrame.unscaledDelta;
  }

  /**
   * Real seconds since start: the sum of every frame's real time, never clamped and not changed
   * by capture mode ("captureDeltaTime does not have any affect on Time.unscaledTime"). Inside
   * `FixedUpdate` it answers `fixedUnscaledTime`.
   */
  get unscaledTime(): number {
    return this.loop.inFixedStep ? this.#fixedUnscaledTime : this.loop.unscaledTime;
  }

  /**
   * Real seconds one fixed step stands for: `fixedDeltaTime / timeScale` at the last step
   * (`fixedDeltaTime` before the first step or while the scale is 0).
   */
  get fixedUnscaledDeltaTime(): number {
    return this.#fixedUnscaledDelta;
  }

  /** Real seconds simulated by fixed steps, summed step by step (start of the current step). */
  get fixedUnscaledTime(): number {
    return this.#fixedUnscaledTime;
  }

  /** True inside `FixedUpdate` (the loop's fixed step). */
  get inFixedTimeStep(): boolean {
    return this.loop.inFixedStep;
  }

  /** Frames run since the loop was created. */
  get frameCount(): number {
    return this.loop.frameCount;
  }

  /**
   * When > 0, every frame lasts exactly this many seconds whatever the clock says (recording,
   * tests). `0` turns capture off. Setting it updates `captureFramerate`.
   */
  get captureDeltaTime(): number {
    return this.loop.captureDeltaTime;
  }
  set captureDeltaTime(value: number) {
    this.loop.captureDeltaTime = checkCaptureDeltaTime(value, 'captureDeltaTime');
  }

  /**
   * `captureDeltaTime` as a whole frame rate: `Math.round(1 / captureDeltaTime)`, 0 when capture
   * is off. Setting it sets `captureDeltaTime = 1 / value` (0 turns capture off), as in Unity.
   */
  get captureFramerate(): number {
    const dt = this.loop.captureDeltaTime;
    return dt > 0 ? Math.round(1 / dt) : 0;
  }
  set captureFramerate(value: number) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw optionError('captureFramerate', value, 'a whole number of frames per second ≥ 0');
    }
    this.loop.captureDeltaTime = value === 0 ? 0 : 1 / value;
  }

  // ---- behaviours -----------------------------------------------------------------------

  /**
   * Drives a script's `Start` / `FixedUpdate` / `Update` / `LateUpdate` from the loop: each
   * frame runs every `FixedUpdate` once per step, then every `Update`, then every `LateUpdate`;
   * behaviours run in registration order within each phase. A behaviour that throws is reported
   * through the loop's `onError` and the others still run. Registering the same object twice
   * does nothing more. Returns the function that unregisters it.
   */
  register(behaviour: UnityBehaviour): Unsubscribe {
    if (this.#disposed) throw new Error('fixedtick: register() on a disposed UnityTime');
    if (behaviour === null || typeof behaviour !== 'object') {
      throw new TypeError('fixedtick: UnityTime.register expects an object with Unity messages');
    }
    const existing = this.#behaviours.get(behaviour);
    if (existing) return existing.unsubscribe;

    const loop = this.loop;
    let started = false;
    const ready = (): boolean => {
      if (behaviour.enabled === false) return false;
      if (!started) {
        started = true;
        behaviour.Start?.();
      }
      return true;
    };
    const subs: Unsubscribe[] = [];
    if (typeof behaviour.FixedUpdate === 'function') {
      subs.push(
        loop.onFixedUpdate(() => {
          if (ready()) behaviour.FixedUpdate?.();
        }),
      );
    }
    // Always subscribed, so a behaviour with only `Start` is still started on its first frame.
    subs.push(
      loop.onUpdate(() => {
        if (ready()) behaviour.Update?.();
      }),
    );
    if (typeof behaviour.LateUpdate === 'function') {
      subs.push(
        loop.onLateUpdate(() => {
          if (ready()) behaviour.LateUpdate?.();
        }),
      );
    }
    const unsubscribe = (): void => {
      if (this.#behaviours.get(behaviour)?.unsubscribe !== unsubscribe) return;
      this.#behaviours.delete(behaviour);
      for (const off of subs) off();
    };
    this.#behaviours.set(behaviour, { unsubscribe });
    return unsubscribe;
  }

  /** Stops driving `behaviour` (no error if it was not registered). */
  unregister(behaviour: UnityBehaviour): void {
    this.#behaviours.get(behaviour)?.unsubscribe();
  }

  /** Unregisters every behaviour and detaches from the loop. The loop itself keeps running. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const { unsubscribe } of [...this.#behaviours.values()]) unsubscribe();
    for (const off of this.#subscriptions) off();
    this.#subscriptions = [];
  }
}
