/**
 * Godot's `Engine` singleton and scene-tree processing over one {@link FixedLoop}, so ported
 * GDScript keeps its names and its timing: `_physics_process(delta)` every fixed step,
 * `_process(delta)` every frame, and below `physics_ticks_per_second / max_physics_steps_per_frame`
 * fps (7.5 fps by default) the game slows down instead of spiralling, as in Godot.
 *
 * The facade owns no clock: every property reads or writes the loop.
 *
 * | Godot | loop |
 * |---|---|
 * | `physics_ticks_per_second` | `tickRate` |
 * | `max_physics_steps_per_frame` | `maxStepsPerFrame` |
 * | `physics_jitter_fix` | `jitterFix` |
 * | `time_scale` | `timeScale` |
 * | `get_physics_interpolation_fraction()` | `alpha` |
 * | `is_in_physics_frame()` | `inFixedStep` |
 *
 * @example
 * ```ts
 * const loop = new FixedLoop(presets.godot); // 60 ticks, 8 max steps, jitter fix 0 (see presets)
 * const engine = new GodotEngine(loop);
 * class Mover extends Node {
 *   x = 0;
 *   override _physics_process(delta: number) { this.x += 120 * delta; }
 * }
 * engine.root.add_child(new Mover());
 * loop.start();
 * ```
 * @see https://docs.godotengine.org/en/stable/classes/class_engine.html
 */
import type { FixedLoop } from '../fixed-loop.ts';
import type { Unsubscribe } from '../hook.ts';
import { checkJitterFix, checkMaxSteps, checkTimeScale, optionError } from '../options.ts';
import { attachTree, Node, type NodeTree } from './node.ts';

/** Listener of {@link GodotEngine.onResetPhysicsInterpolation}. */
export type ResetListener = (node: Node) => void;

const FIRST = Number.NEGATIVE_INFINITY;
const LAST = Number.POSITIVE_INFINITY;

/**
 * Godot's `Engine` (plus the `SceneTree` root and its processing) bound to one loop:
 * `const Engine = new GodotEngine(loop)`. `dispose()` detaches it.
 */
export class GodotEngine {
  /** The loop this facade reads and drives. */
  readonly loop: FixedLoop;
  /** The scene tree's root (`get_tree().root`): add your nodes under it. */
  readonly root: Node;
  /**
   * The tree's global interpolation switch (Godot's `SceneTree.physics_interpolation`). `true`
   * here, where Godot's project setting defaults to `false`: interpolation is what Fixedtick is
   * for. Adapters should combine it with each node's mode via
   * `node.is_physics_interpolated_and_enabled()`.
   * @defaultValue true
   */
  physics_interpolation = true;

  #resetListeners: readonly ResetListener[] = [];
  #subscriptions: Unsubscribe[];
  #errors: unknown[] = [];
  #inFrame = false;
  #disposed = false;

