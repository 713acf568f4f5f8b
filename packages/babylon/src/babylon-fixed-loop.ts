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
} from '@fixedtick/core';
import { POSE_STRIDE } from '@fixedtick/core/interpolation';
import type { NodeLike, SceneLike } from './babylon-shapes.ts';
import { BodyTracker, PHYSICS_V1, type TrackerSettings } from './body-tracker.ts';
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

/** A position: a Babylon `Vector3` or any `{ x, y, z }`. */
export interface Vector3Like {
  /** X component. */
  x: number;
  /** Y component (up in Babylon's default left-handed frame). */
  y: number;
  /** Z component. */
  z: number;
}

/** A rotation quaternion: a Babylon `Quaternion` or any `{ x, y, z, w }`. */
export interface QuaternionLike {
  /** X of the vector part. */
  x: number;
  /** Y of the vector part. */
  y: number;
  /** Z of the vector part. */
  z: number;
  /** Scalar part. */
  w: number;
}

/** A simulation pose, copied out of the loop (world space for physics bodies). */
export interface SimulationPose {
  /** Position `[x, y, z]`. */
  position: [number, number, number];
  /** Rotation quaternion `[x, y, z, w]`. */
  rotation: [number, number, number, number];
  /** Scale `[x, y, z]`. */
  scale: [number, number, number];
}

function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw optionError(name, value, 'true or false');
  return value;
}

/** Validates the scene and splits the adapter's options from the loop's (which reject unknowns). */
function prepare(
  scene: Scene,
  options: BabylonFixedLoopOptions,
): { loop: FixedLoopOptions; settings: TrackerSettings } {
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
    return { loop: options, settings: {} as TrackerSettings };
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
  readonly #tracker: BodyTracker;
  readonly #settings: TrackerSettings;

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
    this.#tracker = new BodyTracker(scene as unknown as SceneLike, this, settings);
    this.addAdapter(this.#tracker);
    if (settings.autoTrack) this.#tracker.beginFrame();
  }

  /**
   * Interpolates `node` from now on. A node with a physics body is interpolated in world space
   * (where Havok simulates it); any other node in its parent's space. A mesh whose physics body
   * has thin instances is tracked instance by instance, each keeping its own scale.
   */
  track(node: TransformNode, options: TrackOptions = {}): this {
    const mode =
      options.interpolation === undefined
        ? undefined
        : checkInterpolationMode(options.interpolation, 'interpolation');
    this.#tracker.track(node as unknown as NodeLike, mode);
    return this;
  }

  /**
   * The interpolation mode of auto-tracked bodies and of nodes tracked without a mode. Live:
   * setting it switches all of those at once (a mode selector in a settings menu); nodes
   * tracked with an explicit mode keep theirs.
   */
  get defaultInterpolation(): InterpolationMode {
    return this.#settings.defaultInterpolation;
  }
  set defaultInterpolation(mode: InterpolationMode) {
    this.#tracker.setDefaultMode(checkInterpolationMode(mode, 'defaultInterpolation'));
  }

  /**
   * Stops interpolating `node` and leaves it at its simulation pose. An auto-tracked body stays
   * untracked. Returns false if it was not tracked.
   */
  untrack(node: TransformNode): boolean {
    return this.#tracker.untrack(node as unknown as NodeLike);
  }

  /** True if `node` is tracked (explicitly or automatically). */
  isTracked(node: TransformNode): boolean {
    return this.#tracker.isTracked(node as unknown as NodeLike);
  }

  /** The interpolation mode of a tracked node, or `undefined`. */
  interpolationOf(node: TransformNode): InterpolationMode | undefined {
    return this.#tracker.modeOf(node as unknown as NodeLike);
  }

  /** How many poses are tracked (a thin-instanced mesh counts once per instance). */
  get trackedCount(): number {
    return this.#tracker.count;
  }

  /**
   * The latest simulation pose of `node` (thin instance `index` of a mesh), whatever is shown:
   * world space for a physics body, local otherwise. `undefined` if it is not tracked.
   */
  getSimulationPose(node: TransformNode, index = -1): SimulationPose | undefined {
    const row = new Float64Array(POSE_STRIDE);
    if (!this.#tracker.simulationPose(node as unknown as NodeLike, index, row)) return undefined;
    return {
      position: [row[0], row[1], row[2]],
      rotation: [row[3], row[4], row[5], row[6]],
      scale: [row[7], row[8], row[9]],
    };
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
    this.#tracker.resetNode(node as unknown as NodeLike, index);
  }

  /**
   * Moves `node` (and its Havok body, keeping its velocity) to `position` and, if given,
   * `rotation` — in the node's local space, like writing `node.position` — and resets its
   * interpolation, so this very frame renders it there with no streak. Works inside and outside
   * the fixed step, for tracked and untracked nodes.
   */
  teleport(node: TransformNode, position: Vector3Like, rotation?: QuaternionLike): void {
    this.#tracker.teleport(node as unknown as NodeLike, position, rotation);
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
    this.#tracker.teleportInstance(mesh as unknown as NodeLike, index, position, rotation);
  }

  /**
   * Starts feeding frames from `driver`, by default Babylon's own render loop
   * (`engine.runRenderLoop`, see {@link renderLoopDriver}).
   */
  override start(driver?: Driver): void {
    super.start(driver ?? renderLoopDriver(this.scene.getEngine()));
  }
}
