/**
 * Roblox's `RunService` over one {@link FixedLoop}, so ported Luau keeps its events, their order
 * and their deltas, and `BindToRenderStep` keeps running by priority.
 *
 * Roblox cuts its frame at rendering: it draws first (`PreRender`, then the draw), then runs
 * `PreAnimation`, `PreSimulation`, the physics, `PostSimulation` and `Heartbeat` for the next
 * draw. The loop draws at the end of its frame instead. The cycle of events is the same; only the
 * point where a "frame" starts differs:
 *
 * | Roblox event (per frame) | loop hook | priority on that hook |
 * |---|---|---|
 * | `PreAnimation(deltaTimeSim)` | `onFrameStart` | -20000 |
 * | `PreSimulation(deltaTimeSim)`, `Stepped(time, deltaTime)` | `onFrameStart` | -10000 |
 * | (physics: fixed steps) `BindToSimulation(fn, frequency, priority)` | `onFixedUpdate` | `priority` (2000 by default) |
 * | `PostSimulation(deltaTimeSim)` | `onUpdate` | -20000 |
 * | `Heartbeat(deltaTime)` | `onUpdate` | -10000 |
 * | `BindToRenderStep(name, priority, fn)` | `onPreRender` | `priority` |
 * | `PreRender(deltaTimeRender)`, `RenderStepped(deltaTime)` | `onPreRender` | 2000 (`Last`) |
 *
 * Every delta is the loop's frame delta: the game seconds the frame advanced. Roblox's global
 * `time()` ("the amount of time, in seconds, that has elapsed since the current game instance
 * started running") is `loop.time`; inside a `BindToSimulation` callback the step's own time is
 * `loop.fixedTime`.
 *
 * @example
 * ```ts
 * import { RunService as RobloxRunService, Enum } from '@fixedtick/core/roblox';
 * const loop = new FixedLoop(presets.roblox);
 * const RunService = new RobloxRunService(loop); // the script body below stays as it was
 * RunService.PreSimulation.Connect((dt) => { platform.position.x += speed * dt; });
 * RunService.BindToRenderStep('follow', Enum.RenderPriority.Camera.Value, followCamera);
 * ```
 * @see https://create.roblox.com/docs/reference/engine/classes/RunService
 */
import { STEP_TOLERANCE } from '../constants.ts';
import type { FixedLoop } from '../fixed-loop.ts';
import type { Unsubscribe } from '../hook.ts';
import { optionError } from '../options.ts';
import { type EnumItem, RenderPriority, StepFrequency, stepFrequencyHz } from './enum.ts';
import { RBXScriptConnection, RBXScriptSignal } from './script-signal.ts';

/** `onFrameStart` priority of `PreAnimation`: before `PreSimulation`. */
const PRE_ANIMATION = -20_000;
/** `onFrameStart` priority of `PreSimulation` and `Stepped`. */
const PRE_SIMULATION = -10_000;
/** `onUpdate` priority of `PostSimulation`: before `Heartbeat`. */
const POST_SIMULATION = -20_000;
/** `onUpdate` priority of `Heartbeat`. */
const HEARTBEAT = -10_000;
/** Roblox's default `BindToSimulation` priority (lower runs first within a step). */
const SIMULATION_PRIORITY = 2000;

/** A per-frame Roblox callback: the frame's delta in seconds. */
export type DeltaCallback = (deltaTime: number) => void;

/**
 * Roblox's `RunService`, bound to one loop. Import it under another name so ported code keeps
 * saying `RunService`: `const RunService = new RobloxRunService(loop)`.
 * `dispose()` disconnects everything connected or bound through it.
 */
export class RunService {
  /** The loop this facade drives. */
  readonly loop: FixedLoop;

  /** Every frame, just before drawing (after every `BindToRenderStep` below priority 2000). */
  readonly PreRender: RBXScriptSignal<[deltaTimeRender: number]>;
  /** Every frame, first of all (before `PreSimulation`): custom animation. */
  readonly PreAnimation: RBXScriptSignal<[deltaTimeSim: number]>;
  /** Every frame, before the fixed steps: set velocities, move kinematic parts. */
  readonly PreSimulation: RBXScriptSignal<[deltaTimeSim: number]>;
  /** Every frame, after the fixed steps: react to the simulation's result. */
  readonly PostSimulation: RBXScriptSignal<[deltaTimeSim: number]>;
  /** Every frame, after `PostSimulation`. */
  readonly Heartbeat: RBXScriptSignal<[deltaTime: number]>;
  /**
   * Every frame with `PreSimulation`: `(time, deltaTime)`, `time` being the game seconds since
   * start.
   * @deprecated Roblox replaced it with `PreSimulation`.
   */
  readonly Stepped: RBXScriptSignal<[time: number, deltaTime: number]>;
  /**
   * Every frame with `PreRender`.
   * @deprecated Roblox replaced it with `PreRender`.
   */
  readonly RenderStepped: RBXScriptSignal<[deltaTime: number]>;

  #renderBindings = new Map<string, RBXScriptConnection>();
  #connections = new Set<RBXScriptConnection>();
  #disposed = false;