  /** @param loop the one clock; `presets.godot` gives Godot's defaults. */
  constructor(loop: FixedLoop) {
    if (loop === null || typeof loop !== 'object' || typeof loop.onFixedUpdate !== 'function') {
      throw new TypeError('fixedtick: GodotEngine needs a FixedLoop');
    }
    this.loop = loop;
    this.root = new Node('root');
    const tree: NodeTree = {
      interpolationEnabled: () => this.physics_interpolation,
      physicsDelta: () => loop.fixedDelta,
      processDelta: () => loop.lastFrame.delta,
      notifyReset: (node) => this.#notifyReset(node),
    };
    attachTree(this.root, tree);
    this.#subscriptions = [
      loop.onFrameStart(
        () => {
          this.#inFrame = true;
        },
        { priority: FIRST },
      ),
      loop.onFixedUpdate((delta) => this.#dispatch(this.root, delta, true)),
      loop.onUpdate((delta) => this.#dispatch(this.root, delta, false)),
      loop.onPostRender(
        () => {
          this.#inFrame = false;
        },
        { priority: LAST },
      ),
    ];
  }

  // ---- Engine properties ----------------------------------------------------------------

  /** Fixed steps per second (Godot's default: 60). A whole number ≥ 1, as in Godot. */
  get physics_ticks_per_second(): number {
    return this.loop.tickRate;
  }
  set physics_ticks_per_second(value: number) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw optionError('physics_ticks_per_second', value, 'a whole number of ticks ≥ 1');
    }
    this.loop.tickRate = value;
  }

  /**
   * Most fixed steps one frame may run (Godot's default: 8). Whole excess steps are dropped, so
   * below `physics_ticks_per_second / max_physics_steps_per_frame` fps the game slows down.
   */
  get max_physics_steps_per_frame(): number {
    return this.loop.maxStepsPerFrame;
  }
  set max_physics_steps_per_frame(value: number) {
    this.loop.maxStepsPerFrame = checkMaxSteps(value, 'max_physics_steps_per_frame');
  }

  /**
   * How far (in steps) a frame may run early or late to keep steps per frame even (0 to 2),
   * computed as Godot's `MainTimerSync` does, frame for frame. `presets.godot` sets 0, as
   * Godot's class reference advises with a custom interpolation (Fixedtick interpolates);
   * Godot's own default is 0.5. The 12-frame history is kept while it is 0, so switching it on
   * at run time behaves as in Godot.
   */
  get physics_jitter_fix(): number {
    return this.loop.jitterFix;
  }
  set physics_jitter_fix(value: number) {
    this.loop.jitterFix = checkJitterFix(value, 'physics_jitter_fix');
  }

  /**
   * Game time per real time (≥ 0). Unlike Godot, which keeps the tick rate and stretches each
   * tick's `delta`, this changes how many fixed steps run and keeps `delta` at
   * `1 / physics_ticks_per_second`, so physics stays exactly as stable at any speed.
   */
  get time_scale(): number {
    return this.loop.timeScale;
  }
  set time_scale(value: number) {
    this.loop.timeScale = checkTimeScale(value, 'time_scale');
  }

  /** How far rendering is between the last two fixed steps, in [0, 1]: the loop's `alpha`. */
  get_physics_interpolation_fraction(): number {
    return this.loop.alpha;
  }

  /** True inside `_physics_process` (the loop's fixed step). */
  is_in_physics_frame(): boolean {
    return this.loop.inFixedStep;
  }

  /**
   * Fixed steps run since start. As in Godot 4.4+, the count includes the step under way, so the
   * first `_physics_process` reads 1.
   */
  get_physics_frames(): number {
    const loop = this.loop;
    return loop.tick + (loop.inFixedStep ? 1 : 0);
  }

  /**
   * Frames completed since start. As in Godot, the count goes up at the end of a frame, so the
   * first frame's `_process` reads 0.
   */
  get_process_frames(): number {
    return this.loop.frameCount - (this.#inFrame ? 1 : 0);
  }

  // ---- interpolation reset hook ---------------------------------------------------------

  /**
   * Calls `fn(node)` for every node that `reset_physics_interpolation()` reaches (the node and
   * its descendants, parents first), so an adapter can reset the object the node drives:
   * `engine.onResetPhysicsInterpolation((n) => three.resetInterpolation(meshOf(n)))`.
   * Returns the function that removes the listener.
   */
  onResetPhysicsInterpolation(fn: ResetListener): Unsubscribe {
    if (typeof fn !== 'function') {
      throw new TypeError('fixedtick: onResetPhysicsInterpolation expects a function');
    }
    this.#resetListeners = [...this.#resetListeners, fn];
    return () => {
      this.#resetListeners = this.#resetListeners.filter((f) => f !== fn);
    };
  }

  /** Detaches from the loop. The loop and the nodes stay as they are. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const off of this.#subscriptions) off();
    this.#subscriptions = [];
    this.#resetListeners = [];
  }

  // ---- internals ------------------------------------------------------------------------

  #notifyReset(node: Node): void {
    const list = this.#resetListeners;
    for (let i = 0; i < list.length; i++) list[i](node);
  }

  /**
   * Calls `_physics_process` (or `_process`) on the tree in Godot's order: depth first, parents
   * before children, siblings in order. A throwing node does not stop the others; the errors are
   * rethrown together afterwards, so the loop reports them through `onError`.
   */
  #dispatch(root: Node, delta: number, physics: boolean): void {
    this.#walk(root, delta, physics);
    const errors = this.#errors;
    if (errors.length === 0) return;
    const thrown = errors.splice(0, errors.length);
    throw thrown.length === 1
      ? thrown[0]
      : new AggregateError(thrown, `fixedtick: ${thrown.length} Godot nodes threw`);
  }

  #walk(node: Node, delta: number, physics: boolean): void {
    try {
      if (physics) {
        if (node.is_physics_processing()) node._physics_process?.(delta);
      } else if (node.is_processing()) {
        node._process?.(delta);
      }
    } catch (error) {
      this.#errors.push(error);
    }
    const children = node.get_children();
    for (let i = 0; i < children.length; i++) this.#walk(children[i], delta, physics);
  }
}
