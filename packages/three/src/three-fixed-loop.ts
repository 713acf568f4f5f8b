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
  type InstanceTrackOptions,
  kindError,
  type QuaternionLike,
  type SimulationPose,
  Tracker,
  type TrackOptions,
  type Vector3Like,
} from '@fixedtick/core/tracking';
import type { Camera, InstancedMesh, Object3D } from 'three';
import { animationLoopDriver, type ThreeRenderer } from './animation-loop-driver.ts';
import { ThreePlatform } from './three-platform.ts';

/** The options {@link ThreeFixedLoop} adds to the loop's. */
const THREE_OPTION_NAMES = ['renderer', 'scene', 'camera', 'defaultInterpolation'] as const;

/** Options of {@link ThreeFixedLoop}: the three.js parts, plus every {@link FixedLoopOptions}. */
export interface ThreeFixedLoopOptions extends FixedLoopOptions {
  /**
   * Draws each frame after `preRender` (`renderer.render(scene, camera)`), and drives `start()`
   * through `renderer.setAnimationLoop`. Without it the loop renders nothing (tests, servers,
   * or your own render call in `preRender`).
   */
  renderer?: ThreeRenderer;
  /** What the renderer draws; required with `renderer`. */
  scene?: Object3D;
  /** The camera the renderer draws from; required with `renderer`. */
  camera?: Camera;
  /**
   * Interpolation mode of objects tracked without one.
   * @defaultValue `'interpolate'`
   */
  defaultInterpolation?: InterpolationMode;
}

/**
 * A {@link FixedLoop} for three.js: gameplay and physics move tracked objects in fixed steps,
 * and every frame draws them interpolated between the last two steps, so motion is the same at
 * 30, 60 or 144 Hz and smooth at all of them.
 *
 * **The rule:** inside `fixedUpdate`/`postSimulation` a tracked object holds its simulation pose;
 * everywhere else it shows its interpolated pose. A pose written to a tracked object outside the
 * fixed step is a teleport: it becomes the simulation pose, drawn in the same frame, no smear.
 *
 * @example
 * ```ts
 * const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
 * loop.track(cube);
 * loop.onFixedUpdate((dt) => { cube.position.x += 3 * dt; cube.rotation.y += 2 * dt; });
 * loop.onLateUpdate(() => camera.lookAt(cube.position)); // follows the drawn pose: no jitter
 * loop.start(); // renderer.setAnimationLoop: WebXR-safe
 * ```
 */
export class ThreeFixedLoop extends FixedLoop {
  /** Draws each frame when set together with `scene` and `camera`. Live. */
  renderer: ThreeRenderer | undefined;
  /** What `renderer` draws. Live. */
  scene: Object3D | undefined;
  /** The camera `renderer` draws from. Live. */
  camera: Camera | undefined;
  readonly #tracker: Tracker<Object3D>;

