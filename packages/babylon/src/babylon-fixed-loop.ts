/**
 * `BabylonFixedLoop`: the core `FixedLoop` wired into a Babylon.js scene that uses Physics V2
 * (Havok). It takes physics stepping over from the scene, steps Havok once per fixed step with
 * exactly `fixedDelta`, and renders every tracked body at its interpolated pose.
 *
 * The adapters' rule: inside `fixedUpdate`/`postSimulation` a tracked node holds its simulation
 * pose; everywhere else it shows its interpolated pose. A pose written to a tracked node outside
 * the fixed step is a teleport: the loop adopts it as the new simulation pose (and moves the
 * Havok body there) in the same frame, with no smear.
 *
 * @example
 * ```ts
 * const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
 * loop.onFixedUpdate((dt) => player.physicsBody.applyImpulse(thrust.scale(dt), player.position));
 * loop.onLateUpdate(() => camera.setTarget(player.position)); // interpolated: no jitter
 * loop.start(); // engine.runRenderLoop; renders the scene once per frame
 * ```
 */

import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import type { Scene } from '@babylonjs/core/scene.js';
import {
  checkInterpolationMode,
  type Driver,
  FixedLoop,
  type FixedLoopOptions,
  type InterpolationMode,
  optionError,
  resolveOptions,
} from '@fixedtick/core';
import {
  kindError,
  type QuaternionLike,
  type SimulationPose,
  Tracker,
  type Vector3Like,
} from '@fixedtick/core/tracking';
import { BabylonPlatform } from './babylon-platform.ts';
import type { NodeLike, SceneLike } from './babylon-shapes.ts';
import { BodyRegistry } from './body-registry.ts';
import { HavokStepper, PHYSICS_V1 } from './havok-stepper.ts';
import { renderLoopDriver } from './render-loop-driver.ts';

/** Options of {@link BabylonFixedLoop}: its own, plus every `FixedLoop` option. */
export interface BabylonFixedLoopOptions extends FixedLoopOptions {
  /**
   * Track every dynamic physics body of the scene automatically, including bodies created
   * later (checked once per frame). Animated and static bodies are tracked only on request.
   * @defaultValue true
   */
  autoTrack?: boolean;
  /**
   * Interpolation mode of auto-tracked bodies and of `track()` without a mode (Unity
   * `RigidbodyInterpolation`). `'interpolate'` is smooth and one step behind; `'extrapolate'`
   * has no lag but overshoots on impacts; `'none'` shows the latest step.
   * @defaultValue `'interpolate'`
   */
  defaultInterpolation?: InterpolationMode;
  /**
   * Call `scene.render()` once per frame, after `preRender`, when the scene has an active
   * camera. Turn it off when something else renders the scene (several scenes on one engine,
   * your own render loop) or on a headless server.
   * @defaultValue true
   */
  render?: boolean;
}

/** Options of {@link BabylonFixedLoop.track}. */
export interface TrackOptions {
  /**
   * Interpolation mode of this node. Without it the node follows the loop's
   * `defaultInterpolation`, also when that changes later.
   * @defaultValue the loop's `defaultInterpolation`
   */
  interpolation?: InterpolationMode;
}

function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw optionError(name, value, 'true or false');
  return value;
}

/** What the loop was built with (validated). */
interface Settings {
  autoTrack: boolean;
  defaultInterpolation: InterpolationMode;
  render: boolean;
}

/** Validates the scene and splits the adapter's options from the loop's (which reject unknowns). */
function prepare(
  scene: Scene,
  options: BabylonFixedLoopOptions,
): { loop: FixedLoopOptions; settings: Settings } {
  const s = scene as unknown as SceneLike;
  if (s === null || typeof s !== 'object' || typeof s.getEngine !== 'function') {
    // a wrong kind of object: a TypeError, worded (and the value shown) like every option error
    throw new TypeError(optionError('scene', s, 'a Babylon.js Scene').message);
  }
  if (s.getEngine().isDeterministicLockStep()) {
    throw new Error(
      'fixedtick: this Babylon engine was created with { deterministicLockstep: true }, so Babylon already steps physics in fixed steps itself (and never interpolates). BabylonFixedLoop replaces that: create the engine without it; see docs/babylon.md, "Migrating from deterministicLockstep".',
    );
  }
  const physics = s.getPhysicsEngine?.() ?? null;
  if (physics !== null && physics.getPluginVersion() !== 2) {
    throw new Error(PHYSICS_V1);
  }
  // not an object: the core's options check words the error
  if (options === null || typeof options !== 'object')
    return { loop: options, settings: {} as Settings };
  // an unknown key is named against the loop's options and these (with a "did you mean")
  resolveOptions(options, ['autoTrack', 'defaultInterpolation', 'render']);
  const { autoTrack, defaultInterpolation, render, ...loop } = options;
  return {
    loop,
    settings: {
      autoTrack: autoTrack === undefined ? true : checkBoolean(autoTrack, 'autoTrack'),
      defaultInterpolation:
        defaultInterpolation === undefined
          ? 'interpolate'
          : checkInterpolationMode(defaultInterpolation, 'defaultInterpolation'),
      render: render === undefined ? true : checkBoolean(render, 'render'),
    },
  };
}

