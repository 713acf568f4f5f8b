/**
 * Havok stepping: takes physics stepping over from the scene and steps Physics V2 once per fixed
 * step with exactly `fixedDelta`, in Babylon's own sequence (`onBeforePhysicsObservable`,
 * `plugin.executeStep`, `onAfterPhysicsObservable`), between `fixedUpdate` and `postSimulation`.
 * @internal
 */
import type { LoopAdapter } from '@fixedtick/core';
import {
  type BodyLike,
  type NodeLike,
  type PhysicsEngineV2Like,
  PRESTEP_TELEPORT,
  type SceneLike,
} from './babylon-shapes.ts';

/** The error for a scene on Physics V1 (at construction, or at a frame if enabled later). */
export const PHYSICS_V1 =
  'fixedtick: BabylonFixedLoop steps Physics V2 (Havok) only; this scene uses a Physics V1 plugin (PhysicsImpostor). Enable physics with a HavokPlugin.';

/** A thin-instanced body the stepper gives its scale back after each step. */
export interface ScaledInstances {
  readonly mesh: NodeLike;
  readonly body: BodyLike;
  /** By instance index: its tracker slot, whose simulation scale is multiplied back in. */
  readonly slots: Int32Array;
}

/** Steps a scene's Havok world at the loop's fixed steps; see the module doc. */
export class HavokStepper implements LoopAdapter {
  readonly #scene: SceneLike;
  readonly #savedPhysicsEnabled: boolean;
  #savedTimeStep = Number.NaN;
  #timeStepEngine: PhysicsEngineV2Like | null = null;
  #detached = false;
  /** Thin-instanced bodies, whose scale Havok's sync drops (kept by the body registry). */
  scaled: readonly ScaledInstances[] = [];
  /** Havok steps run so far (the bulk pose reader checks Havok's heap once per step). */
  stepCount = 0;
  /** The tracker whose simulation scales `scaled` refers to (set by the loop). */
  tracker: { readonly poses: { readonly current: Float64Array } } | undefined;

  /** Turns the scene's own physics step off (`scene.physicsEnabled = false`) until `detach`. */
  constructor(scene: SceneLike) {
    this.#scene = scene;
    // Babylon must not also step: `Scene.animate` skips `_advancePhysicsEngineStep` when off
    this.#savedPhysicsEnabled = scene.physicsEnabled;
    scene.physicsEnabled = false;
  }

  /** The scene's Physics V2 engine, or `null`; throws {@link PHYSICS_V1} for a V1 engine. */
  physicsEngine(): PhysicsEngineV2Like | null {
    const engine = this.#scene.getPhysicsEngine?.() ?? null;
    if (engine === null) return null;
    if (engine.getPluginVersion() !== 2 || !engine.getBodies) throw new Error(PHYSICS_V1);
    return engine as PhysicsEngineV2Like;
  }

  /** Something turned Babylon's own physics step back on: it would step a second time. */
  beginFrame(): void {
    if (this.#scene.physicsEnabled) this.#scene.physicsEnabled = false;
  }

  /** One Havok step of exactly `fixedDelta`, with Babylon's observables around it. */
  physicsStep(fixedDelta: number): void {
    const engine = this.physicsEngine();
    if (engine === null) return;
    const plugin = engine.getPhysicsPlugin();
    if (this.#timeStepEngine !== engine) {
      this.#timeStepEngine = engine;
      this.#savedTimeStep = plugin.getTimeStep();
    }
    // `applyForce` converts force to impulse with the plugin's time step: keep it = fixedDelta
    if (plugin.getTimeStep() !== fixedDelta) plugin.setTimeStep(fixedDelta);
    const scene = this.#scene;
    scene.onBeforePhysicsObservable?.notifyObservers(scene);
    plugin.executeStep(fixedDelta, engine.getBodies());
    this.stepCount++;
    this.#rescale();
    scene.onAfterPhysicsObservable?.notifyObservers(scene);
  }

  /** Teleports `body` to `node`'s pose (Havok reads it from the node), whatever its pre-step type. */
  pushBody(body: BodyLike, node: NodeLike): void {
    const engine = this.physicsEngine();
    if (engine === null || body.isDisposed === true) return;
    const type = body.getPrestepType();
    body.setPrestepType(PRESTEP_TELEPORT);
    try {
      engine.getPhysicsPlugin().setPhysicsBodyTransformation(body, node);
    } finally {
      body.setPrestepType(type);
    }
  }

  /** Hands stepping back to Babylon, with the plugin's own time step. */
  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    this.#scene.physicsEnabled = this.#savedPhysicsEnabled;
    if (!Number.isNaN(this.#savedTimeStep)) {
      this.#timeStepEngine?.getPhysicsPlugin().setTimeStep(this.#savedTimeStep);
    }
  }

  /** Havok writes thin-instance matrices without scale: multiply each instance's back in. */
  #rescale(): void {
    const list = this.scaled;
    if (list.length === 0 || this.tracker === undefined) return;
    const current = this.tracker.poses.current;
    for (let e = 0; e < list.length; e++) {
      const { mesh, body, slots } = list[e];
      const data = mesh._thinInstanceDataStorage?.matrixData;
      if (!data || body.disableSync) continue;
      const n = Math.min(slots.length, data.length / 16);
      for (let i = 0; i < n; i++) {
        const scale = slots[i] * 10 + 7;
        for (let k = 0; k < 12; k++) data[i * 16 + k] *= current[scale + (k >> 2)];
      }
    }
  }
}