  /** @param loop the one clock; `presets.roblox` gives the 60 Hz pipeline. */
  constructor(loop: FixedLoop) {
    if (loop === null || typeof loop !== 'object' || typeof loop.onFixedUpdate !== 'function') {
      throw new TypeError('fixedtick: RunService needs a FixedLoop');
    }
    this.loop = loop;
    const perFrame = (
      name: string,
      add: (fn: (delta: number) => void) => Unsubscribe,
    ): RBXScriptSignal<[number]> =>
      new RBXScriptSignal<[number]>(name, (fn) => this.#track(add((delta) => fn(delta))));

    this.PreAnimation = perFrame('PreAnimation', (fn) =>
      loop.onFrameStart(fn, { priority: PRE_ANIMATION }),
    );
    this.PreSimulation = perFrame('PreSimulation', (fn) =>
      loop.onFrameStart(fn, { priority: PRE_SIMULATION }),
    );
    this.Stepped = new RBXScriptSignal<[number, number]>('Stepped', (fn) =>
      this.#track(loop.onFrameStart((delta) => fn(loop.time, delta), { priority: PRE_SIMULATION })),
    );
    this.PostSimulation = perFrame('PostSimulation', (fn) =>
      loop.onUpdate(fn, { priority: POST_SIMULATION }),
    );
    this.Heartbeat = perFrame('Heartbeat', (fn) => loop.onUpdate(fn, { priority: HEARTBEAT }));
    this.PreRender = perFrame('PreRender', (fn) =>
      loop.onPreRender(fn, { priority: RenderPriority.Last.Value }),
    );
    this.RenderStepped = perFrame('RenderStepped', (fn) =>
      loop.onPreRender(fn, { priority: RenderPriority.Last.Value }),
    );
  }

  /** Wraps a loop subscription in a connection that `dispose()` can also disconnect. */
  #track(off: Unsubscribe): RBXScriptConnection {
    if (this.#disposed) {
      off();
      throw new Error('fixedtick: Connect on a disposed RunService');
    }
    const connection: RBXScriptConnection = new RBXScriptConnection(() => {
      this.#connections.delete(connection);
      off();
    });
    this.#connections.add(connection);
    return connection;
  }

  /**
   * Calls `fn(deltaTime)` every frame just before drawing, ordered by `priority` (lower first;
   * equal priorities in bind order). Use `Enum.RenderPriority` values: a camera at `Camera`
   * (200) runs after input (100) and before characters (300). Binding a name that is already
   * bound replaces the old binding (Roblox leaves this undocumented; replacing means a script
   * that rebinds on respawn does not run twice).
   */
  BindToRenderStep(name: string, priority: number | EnumItem, fn: DeltaCallback): void {
    if (typeof name !== 'string') throw optionError('name', name, 'a string');
    const value = typeof priority === 'object' && priority !== null ? priority.Value : priority;
    if (typeof value !== 'number' || Number.isNaN(value)) {
      throw optionError('priority', priority, 'a number (e.g. Enum.RenderPriority.Camera.Value)');
    }
    if (typeof fn !== 'function') {
      throw new TypeError(`fixedtick: BindToRenderStep expects a function, got ${typeof fn}`);
    }
    this.UnbindFromRenderStep(name);
    const binding = this.#track(this.loop.onPreRender((delta) => fn(delta), { priority: value }));
    this.#renderBindings.set(name, binding);
  }

  /** Removes the binding called `name`. An unknown name is not an error, as in Roblox. */
  UnbindFromRenderStep(name: string): void {
    const binding = this.#renderBindings.get(name);
    if (binding === undefined) return;
    this.#renderBindings.delete(name);
    binding.Disconnect();
  }

  /**
   * Calls `fn(deltaTime)` inside the fixed step (before physics) at `frequency`, a divisor of the
   * 60 Hz pipeline: `Hz30` runs on every 2nd step with `deltaTime = 1/30`, `Hz1` once per
   * simulated second with `deltaTime = 1`. Counting starts at the bind. Within a step, callbacks
   * run by `priority`, lower first (ties in bind order), as `onFixedUpdate` listeners of that
   * priority: the default 2000 puts them after plain `onFixedUpdate` listeners (priority 0).
   *
   * Defaults are Roblox's: `frequency` `Enum.StepFrequency.Hz30` (the `StepFrequency` enum page:
   * "The default frequency for RunService:BindToSimulation() is StepFrequency.Hz30") and
   * `priority` 2000.
   *
   * If the loop's step is not 1/60 s, `fn` runs every `max(1, round(period / fixedDelta))` steps
   * and `deltaTime` is the simulated time those steps stand for: at 120 Hz `Hz30` runs every 4th
   * step with 1/30; at 50 Hz it runs every 2nd step with 0.04 (25 Hz, the nearest whole number of
   * steps). The delta always matches the time simulated, so integrations stay correct.
   */
  BindToSimulation(
    fn: DeltaCallback,
    frequency: EnumItem | string = StepFrequency.Hz30,
    priority: number = SIMULATION_PRIORITY,
  ): RBXScriptConnection {
    if (typeof fn !== 'function') {
      throw new TypeError(`fixedtick: BindToSimulation expects a function, got ${typeof fn}`);
    }
    const hz = stepFrequencyHz(frequency);
    if (hz === undefined) {
      throw optionError('frequency', frequency, 'an Enum.StepFrequency item (Hz60 … Hz1)');
    }
    if (typeof priority !== 'number' || Number.isNaN(priority)) {
      throw optionError('priority', priority, 'a number (lower runs first; default 2000)');
    }
    const period = 1 / hz;
    let counted = 0;
    return this.#track(
      this.loop.onFixedUpdate(
        (fixedDelta) => {
          counted++;
          const every = Math.max(1, Math.round(period / fixedDelta));
          if (counted < every) return;
          const simulated = counted * fixedDelta;
          counted = 0;
          fn(Math.abs(simulated - period) <= STEP_TOLERANCE ? period : simulated);
        },
        { priority },
      ),
    );
  }

  /** Disconnects every connection and binding made through this facade. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#renderBindings.clear();
    for (const connection of [...this.#connections]) connection.Disconnect();
    this.#connections.clear();
  }
}