/**
 * A `FixedLoop` that owns a Babylon.js scene's physics stepping and renders its bodies
 * interpolated. It is a `FixedLoop` (every hook, option and control is there); see the module
 * doc and `docs/babylon.md`.
 */
export class BabylonFixedLoop extends FixedLoop {
  /** The scene this loop steps and renders. */
  readonly scene: Scene;
  readonly #tracker: Tracker<NodeLike>;
  readonly #platform: BabylonPlatform;
  readonly #registry: BodyRegistry;
  readonly #settings: Settings;

  /**
   * Takes over `scene`'s physics stepping (`scene.physicsEnabled` is set to `false` until
   * `dispose()`). Throws an `Error` if the engine was created with `deterministicLockstep` or the
   * scene uses Physics V1, and a `RangeError` naming any bad option.
   */
  constructor(scene: Scene, options: BabylonFixedLoopOptions = {}) {
    const { loop, settings } = prepare(scene, options);
    super(loop);
    this.scene = scene;
    this.#settings = settings;
    const shape = scene as unknown as SceneLike;
    const stepper = new HavokStepper(shape);
    this.#platform = new BabylonPlatform(stepper);
    this.#tracker = new Tracker<NodeLike>(this.#platform, {
      defaultInterpolation: settings.defaultInterpolation,
      nodeName: 'node',
    });
    this.#platform.tracker = this.#tracker;
    stepper.tracker = this.#tracker;
    this.#registry = new BodyRegistry(this.#tracker, stepper, settings.autoTrack);
    this.addAdapter(this.#registry);
    this.addAdapter(this.#tracker);
    this.addAdapter(stepper);
    this.addAdapter({ render: () => this.#render() });
    if (settings.autoTrack) this.#registry.beginFrame();
  }

  /**
   * Interpolates `node` from now on. A node with a physics body is interpolated in world space
   * (where Havok simulates it); any other node in its parent's space. A mesh whose physics body
   * has thin instances is tracked instance by instance, each keeping its own scale.
   */
  track(node: TransformNode, options: TrackOptions = {}): this {
    this.#registry.track(this.#node(node), this.#mode(options));
    return this;
  }

  /**
   * The interpolation mode of auto-tracked bodies and of nodes tracked without a mode. Live:
   * setting it switches all of those at once (a mode selector in a settings menu); nodes
   * tracked with an explicit mode keep theirs.
   */
  get defaultInterpolation(): InterpolationMode {
    return this.#tracker.defaultInterpolation;
  }
  set defaultInterpolation(mode: InterpolationMode) {
    this.#tracker.defaultInterpolation = mode;
    this.#settings.defaultInterpolation = mode;
  }

  /**
   * Stops interpolating `node` and leaves it at its simulation pose. An auto-tracked body stays
   * untracked. Returns false if it was not tracked.
   */
  untrack(node: TransformNode): boolean {
    return this.#registry.untrack(node as unknown as NodeLike);
  }

  /** True if `node` is tracked (explicitly or automatically). */
  isTracked(node: TransformNode): boolean {
    return this.#registry.isTracked(node as unknown as NodeLike);
  }

  /** The interpolation mode of a tracked node, or `undefined`. */
  interpolationOf(node: TransformNode): InterpolationMode | undefined {
    const n = node as unknown as NodeLike;
    return this.#tracker.modeOf(n) ?? this.#tracker.modeOf(n, this.#firstInstance(n));
  }

  /** How many poses are tracked (a thin-instanced mesh counts once per instance). */
  get trackedCount(): number {
    return this.#tracker.size;
  }

  /** The core tracker behind this loop (for tools and tests: slots, resting count, poses). */
  get tracker(): Tracker<NodeLike> {
    return this.#tracker;
  }

  /**
   * The latest simulation pose of `node` (thin instance `index` of a mesh; without `index`, its
   * first instance), whatever is shown: world space for a physics body, local otherwise, as
   * number tuples (the same shape every adapter returns). Throws a `RangeError` if it is not
   * tracked.
   */
  getSimulationPose(node: TransformNode, index = -1): SimulationPose {
    const n = node as unknown as NodeLike;
    const i = index === -1 && !this.#tracker.isTracked(n) ? this.#firstInstance(n) : index;
    return this.#tracker.getSimulationPose(n, i);
  }

  /**
   * Forgets previous poses (Godot `reset_physics_interpolation`): with no argument for every
   * tracked node, else for `node` (thin instance `index`, or all its instances) and its tracked
   * descendants, so the next rendered frame shows the simulation pose with no streak.
   */
  override resetInterpolation(node?: TransformNode, index = -1): void {
    if (node === undefined) {
      super.resetInterpolation();
      return;
    }
    this.#tracker.reset(node as unknown as NodeLike, index === -1 ? undefined : index);
  }

  /**
   * Moves `node` (and its Havok body, keeping its velocity) to `position` and, if given,
   * `rotation` — in the node's local space, like writing `node.position` — and resets its
   * interpolation, so this very frame renders it there with no streak. Works inside and outside
   * the fixed step, for tracked and untracked nodes.
   */
  teleport(node: TransformNode, position: Vector3Like, rotation?: QuaternionLike): void {
    const n = this.#node(node);
    if (this.#tracker.instancesOf(n).length > 0) {
      throw new Error(
        `fixedtick: "${n.name}" is a thin-instanced physics mesh; use teleportInstance(mesh, index, position, rotation?)`,
      );
    }
    if (this.#tracker.isTracked(n)) {
      this.#tracker.teleport(n, position, rotation);
      return;
    }
    // an untracked node: move it, and its body if it has one
    const pose = new Float64Array(10);
    this.#platform.read(n, -1, pose, 0);
    pose[0] = position.x;
    pose[1] = position.y;
    pose[2] = position.z;
    this.#platform.writePosition(n, -1, pose, 0);
    if (rotation) {
      pose[3] = rotation.x;
      pose[4] = rotation.y;
      pose[5] = rotation.z;
      pose[6] = rotation.w;
      this.#platform.writeRotation(n, -1, pose, 0);
    }
    const body = n.physicsBody;
    if (body) this.#platform.pushBody(body, n);
  }

  /**
   * {@link BabylonFixedLoop.teleport} for thin instance `index` of a thin-instanced physics
   * mesh: the instance keeps its scale. Position and rotation are in the mesh's space (Havok
   * treats thin-instance matrices as world matrices).
   */
  teleportInstance(
    mesh: Mesh,
    index: number,
    position: Vector3Like,
    rotation?: QuaternionLike,
  ): void {
    const m = mesh as unknown as NodeLike;
    if (this.#tracker.slotOf(m, index) === undefined || !(index >= 0)) {
      throw optionError('index', index, `a tracked thin instance of "${m.name}"`);
    }
    this.#tracker.teleportInstance(m, index, position, rotation);
  }

  /**
   * Starts feeding frames from `driver`, by default Babylon's own render loop
   * (`engine.runRenderLoop`, see {@link renderLoopDriver}).
   */
  override start(driver?: Driver): void {
    super.start(driver ?? renderLoopDriver(this.scene.getEngine()));
  }

  /** Bodies under moved parents are expressed in their parents' frames again, then the scene drawn. */
  #render(): void {
    this.#tracker.rewriteWorldNodes();
    const scene = this.scene as unknown as SceneLike;
    if (!this.#settings.render || scene.isDisposed) return;
    if (scene.activeCamera || scene.activeCameras?.length) scene.render();
  }

  #node(node: TransformNode): NodeLike {
    const n = node as unknown as NodeLike;
    if (n === null || typeof n !== 'object' || typeof n.isDisposed !== 'function' || !n.position) {
      throw kindError('node', node, 'a Babylon.js TransformNode or Mesh');
    }
    return n;
  }

  #mode(options: TrackOptions): InterpolationMode | undefined {
    if (options === null || typeof options !== 'object') {
      throw optionError('options', options, 'an object');
    }
    return options.interpolation === undefined
      ? undefined
      : checkInterpolationMode(options.interpolation, 'interpolation');
  }

  #firstInstance(node: NodeLike): number {
    return this.#tracker.instancesOf(node)[0] ?? -1;
  }
}
