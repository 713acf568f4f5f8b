/**
 * The listener side of a {@link FixedLoop}: the hooks a game registers on (Unity's, Godot's and
 * Roblox's frame points, in frame order) and the engine adapters it plugs in. The loop extends
 * it; both share one {@link FrameDispatch}, which calls them.
 */
import type { FrameDispatch } from './frame-dispatch.ts';
import type { ListenerOptions, Unsubscribe } from './hook.ts';
import type { LoopAdapter } from './loop-adapter.ts';
import type {
  AnomalyListener,
  DroppedListener,
  ErrorListener,
  FrameListener,
  StepListener,
} from './loop-types.ts';

/** Hook registration and adapters of a loop; see the module doc. */
export class LoopHooks {
  readonly #dispatch: FrameDispatch;

  /** @param dispatch the loop's hooks, adapters and error routing. */
  constructor(dispatch: FrameDispatch) {
    this.#dispatch = dispatch;
  }

  /** Each frame, before any step (input sampling; Roblox's per-frame `PreSimulation`). */
  onFrameStart(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.frameStart.add(fn, options);
  }
  /** Each fixed step, before the physics step (Unity `FixedUpdate`, Godot `_physics_process`). */
  onFixedUpdate(fn: StepListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.fixedUpdate.add(fn, options);
  }
  /** Each fixed step, after the physics step (Roblox `PostSimulation`). */
  onPostSimulation(fn: StepListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.postSimulation.add(fn, options);
  }
  /** Each frame, after the steps and the interpolation pass (Unity `Update`, Godot `_process`). */
  onUpdate(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.update.add(fn, options);
  }
  /** Each frame, after `update` (Unity `LateUpdate`): cameras that follow things. */
  onLateUpdate(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.lateUpdate.add(fn, options);
  }
  /** Each frame, just before rendering (Roblox `PreRender`). */
  onPreRender(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.preRender.add(fn, options);
  }
  /** Each frame, after rendering. */
  onPostRender(fn: FrameListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.postRender.add(fn, options);
  }
  /** When the step cap drops whole steps: `(steps, seconds)`. */
  onStepsDropped(fn: DroppedListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.stepsDropped.add(fn, options);
  }
  /**
   * When a bad frame time is sanitised to 0 s: `(kind, value)`. It runs inside the frame (a
   * frame started from it is refused, like one started from any other listener).
   */
  onAnomaly(fn: AnomalyListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.anomaly.add(fn, options);
  }
  /**
   * When a listener or an adapter throws: `(error, source)`. With no `onError` listener, errors
   * go to `console.error`. An `onError` listener that throws is itself sent to `console.error`.
   */
  onError(fn: ErrorListener, options?: ListenerOptions): Unsubscribe {
    return this.#dispatch.error.add(fn, options);
  }

  /**
   * Plugs an engine adapter in; returns the function that removes it. Added or removed during a
   * frame, it takes part from the next frame.
   */
  addAdapter(adapter: LoopAdapter): Unsubscribe {
    const dispatch = this.#dispatch;
    dispatch.adapters = [...dispatch.adapters, adapter];
    return () => {
      if (!dispatch.adapters.includes(adapter)) return;
      dispatch.adapters = dispatch.adapters.filter((a) => a !== adapter);
      dispatch.callAdapter(adapter, 'detach');
    };
  }
}