  /** @param options three.js parts and loop options; a bad value throws a `RangeError` naming it. */
  constructor(options: ThreeFixedLoopOptions = {}) {
    const isObject = options !== null && typeof options === 'object';
    const {
      renderer,
      scene,
      camera,
      defaultInterpolation = 'interpolate',
      ...loopOptions
    } = isObject ? options : ({} as ThreeFixedLoopOptions);
    // an unknown key is named against the loop's options and these (with a "did you mean")
    if (isObject) resolveOptions(options, THREE_OPTION_NAMES);
    // FixedLoop rejects unknown keys: hand it only its own (or the bad value, to name it)
    super(isObject ? loopOptions : options);
    if (renderer !== undefined) {
      if (
        renderer === null ||
        typeof renderer.setAnimationLoop !== 'function' ||
        typeof renderer.render !== 'function'
      ) {
        throw optionError('renderer', renderer, 'a three.js renderer (setAnimationLoop, render)');
      }
      if (scene?.isObject3D !== true) {
        throw optionError('scene', scene, 'a three.js Object3D when a renderer is given');
      }
      if (camera?.isCamera !== true) {
        throw optionError('camera', camera, 'a three.js Camera when a renderer is given');
      }
    }
    this.renderer = renderer;
    this.scene = scene;
    this.camera = camera;
    this.#tracker = new Tracker<Object3D>(new ThreePlatform(), {
      // only undefined means the default (the destructuring above): null is refused
      defaultInterpolation: checkInterpolationMode(defaultInterpolation, 'defaultInterpolation'),
      nodeName: 'object3d',
    });
    this.addAdapter(this.#tracker);
    this.addAdapter({ render: () => this.#render() });
  }

  /**
   * Interpolation mode of objects tracked without one. Live: setting it switches all of those at
   * once (a mode selector in a settings menu); objects tracked with a mode keep theirs. A bad
   * value throws a `RangeError`.
   */
  get defaultInterpolation(): InterpolationMode {
    return this.#tracker.defaultInterpolation;
  }
  set defaultInterpolation(value: InterpolationMode) {
    this.#tracker.defaultInterpolation = value;
  }

  /** Tracked objects and instances. */
  get trackedCount(): number {
    return this.#tracker.size;
  }

  /** The core tracker behind this loop (for tools and tests: slots, resting count, poses). */
  get tracker(): Tracker<Object3D> {
    return this.#tracker;
  }

  /**
   * Puts `object3d` under the loop: its local position, quaternion and scale become simulation
   * state, moved in `fixedUpdate` and drawn interpolated. Its pose now is its starting pose (no
   * streak from the origin). Tracking a tracked object changes its mode.
   */
  track(object3d: Object3D, options?: TrackOptions): void {
    if (object3d?.isObject3D !== true) throw kindError('object3d', object3d, 'a three.js Object3D');
    this.#tracker.track(object3d, options);
  }

  /**
   * Tracks instance `index` of `mesh` like an object: its matrix in `instanceMatrix` is the
   * simulation state, decomposed to position, rotation and scale for interpolation, so each
   * instance keeps its own scale. Move it in `fixedUpdate` with `setMatrixAt`. The interpolated
   * matrices are composed straight into `instanceMatrix` once per frame; they are not put back
   * before the steps unless you pass `restore: true` — do that if `fixedUpdate` reads instance
   * matrices (`getMatrixAt`), or read the simulation pose with `getSimulationPose(mesh, index)`.
   */
  trackInstance(mesh: InstancedMesh, index: number, options?: InstanceTrackOptions): void {
    if (mesh?.isInstancedMesh !== true) {
      throw optionError('instancedMesh', mesh, 'a three.js InstancedMesh');
    }
    const count = mesh.instanceMatrix.count;
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw optionError('index', index, `a whole number from 0 to ${count - 1}`);
    }
    this.#tracker.trackInstance(mesh, index, options);
  }

  /**
   * Stops tracking `object3d`; it is left at its simulation pose (or at a pose you wrote to it
   * since the last frame). Returns false if it was not tracked.
   */
  untrack(object3d: Object3D): boolean {
    return this.#tracker.untrack(object3d);
  }

  /** Stops tracking instance `index` of `mesh`; returns false if it was not tracked. */
  untrackInstance(mesh: InstancedMesh, index: number): boolean {
    return this.#tracker.untrackInstance(mesh, index);
  }

  /** True if `object3d` itself is tracked. */
  isTracked(object3d: Object3D): boolean {
    return this.#tracker.isTracked(object3d);
  }

  /**
   * Teleport (Godot `reset_physics_interpolation`). With no argument: every tracked object. With
   * `object3d`: it (tracked or not) and every tracked object and instance below it in the scene
   * graph; with `index` too: that instance of an `InstancedMesh`. Previous pose = current, so the
   * next frame draws the current (or just written) pose with no streak.
   *
   * You rarely need it: writing a pose outside the fixed step is already a teleport (of the
   * components written). Call it after moving an object far *inside* `fixedUpdate` (a respawn),
   * where a write is ordinary motion.
   */
  override resetInterpolation(object3d?: Object3D, index?: number): void {
    if (object3d === undefined) {
      super.resetInterpolation();
      return;
    }
    this.#tracker.reset(object3d, index);
  }

  /**
   * Moves tracked `object3d` to `position` (local, like writing `position`) and, if given,
   * `rotation`, and resets its interpolation and its tracked descendants', so this very frame
   * draws it there with no streak. Inside `fixedUpdate` it moves at once and its interpolation
   * restarts after the step.
   */
  teleport(object3d: Object3D, position: Vector3Like, rotation?: QuaternionLike): void {
    this.#tracker.teleport(object3d, position, rotation);
  }

  /**
   * Gives instance `index` of `mesh` its pose. Inside `fixedUpdate` this is the fast way to move
   * instances — the pose the step leaves it at, with no matrix written and none read back (the
   * interpolated matrices are composed from the poses once per frame); outside the step it is a
   * teleport. Omitted parts keep their simulation values. A matrix you write to an instance moved
   * this way outside the step is a teleport once you set `mesh.instanceMatrix.needsUpdate = true`
   * (docs/three.md, "Instanced meshes").
   */
  setInstancePose(
    mesh: InstancedMesh,
    index: number,
    position?: Vector3Like,
    rotation?: QuaternionLike,
    scale?: Vector3Like,
  ): void {
    this.#tracker.setInstancePose(mesh, index, position, rotation, scale);
  }

  /** {@link ThreeFixedLoop.teleport} for instance `index` of `mesh`; it keeps its scale. */
  teleportInstance(
    mesh: InstancedMesh,
    index: number,
    position: Vector3Like,
    rotation?: QuaternionLike,
  ): void {
    this.#tracker.teleportInstance(mesh, index, position, rotation);
  }

  /**
   * The simulation pose of a tracked object (or of instance `index` of an `InstancedMesh`), into
   * `target` if given: `{ position, rotation, scale }` as number tuples (the same shape every
   * adapter returns; `vector.fromArray(pose.position)`). Outside the fixed step the object itself
   * shows its interpolated pose; this is the state the simulation holds. Throws a `RangeError`
   * if it is not tracked.
   */
  getSimulationPose(object3d: Object3D, target?: SimulationPose): SimulationPose;
  getSimulationPose(mesh: InstancedMesh, index: number, target?: SimulationPose): SimulationPose;
  getSimulationPose(
    object3d: Object3D,
    indexOrTarget?: number | SimulationPose,
    target?: SimulationPose,
  ): SimulationPose {
    if (typeof indexOrTarget === 'number') {
      if (!(indexOrTarget >= 0)) {
        throw optionError(
          'object3d',
          object3d,
          `a tracked object with tracked instance ${indexOrTarget}`,
        );
      }
      return this.#tracker.getSimulationPose(object3d, indexOrTarget, target);
    }
    return this.#tracker.getSimulationPose(object3d, -1, indexOrTarget);
  }

  /**
   * Starts the loop. With no driver and a `renderer`, it runs on `renderer.setAnimationLoop`
   * with the timestamps three passes (WebXR-safe); with neither, on `requestAnimationFrame`.
   */
  override start(driver?: Driver): void {
    const renderer = this.renderer;
    super.start(driver ?? (renderer === undefined ? undefined : animationLoopDriver(renderer)));
  }

  #render(): void {
    const { renderer, scene, camera } = this;
    if (renderer === undefined || scene === undefined || camera === undefined) return;
    (renderer.render as (scene: Object3D, camera: Camera) => unknown)(scene, camera);
  }
}
