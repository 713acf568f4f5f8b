/**
 * The Babylon.js side of the loop: a core `LoopAdapter` that steps Physics V2 (Havok) once per
 * fixed step and keeps every tracked node's simulation pose apart from the pose it renders.
 *
 * Per frame (see the core `LoopAdapter` for where each call sits):
 * - `beginFrame`: auto-track new dynamic bodies, drop disposed ones.
 * - `beforeSteps`: adopt any pose written to a tracked node since the adapter last wrote it (a
 *   teleport), then restore every tracked node to its simulation pose, so `fixedUpdate` and
 *   Havok's pre-step read the simulation, never an interpolated pose.
 * - `physicsStep`: `onBeforePhysicsObservable`, `plugin.executeStep(fixedDelta)`,
 *   `onAfterPhysicsObservable` — exactly Babylon's own sequence, with an explicit step.
 * - `afterStep`: capture the new simulation pose (and Havok's velocities for extrapolation).
 * - `interpolate`: write the pose to render for `alpha`; on a frame with no step, a node about to
 *   be written is first checked for a write since the last frame (adopted, not overwritten).
 * - `render`: re-express bodies under moved parents, then `scene.render()`.
 *
 * A node is checked for writes only where a pass reads or writes it anyway: before the steps of
 * a frame that runs any, and in the interpolation write. A write made after those (`update`,
 * `preRender`, between frames) is drawn as the node holds it and adopted by the next of them, or
 * when the simulation pose is asked for (`#adoptPending`): always before Havok steps. Unparented
 * bodies (the bulk of a scene) go through tight loops of their own and a node at rest is left
 * untouched; Babylon node objects are large and scattered, so each touch is a cache miss.
 *
 * Spaces: a node driven by a physics body is interpolated in world space (Havok's space), then
 * expressed in its parent's current frame, so it renders where Havok put it whatever its parent
 * does; any other tracked node is interpolated in its local space and composes with its parents.
 * @internal
 */
import type { FixedLoop, LoopAdapter } from '@fixedtick/core';
import {
  type InterpolationMode,
  lerp,
  POSE_STRIDE,
  PoseBuffer,
  SLERP_NLERP_THRESHOLD,
} from '@fixedtick/core/interpolation';
import {
  type BodyLike,
  MOTION_DYNAMIC,
  type NodeLike,
  type PhysicsEngineLike,
  type PhysicsEngineV2Like,
  PRESTEP_TELEPORT,
  type QuatLike,
  type SceneLike,
  type Vec3Like,
} from './babylon-shapes.ts';
import { composeMatrix, decomposeMatrix, scaleBasisRows, worldToLocal } from './pose-math.ts';

/** A tracked node interpolated in its parent's space (no physics body). */
const KIND_LOCAL = 1;
/** A node driven by a physics body: interpolated in world space. */
const KIND_WORLD = 2;
/** One thin instance of a mesh whose physics body has instances. */
const KIND_THIN = 3;

/** Matrix floats per thin instance. */
const MATRIX_STRIDE = 16;
/** Numbers per slot in the saved local simulation pose (position 3, rotation 4). */
const LOCAL_STRIDE = 7;

/** A reusable `Vector3`-shaped sink for Havok's velocity getters. */
class VelocitySink implements Vec3Like {
  x = 0;
  y = 0;
  z = 0;
  set(x: number, y: number, z: number): this {
    this.x = x;
    this.y = y;
    this.z = z;
    return this;
  }
}

/** What the adapter was built with; validated by `BabylonFixedLoop`. */
export interface TrackerSettings {
  autoTrack: boolean;
  defaultInterpolation: InterpolationMode;
  render: boolean;
}

/** Per thin-instanced mesh: its slots by instance index. */
interface ThinEntry {
  mesh: NodeLike;
  body: BodyLike | null;
  slots: number[];
  auto: boolean;
}

/** @internal See the module doc. */
export class BodyTracker implements LoopAdapter {
  readonly #scene: SceneLike;
  readonly #loop: FixedLoop;
  readonly #settings: TrackerSettings;
  readonly #poses = new PoseBuffer();

  // per slot (indexed like the PoseBuffer; grown with it)
  #kind = new Uint8Array(0);
  #instance = new Int32Array(0);
  #parented = new Uint8Array(0);
  #pendingReset = new Uint8Array(0);
  #written = new Float64Array(0);
  #writtenMatrix = new Float32Array(0);
  #simLocal = new Float64Array(0);
  #nodes: (NodeLike | undefined)[] = [];
  /**
   * Each node's `position`, `rotationQuaternion` and `scaling` objects. Babylon nodes have many
   * properties and their getters are slow; the small vector objects are fast. A node whose
   * vector was replaced (`mesh.position = new Vector3(…)`) is noticed once per frame.
   */
  #posRef: Vec3Like[] = [];
  #rotRef: QuatLike[] = [];
  #scaleRef: Vec3Like[] = [];
  #bodies: (BodyLike | null)[] = [];
  #autoSlot = new Uint8Array(0);
  /** 1 where the slot extrapolates (Havok's velocities are read after each step). */
  #extrapolating = new Uint8Array(0);
  /** Slots with `#extrapolating` set: while 0, unparented bodies are interpolated inline. */
  #extrapolatingCount = 0;
  /** 1 where the slot shows the latest pose (`'none'`). */
  #noneMode = new Uint8Array(0);
  /**
   * 1 for an unparented body Havok left where it was at the last step: its previous and current
   * poses are equal, so its render pose is the current one, which its node already holds (until
   * a write from outside, which the checks adopt). The interpolation pass skips it.
   */
  #still = new Uint8Array(0);
  /** `loop.alpha` of the frame being interpolated (a typed array: no heap number per frame). */
  readonly #alpha = new Float64Array(1);
  /** 1 where the slot follows `defaultInterpolation` (auto-tracked, or tracked with no mode). */
  #usesDefault = new Uint8Array(0);

  /**
   * Unparented body slots: the common case (a pile of Havok bodies), which the per-frame passes
   * handle in tight loops of their own. They have no tracked ancestor, so they come first.
   */
  #bodyList = new Int32Array(0);
  #bodyCount = 0;
  /** Every other slot (parented bodies, plain nodes, thin instances), parents before children. */
  #order = new Int32Array(0);
  #orderCount = 0;
  /**
   * True from `beforeSteps` (which checked every node for writes) to the frame's `interpolate`:
   * in between only the simulation wrote to the nodes, so `interpolate` need not check again.
   */
  #checkedThisFrame = false;
  /** Parented body slots and plain-node slots (the passes only they need are skipped at 0). */
  #parentedBodies = 0;
  #plainNodes = 0;
  #orderDirty = false;

  readonly #nodeSlot = new Map<NodeLike, number>();
  readonly #thin = new Map<NodeLike, ThinEntry>();
  #thinList: ThinEntry[] = [];
  /** Thin meshes whose matrix buffer changed this frame. */
  #thinDirty: NodeLike[] = [];
  #thinDirtyCount = 0;

  /** Bodies the physics engine had when last scanned. */
  #mirror: BodyLike[] = [];
  readonly #optedOut = new WeakSet<BodyLike>();

  readonly #linear = new VelocitySink();
  readonly #angular = new VelocitySink();
  readonly #tmp = new Float64Array(POSE_STRIDE);

  readonly #savedPhysicsEnabled: boolean;
  #savedTimeStep = Number.NaN;
  #timeStepPlugin: PhysicsEngineLike | null = null;
  #detached = false;

  constructor(scene: SceneLike, loop: FixedLoop, settings: TrackerSettings) {
    this.#scene = scene;
    this.#loop = loop;
    this.#settings = settings;
    // Babylon must not also step: `Scene.animate` skips `_advancePhysicsEngineStep` when off.
    this.#savedPhysicsEnabled = scene.physicsEnabled;
    scene.physicsEnabled = false;
    this.#growSlots(this.#poses.capacity);
  }

  /** The pose buffer (read-only use: tests and the bench inspect it). */
  get poses(): PoseBuffer {
    return this.#poses;
  }

  /** Tracked slots. */
  get count(): number {
    return this.#poses.count;
  }

  // ---- public operations (through BabylonFixedLoop) ----------------------------------------

  /**
   * Tracks `node` (every instance, for a thin-instanced physics mesh) with `mode`, or with the
   * default mode (and following later changes of it) when `mode` is undefined.
   */
  track(node: NodeLike, mode: InterpolationMode | undefined, auto = false): void {
    const body = node.physicsBody ?? null;
    if (body && body.numInstances > 0) {
      this.#trackThin(node, body, mode, auto);
      return;
    }
    if (body) this.#optedOut.delete(body);
    const existing = this.#nodeSlot.get(node);
    if (existing !== undefined) {
      this.#setMode(existing, mode);
      if (!auto) this.#autoSlot[existing] = 0;
      return;
    }
    if (!node.rotationQuaternion) node.rotationQuaternion = node.rotation.toQuaternion();
    const slot = this.#addSlot(mode);
    this.#kind[slot] = body ? KIND_WORLD : KIND_LOCAL;
    this.#nodes[slot] = node;
    this.#bindRefs(slot, node);
    this.#bodies[slot] = body;
    this.#autoSlot[slot] = auto ? 1 : 0;
    this.#instance[slot] = -1;
    this.#nodeSlot.set(node, slot);
    this.#readNodePose(slot, node);
    const t = this.#tmp;
    this.#poses.setPose(slot, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
    this.#saveWritten(slot);
    this.#orderDirty = true;
  }

  /** Stops tracking `node`; it is left at its simulation pose. */
  untrack(node: NodeLike): boolean {
    const thin = this.#thin.get(node);
    if (thin) {
      const body = thin.body;
      if (body && thin.auto) this.#optedOut.add(body);
      this.#removeThin(thin, true);
      return true;
    }
    const slot = this.#nodeSlot.get(node);
    if (slot === undefined) return false;
    this.#adoptPending(slot);
    const body = this.#bodies[slot];
    if (body && this.#autoSlot[slot] === 1) this.#optedOut.add(body);
    this.#removeSlot(slot, true);
    return true;
  }

  /** True if `node` (or a thin-instanced mesh) is tracked. */
  isTracked(node: NodeLike): boolean {
    return this.#nodeSlot.has(node) || this.#thin.has(node);
  }

  /** The interpolation mode of a tracked node, or `undefined`. */
  modeOf(node: NodeLike): InterpolationMode | undefined {
    const slot = this.#nodeSlot.get(node) ?? this.#thin.get(node)?.slots[0];
    return slot === undefined ? undefined : this.#poses.getMode(slot);
  }

  /** Copies the simulation pose of `node` (or thin instance `index`) into `out` (10 numbers). */
  simulationPose(node: NodeLike, index: number, out: Float64Array | number[]): boolean {
    const slot = this.#slotOf(node, index);
    if (slot === undefined) return false;
    this.#adoptPending(slot);
    const c = this.#poses.current;
    const row = slot * POSE_STRIDE;
    for (let k = 0; k < POSE_STRIDE; k++) out[k] = c[row + k];
    if (this.#kind[slot] === KIND_WORLD) {
      // Havok does not simulate scale, so the per-step capture skips it: it is the node's own
      const s = node.scaling;
      out[7] = s.x;
      out[8] = s.y;
      out[9] = s.z;
    }
    return true;
  }

  /** `resetInterpolation(node)`: the node (all its instances) and its tracked descendants. */
  resetNode(node: NodeLike, index = -1): boolean {
    const thin = this.#thin.get(node);
    if (thin && index < 0) {
      for (const slot of thin.slots) this.#resetSlot(slot);
      this.#flushThin();
      return true;
    }
    const slot = this.#slotOf(node, index);
    if (slot === undefined) return false;
    this.#adoptPending(slot);
    this.#resetSlot(slot);
    this.#flushThin();
    return true;
  }

  /** Moves `node` and its Havok body now, with no interpolation streak. */
  teleport(
    node: NodeLike,
    px: number,
    py: number,
    pz: number,
    hasRotation: boolean,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
  ): void {
    if (this.#thin.has(node)) {
      throw new Error(
        `fixedtick: "${node.name}" is a thin-instanced physics mesh; use teleportInstance(mesh, index, position, rotation?)`,
      );
    }
    node.position.set(px, py, pz);
    if (hasRotation) {
      if (!node.rotationQuaternion) node.rotationQuaternion = node.rotation.toQuaternion();
      node.rotationQuaternion.set(qx, qy, qz, qw);
    }
    const slot = this.#nodeSlot.get(node);
    if (slot === undefined) {
      const body = node.physicsBody;
      if (body) this.#pushBody(body, node);
      return;
    }
    this.#refsStale(slot, node);
    if (this.#loop.inFixedStep) {
      const body = this.#bodies[slot];
      if (body) this.#pushBody(body, node);
      this.#pendingReset[slot] = 1;
      return;
    }
    this.#adopt(slot);
  }

  /** Moves thin instance `index` of `mesh` and its Havok body now, scale kept. */
  teleportInstance(
    mesh: NodeLike,
    index: number,
    px: number,
    py: number,
    pz: number,
    hasRotation: boolean,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
  ): void {
    const entry = this.#thin.get(mesh);
    const slot = entry?.slots[index];
    if (!entry || slot === undefined) {
      throw new RangeError(
        `fixedtick: option "index" must be a tracked thin instance of "${mesh.name}", got ${String(index)}`,
      );
    }
    const c = this.#poses.current;
    const row = slot * POSE_STRIDE;
    if (hasRotation) {
      this.#poses.setCurrent(slot, px, py, pz, qx, qy, qz, qw, c[row + 7], c[row + 8], c[row + 9]);
    } else {
      c[row] = px;
      c[row + 1] = py;
      c[row + 2] = pz;
    }
    if (this.#loop.inFixedStep) {
      this.#pendingReset[slot] = 1;
      this.#pushThin(entry, true);
      return;
    }
    this.#poses.reset(slot);
    this.#pushThin(entry, false);
  }

  // ---- LoopAdapter ------------------------------------------------------------------------

  beginFrame(): void {
    // set by `beforeSteps`, consumed by `interpolate`; cleared here too in case a frame was cut
    // short between them (an error under errorPolicy 'throw', a dispose mid-step)
    this.#checkedThisFrame = false;
    // something turned Babylon's own physics step back on: it would step a second time
    if (this.#scene.physicsEnabled) this.#scene.physicsEnabled = false;
    const changed = this.#scanBodies();
    if (this.#orderDirty) this.#rebuildOrder();
    this.#pruneDisposed(changed);
    if (this.#orderDirty) this.#rebuildOrder();
    // Writes made since the last pass are adopted by the first pass that would otherwise lose
    // them: `beforeSteps` (before Havok steps) or the write in `interpolate` (module doc).
  }

  beforeSteps(): void {
    this.#adoptAndRestore();
    this.#checkedThisFrame = true;
  }

  physicsStep(fixedDelta: number): void {
    const engine = this.#physicsEngine();
    if (engine === null) return;
    const plugin = engine.getPhysicsPlugin();
    if (this.#timeStepPlugin !== engine) {
      this.#timeStepPlugin = engine;
      this.#savedTimeStep = plugin.getTimeStep();
    }
    // `applyForce` converts force to impulse with the plugin's time step: keep it = fixedDelta.
    if (plugin.getTimeStep() !== fixedDelta) plugin.setTimeStep(fixedDelta);
    const scene = this.#scene;
    scene.onBeforePhysicsObservable?.notifyObservers(scene);
    plugin.executeStep(fixedDelta, engine.getBodies());
    this.#rescaleThin();
    scene.onAfterPhysicsObservable?.notifyObservers(scene);
  }

  afterStep(): void {
    this.#captureAll();
  }

  interpolate(): void {
    if (this.#poses.count === 0) return;
    const check = !this.#checkedThisFrame;
    this.#checkedThisFrame = false;
    // Unparented bodies in 'interpolate'/'none' are interpolated inline by the write pass (a
    // body at rest is skipped); anything else needs the buffer's own pass over every slot.
    if (this.#orderCount > 0 || this.#extrapolatingCount > 0) {
      const fixedDelta = this.#loop.fixedDelta;
      if (fixedDelta !== this.#fixedDelta) this.#fixedDelta = fixedDelta;
      this.#poses.interpolate(this.#loop.alpha, this.#fixedDelta as number);
      this.#writeAll(check, true);
      return;
    }
    this.#alpha[0] = this.#loop.alpha;
    this.#writeAll(check, false);
  }

  /**
   * The loop's `fixedDelta`, kept in a field of tagged representation (it starts as a
   * non-number): V8 boxes the double once when it changes, not once per frame when passed on.
   */
  #fixedDelta: unknown = null;

  render(): void {
    // Writes made in `update`/`lateUpdate`/`preRender` are drawn as they are (the node holds
    // them) and adopted by the next pass that reads the node (see `#adoptPending`).
    this.#followParents();
    if (!this.#settings.render) return;
    const scene = this.#scene;
    if (scene.isDisposed) return;
    if (!scene.activeCamera && !(scene.activeCameras && scene.activeCameras.length > 0)) return;
    scene.render();
  }

  resetInterpolation(): void {
    if (this.#loop.inFixedStep) {
      this.#pendingReset.fill(1);
      return;
    }
    this.#adoptWrites();
    this.#poses.resetAll();
    this.#writeAll(false, true);
  }

  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    // leave every node at its simulation pose, then hand stepping back to Babylon
    if (this.#poses.count > 0 && !this.#loop.inFixedStep) {
      this.#adoptWrites();
      this.#restoreAll();
      this.#flushThin();
    }
    this.#scene.physicsEnabled = this.#savedPhysicsEnabled;
    const engine = this.#timeStepPlugin;
    if (engine !== null && !Number.isNaN(this.#savedTimeStep)) {
      engine.getPhysicsPlugin().setTimeStep(this.#savedTimeStep);
    }
  }

  // ---- physics engine -----------------------------------------------------------------------

  #physicsEngine(): PhysicsEngineV2Like | null {
    const engine = this.#scene.getPhysicsEngine?.() ?? null;
    if (engine === null) return null;
    if (engine.getPluginVersion() !== 2 || typeof engine.getBodies !== 'function') {
      throw new Error(
        'fixedtick: BabylonFixedLoop steps Physics V2 (Havok) only; this scene uses a Physics V1 plugin (PhysicsImpostor). Enable physics with a HavokPlugin.',
      );
    }
    return engine as PhysicsEngineV2Like;
  }

  /**
   * Compares the engine's body list with the last one seen (pointer by pointer: cheap), and
   * only when it changed (or a thin body's instance count did) rescans it: forget bodies that
   * left, auto-track new dynamic ones. Returns true if it rescanned.
   */
  #scanBodies(): boolean {
    const engine = this.#physicsEngine();
    if (engine === null) return false;
    const bodies = engine.getBodies();
    const mirror = this.#mirror;
    let same = bodies.length === mirror.length;
    for (let i = 0; same && i < bodies.length; i++) same = bodies[i] === mirror[i];
    const thin = this.#thinList;
    for (let e = 0; same && e < thin.length; e++) {
      const body = thin[e].body;
      same = body === null || body.numInstances === thin[e].slots.length;
    }
    if (same) return false;
    this.#mirror = bodies.slice();
    const present = new Set(bodies);
    // forget auto-tracked bodies that left the engine
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const body = this.#bodies[slot];
      if (this.#kind[slot] === KIND_WORLD && body && !present.has(body) && this.#poses.has(slot)) {
        this.#removeSlot(slot, false);
      }
    }
    for (const entry of [...this.#thinList]) {
      if (entry.body && !present.has(entry.body)) this.#removeThin(entry, false);
    }
    const auto = this.#settings.autoTrack;
    for (const body of bodies) {
      if (this.#optedOut.has(body)) continue;
      const node = body.transformNode;
      if (!node || node.isDisposed()) continue;
      const thinEntry = this.#thin.get(node);
      if (thinEntry && thinEntry.slots.length !== body.numInstances) {
        // instances were added or removed: track the new set
        const wasAuto = thinEntry.auto;
        const first = thinEntry.slots[0];
        const m =
          first === undefined || this.#usesDefault[first] === 1
            ? undefined
            : this.#poses.getMode(first);
        this.#removeThin(thinEntry, false);
        this.#trackThin(node, body, m, wasAuto);
        continue;
      }
      if (!auto || this.#nodeSlot.has(node) || thinEntry) continue;
      if (body.getMotionType() !== MOTION_DYNAMIC) continue;
      this.track(node, undefined, true);
    }
    return true;
  }

  /**
   * Drops disposed nodes. A disposed body or body node leaves the engine's body list, so bodies
   * are checked only when that list changed (`all`); plain nodes every frame.
   */
  #pruneDisposed(all: boolean): void {
    if (!all && this.#plainNodes === 0) return;
    const nodes = this.#nodes;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const node = nodes[slot];
      if (node === undefined || (!all && this.#kind[slot] !== KIND_LOCAL)) continue;
      const body = this.#bodies[slot];
      const bodyGone = body !== null && body.isDisposed === true;
      if (!node.isDisposed() && !bodyGone) continue;
      this.#orderDirty = true;
      if (this.#kind[slot] === KIND_THIN) {
        const entry = this.#thin.get(node);
        if (entry) this.#removeThin(entry, false);
      } else if (bodyGone && !node.isDisposed()) {
        // the body went away, the node stays: keep interpolating it as a plain node
        this.#kind[slot] = KIND_LOCAL;
        this.#bodies[slot] = null;
        this.#readNodePose(slot, node);
        const t = this.#tmp;
        this.#poses.setPose(slot, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
        this.#saveWritten(slot);
      } else {
        this.#removeSlot(slot, false);
      }
    }
  }

  // ---- slots ------------------------------------------------------------------------------

  #addSlot(mode: InterpolationMode | undefined): number {
    const resolved = mode ?? this.#settings.defaultInterpolation;
    const slot = this.#poses.add(resolved);
    if (slot >= this.#kind.length) this.#growSlots(this.#poses.capacity);
    this.#setModeFlags(slot, resolved);
    this.#usesDefault[slot] = mode === undefined ? 1 : 0;
    this.#pendingReset[slot] = 0;
    this.#parented[slot] = 0;
    return slot;
  }

  #setMode(slot: number, mode: InterpolationMode | undefined): void {
    const resolved = mode ?? this.#settings.defaultInterpolation;
    this.#poses.setMode(slot, resolved);
    this.#setModeFlags(slot, resolved);
    this.#usesDefault[slot] = mode === undefined ? 1 : 0;
  }

  /** The adapter's own copies of a slot's mode (and the skip flag, recomputed at the next step). */
  #setModeFlags(slot: number, mode: InterpolationMode | null): void {
    const extrapolating = mode === 'extrapolate' ? 1 : 0;
    this.#extrapolatingCount += extrapolating - this.#extrapolating[slot];
    this.#extrapolating[slot] = extrapolating;
    this.#noneMode[slot] = mode === 'none' ? 1 : 0;
    this.#still[slot] = 0;
  }

  /** Changes the default mode, and the mode of every slot that follows it. */
  setDefaultMode(mode: InterpolationMode): void {
    this.#settings.defaultInterpolation = mode;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      if (this.#poses.has(slot) && this.#usesDefault[slot] === 1) this.#setMode(slot, undefined);
    }
  }

  #growSlots(capacity: number): void {
    const grow = <T extends Uint8Array | Int32Array | Float64Array | Float32Array>(
      a: T,
      n: number,
    ): T => {
      const next = new (a.constructor as new (length: number) => T)(n);
      next.set(a);
      return next;
    };
    this.#kind = grow(this.#kind, capacity);
    this.#instance = grow(this.#instance, capacity);
    this.#parented = grow(this.#parented, capacity);
    this.#pendingReset = grow(this.#pendingReset, capacity);
    this.#autoSlot = grow(this.#autoSlot, capacity);
    this.#extrapolating = grow(this.#extrapolating, capacity);
    this.#noneMode = grow(this.#noneMode, capacity);
    this.#still = grow(this.#still, capacity);
    this.#usesDefault = grow(this.#usesDefault, capacity);
    this.#written = grow(this.#written, capacity * POSE_STRIDE);
    this.#writtenMatrix = grow(this.#writtenMatrix, capacity * MATRIX_STRIDE);
    this.#simLocal = grow(this.#simLocal, capacity * LOCAL_STRIDE);
    this.#order = grow(this.#order, capacity);
    this.#bodyList = grow(this.#bodyList, capacity);
  }

  #removeSlot(slot: number, restore: boolean): void {
    const node = this.#nodes[slot];
    if (restore && node && !this.#loop.inFixedStep && this.#kind[slot] !== KIND_THIN) {
      this.#restoreSlot(slot);
    }
    if (node && this.#kind[slot] !== KIND_THIN) this.#nodeSlot.delete(node);
    this.#poses.remove(slot);
    this.#setModeFlags(slot, null);
    this.#kind[slot] = 0;
    this.#nodes[slot] = undefined;
    this.#bodies[slot] = null;
    this.#orderDirty = true;
  }

  #trackThin(
    mesh: NodeLike,
    body: BodyLike,
    mode: InterpolationMode | undefined,
    auto: boolean,
  ): void {
    const existing = this.#thin.get(mesh);
    if (existing) {
      for (const slot of existing.slots) this.#setMode(slot, mode);
      if (!auto) existing.auto = false;
      return;
    }
    this.#optedOut.delete(body);
    const data = mesh._thinInstanceDataStorage?.matrixData;
    if (!data) return;
    const entry: ThinEntry = { mesh, body, slots: [], auto };
    const n = Math.min(body.numInstances, mesh._thinInstanceDataStorage?.instancesCount ?? 0);
    const t = this.#tmp;
    for (let i = 0; i < n; i++) {
      const slot = this.#addSlot(mode);
      this.#kind[slot] = KIND_THIN;
      this.#nodes[slot] = mesh;
      this.#bodies[slot] = body;
      this.#instance[slot] = i;
      this.#autoSlot[slot] = auto ? 1 : 0;
      decomposeMatrix(data, i * MATRIX_STRIDE, t, 0);
      this.#poses.setPose(slot, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
      this.#saveWrittenMatrix(slot, data, i);
      entry.slots.push(slot);
    }
    this.#thin.set(mesh, entry);
    this.#thinList = [...this.#thinList, entry];
    this.#orderDirty = true;
    // Babylon (9.x) creates instance bodies with the motion type set after the transform, which
    // leaves every instance at the origin inside Havok; the matrices are the intended poses.
    this.#pushThin(entry, this.#loop.inFixedStep);
    this.#flushThin();
  }

  #removeThin(entry: ThinEntry, restore: boolean): void {
    if (restore && !this.#loop.inFixedStep) {
      for (const slot of entry.slots) this.#restoreSlot(slot);
      this.#markThinDirty(entry.mesh);
      this.#flushThin();
    }
    for (const slot of entry.slots) {
      this.#poses.remove(slot);
      this.#setModeFlags(slot, null);
      this.#kind[slot] = 0;
      this.#nodes[slot] = undefined;
      this.#bodies[slot] = null;
    }
    this.#thin.delete(entry.mesh);
    this.#thinList = this.#thinList.filter((e) => e !== entry);
    this.#orderDirty = true;
  }

  #slotOf(node: NodeLike, index: number): number | undefined {
    if (index >= 0) return this.#thin.get(node)?.slots[index];
    return this.#nodeSlot.get(node) ?? this.#thin.get(node)?.slots[0];
  }

  /** Parent-before-child order and the buffer's parent links (reset reaches descendants). */
  #rebuildOrder(): void {
    this.#orderDirty = false;
    const size = this.#poses.size;
    const depth: number[] = [];
    const slots: number[] = [];
    const parents: number[] = [];
    for (let slot = 0; slot < size; slot++) {
      const node = this.#nodes[slot];
      if (node === undefined || !this.#poses.has(slot)) continue;
      let d = 0;
      let tracked = -1;
      for (let p = node.parent as NodeLike | null; p; p = p.parent as NodeLike | null) {
        d++;
        if (tracked === -1) {
          const s = this.#nodeSlot.get(p);
          if (s !== undefined) tracked = s;
        }
      }
      if (this.#kind[slot] !== KIND_THIN) this.#parented[slot] = node.parent ? 1 : 0;
      this.#poses.setParent(slot, -1);
      depth[slot] = d;
      slots.push(slot);
      parents[slot] = tracked;
    }
    for (const slot of slots) {
      const p = parents[slot];
      if (p !== undefined && p !== -1 && p !== slot) this.#poses.setParent(slot, p);
    }
    slots.sort((a, b) => depth[a] - depth[b] || a - b);
    let parentedBodies = 0;
    let plainNodes = 0;
    for (const slot of slots) {
      if (this.#kind[slot] === KIND_WORLD && this.#parented[slot] === 1) parentedBodies++;
      if (this.#kind[slot] === KIND_LOCAL) plainNodes++;
    }
    this.#parentedBodies = parentedBodies;
    this.#plainNodes = plainNodes;
    let bodies = 0;
    let others = 0;
    for (const slot of slots) {
      if (this.#kind[slot] === KIND_WORLD && this.#parented[slot] === 0)
        this.#bodyList[bodies++] = slot;
      else this.#order[others++] = slot;
    }
    this.#bodyCount = bodies;
    this.#orderCount = others;
  }

  // ---- reading and writing poses ------------------------------------------------------------

  /**
   * Reads the simulation pose of a node slot into `#tmp` (world space for a body, local
   * otherwise) and, for a parented body, its local pose into `#simLocal`.
   */
  #readNodePose(slot: number, node: NodeLike): void {
    const t = this.#tmp;
    const p = this.#posRef[slot];
    const q = this.#rotRef[slot];
    const s = this.#scaleRef[slot];
    t[7] = s.x;
    t[8] = s.y;
    t[9] = s.z;
    if (this.#kind[slot] === KIND_WORLD && node.parent) {
      const l = this.#simLocal;
      const li = slot * LOCAL_STRIDE;
      l[li] = p.x;
      l[li + 1] = p.y;
      l[li + 2] = p.z;
      l[li + 3] = q.x;
      l[li + 4] = q.y;
      l[li + 5] = q.z;
      l[li + 6] = q.w;
      node.computeWorldMatrix(true);
      const ap = node.absolutePosition;
      const aq = node.absoluteRotationQuaternion;
      t[0] = ap.x;
      t[1] = ap.y;
      t[2] = ap.z;
      t[3] = aq.x;
      t[4] = aq.y;
      t[5] = aq.z;
      t[6] = aq.w;
      return;
    }
    t[0] = p.x;
    t[1] = p.y;
    t[2] = p.z;
    t[3] = q.x;
    t[4] = q.y;
    t[5] = q.z;
    t[6] = q.w;
  }

  #saveWritten(slot: number): void {
    const w = this.#written;
    const r = slot * POSE_STRIDE;
    const p = this.#posRef[slot];
    const q = this.#rotRef[slot];
    const s = this.#scaleRef[slot];
    w[r] = p.x;
    w[r + 1] = p.y;
    w[r + 2] = p.z;
    w[r + 3] = q.x;
    w[r + 4] = q.y;
    w[r + 5] = q.z;
    w[r + 6] = q.w;
    w[r + 7] = s.x;
    w[r + 8] = s.y;
    w[r + 9] = s.z;
  }

  #saveWrittenMatrix(slot: number, data: Float32Array, index: number): void {
    const w = this.#writtenMatrix;
    const r = slot * MATRIX_STRIDE;
    const o = index * MATRIX_STRIDE;
    for (let k = 0; k < MATRIX_STRIDE; k++) w[r + k] = data[o + k];
  }

  #bindRefs(slot: number, node: NodeLike): void {
    if (!node.rotationQuaternion) node.rotationQuaternion = node.rotation.toQuaternion();
    this.#posRef[slot] = node.position;
    this.#rotRef[slot] = node.rotationQuaternion;
    this.#scaleRef[slot] = node.scaling;
  }

  /** True (and the refs rebound) if a vector object of the node was replaced or removed. */
  #refsStale(slot: number, node: NodeLike): boolean {
    if (
      node.position === this.#posRef[slot] &&
      node.rotationQuaternion === this.#rotRef[slot] &&
      (this.#kind[slot] !== KIND_LOCAL || node.scaling === this.#scaleRef[slot])
    ) {
      return false;
    }
    this.#bindRefs(slot, node);
    return true;
  }

  /** True if someone else wrote to the node (or instance) since the adapter last did. */
  #changed(slot: number, node: NodeLike): boolean {
    if (this.#kind[slot] === KIND_THIN) {
      const data = node._thinInstanceDataStorage?.matrixData;
      if (!data) return false;
      const w = this.#writtenMatrix;
      const r = slot * MATRIX_STRIDE;
      const o = this.#instance[slot] * MATRIX_STRIDE;
      for (let k = 0; k < MATRIX_STRIDE; k++) if (w[r + k] !== data[o + k]) return true;
      return false;
    }
    const w = this.#written;
    const r = slot * POSE_STRIDE;
    const p = this.#posRef[slot];
    const q = this.#rotRef[slot];
    if (
      w[r] !== p.x ||
      w[r + 1] !== p.y ||
      w[r + 2] !== p.z ||
      w[r + 3] !== q.x ||
      w[r + 4] !== q.y ||
      w[r + 5] !== q.z ||
      w[r + 6] !== q.w
    ) {
      return true;
    }
    if (this.#kind[slot] !== KIND_LOCAL) return false;
    const s = this.#scaleRef[slot];
    return w[r + 7] !== s.x || w[r + 8] !== s.y || w[r + 9] !== s.z;
  }

  /**
   * Adopts poses written outside the fixed step as teleports (SPEC §3, the adapters' rule):
   * every tracked node is compared with what the adapter (or Havok's sync) last left in it, and
   * a node whose vector objects were replaced (`mesh.position = new Vector3(…)`) counts as
   * written. Not a per-frame pass: `resetInterpolation()` and `dispose` run it first, so a
   * write not yet adopted is kept (see `#adoptPending`).
   */
  #adoptWrites(): void {
    const list = this.#bodyList;
    const kind = this.#kind;
    const nodes = this.#nodes;
    const posRef = this.#posRef;
    const rotRef = this.#rotRef;
    const w = this.#written;
    for (let i = 0; i < this.#bodyCount; i++) {
      const slot = list[i];
      if (kind[slot] !== KIND_WORLD) continue; // untracked since the lists were built
      const node = nodes[slot] as NodeLike;
      const p = posRef[slot];
      const q = rotRef[slot];
      if (node.position === p && node.rotationQuaternion === q) {
        const r = slot * POSE_STRIDE;
        if (
          w[r] === p.x &&
          w[r + 1] === p.y &&
          w[r + 2] === p.z &&
          w[r + 3] === q.x &&
          w[r + 4] === q.y &&
          w[r + 5] === q.z &&
          w[r + 6] === q.w
        ) {
          continue;
        }
      } else {
        this.#bindRefs(slot, node);
      }
      this.#adopt(slot);
    }
    if (this.#orderCount > 0) this.#adoptOtherWrites(true);
  }

  /**
   * {@link BodyTracker.#adoptWrites} for the slots of `#order` (parented bodies, plain nodes,
   * thin instances). With `validate`, first notices vectors replaced on a node.
   */
  #adoptOtherWrites(validate: boolean): void {
    const order = this.#order;
    const nodes = this.#nodes;
    let thinChanged = false;
    for (let i = 0; i < this.#orderCount; i++) {
      const slot = order[i];
      const node = nodes[slot];
      if (node === undefined) continue;
      const rebound = validate && this.#kind[slot] !== KIND_THIN && this.#refsStale(slot, node);
      if (!rebound && !this.#changed(slot, node)) continue;
      if (this.#kind[slot] === KIND_THIN) {
        this.#adoptThin(slot, node);
        thinChanged = true;
      } else {
        this.#adopt(slot);
      }
    }
    if (thinChanged) {
      for (const entry of this.#thinList) {
        if (this.#isThinDirty(entry.mesh)) this.#pushThin(entry, false);
      }
    }
    this.#flushThin();
  }

  /**
   * Outside the fixed step, adopts a write made to the slot's node (or instance) since the last
   * pass that checked it: the per-frame passes check a node only where they read or write it
   * anyway (before the steps, in the interpolation write), so a write made after them (in
   * `update`, `preRender`, `postRender`, between frames) is adopted by the next of them — or
   * here, when the simulation pose is asked for first.
   */
  #adoptPending(slot: number): void {
    const node = this.#nodes[slot];
    if (node === undefined || this.#loop.inFixedStep) return;
    if (this.#kind[slot] === KIND_THIN) {
      if (!this.#changed(slot, node)) return;
      this.#adoptThin(slot, node);
      const entry = this.#thin.get(node);
      if (entry) this.#pushThin(entry, false);
      this.#flushThin();
      return;
    }
    if (this.#refsStale(slot, node) || this.#changed(slot, node)) this.#adopt(slot);
  }

  /** A node slot's pose was written from outside: make it the simulation pose, push to Havok. */
  #adopt(slot: number): void {
    const node = this.#nodes[slot] as NodeLike;
    this.#readNodePose(slot, node);
    const t = this.#tmp;
    this.#poses.setCurrent(slot, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
    const n = this.#poses.reset(slot);
    const list = this.#poses.resetSlots;
    // the slot already shows its new pose; its tracked descendants jump to theirs
    for (let k = 1; k < n; k++) this.#writeSlot(list[k], this.#poses.output);
    this.#saveWritten(slot);
    const body = this.#bodies[slot];
    if (body) this.#pushBody(body, node);
  }

  #adoptThin(slot: number, mesh: NodeLike): void {
    const data = mesh._thinInstanceDataStorage?.matrixData as Float32Array;
    const t = this.#tmp;
    decomposeMatrix(data, this.#instance[slot] * MATRIX_STRIDE, t, 0);
    this.#poses.setCurrent(slot, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
    this.#poses.reset(slot);
    this.#markThinDirty(mesh);
  }

  #resetSlot(slot: number): void {
    if (this.#loop.inFixedStep) {
      this.#pendingReset[slot] = 1;
      return;
    }
    const n = this.#poses.reset(slot);
    const list = this.#poses.resetSlots;
    for (let k = 0; k < n; k++) this.#writeSlot(list[k], this.#poses.output);
  }

  /** Teleports a node's Havok body to the node's pose, whatever its pre-step type. */
  #pushBody(body: BodyLike, node: NodeLike): void {
    const engine = this.#physicsEngine();
    if (engine === null || body.isDisposed === true) return;
    const type = body.getPrestepType();
    if (type !== PRESTEP_TELEPORT) body.setPrestepType(PRESTEP_TELEPORT);
    try {
      engine.getPhysicsPlugin().setPhysicsBodyTransformation(body, node);
    } finally {
      if (type !== PRESTEP_TELEPORT) body.setPrestepType(type);
    }
  }

  /**
   * Teleports every instance of a thin-instanced body to its `current` pose. Havok reads the
   * rotation from the matrix as if it had no scale, so the matrices are written unscaled for the
   * push and then rewritten (simulation pose inside the step, render pose outside).
   */
  #pushThin(entry: ThinEntry, inStep: boolean): void {
    const mesh = entry.mesh;
    const data = mesh._thinInstanceDataStorage?.matrixData;
    const body = entry.body;
    if (!data || !body) return;
    const c = this.#poses.current;
    for (const slot of entry.slots) {
      const r = slot * POSE_STRIDE;
      const o = this.#instance[slot] * MATRIX_STRIDE;
      composeMatrix(
        data,
        o,
        c[r],
        c[r + 1],
        c[r + 2],
        c[r + 3],
        c[r + 4],
        c[r + 5],
        c[r + 6],
        1,
        1,
        1,
      );
    }
    this.#pushBody(body, mesh);
    const source = inStep ? c : this.#poses.output;
    for (const slot of entry.slots) this.#writeSlot(slot, source);
    this.#markThinDirty(mesh);
  }

  /**
   * Before the steps of a frame: adopts what was written since the last check (the fixed step
   * and Havok must see it), then puts every tracked node back at its simulation pose. A body
   * whose node already holds it (at rest, or shown at the current pose) is left untouched.
   */
  #adoptAndRestore(): void {
    const list = this.#bodyList;
    const kind = this.#kind;
    const nodes = this.#nodes;
    const posRef = this.#posRef;
    const rotRef = this.#rotRef;
    const w = this.#written;
    const c = this.#poses.current;
    for (let i = 0; i < this.#bodyCount; i++) {
      const slot = list[i];
      if (kind[slot] !== KIND_WORLD) continue;
      const node = nodes[slot] as NodeLike;
      const p = posRef[slot];
      const q = rotRef[slot];
      if (node.position !== p || node.rotationQuaternion !== q) {
        this.#bindRefs(slot, node);
        this.#adopt(slot);
        continue;
      }
      const r = slot * POSE_STRIDE;
      const px = p.x;
      const py = p.y;
      const pz = p.z;
      const qx = q.x;
      const qy = q.y;
      const qz = q.z;
      const qw = q.w;
      if (
        w[r] !== px ||
        w[r + 1] !== py ||
        w[r + 2] !== pz ||
        w[r + 3] !== qx ||
        w[r + 4] !== qy ||
        w[r + 5] !== qz ||
        w[r + 6] !== qw
      ) {
        this.#adopt(slot);
        continue;
      }
      const cx = c[r];
      const cy = c[r + 1];
      const cz = c[r + 2];
      const cqx = c[r + 3];
      const cqy = c[r + 4];
      const cqz = c[r + 5];
      const cqw = c[r + 6];
      if (
        cx === px &&
        cy === py &&
        cz === pz &&
        cqx === qx &&
        cqy === qy &&
        cqz === qz &&
        cqw === qw
      ) {
        continue;
      }
      p.set(cx, cy, cz);
      q.set(cqx, cqy, cqz, cqw);
      w[r] = cx;
      w[r + 1] = cy;
      w[r + 2] = cz;
      w[r + 3] = cqx;
      w[r + 4] = cqy;
      w[r + 5] = cqz;
      w[r + 6] = cqw;
    }
    if (this.#orderCount === 0) return;
    this.#adoptOtherWrites(true);
    const order = this.#order;
    for (let i = 0; i < this.#orderCount; i++) this.#restoreSlot(order[i]);
  }

  /** Puts every tracked node back at its simulation pose (`dispose`). */
  #restoreAll(): void {
    const list = this.#bodyList;
    for (let i = 0; i < this.#bodyCount; i++) this.#restoreSlot(list[i]);
    const order = this.#order;
    for (let i = 0; i < this.#orderCount; i++) this.#restoreSlot(order[i]);
  }

  #restoreSlot(slot: number): void {
    const node = this.#nodes[slot];
    if (node === undefined) return;
    const kind = this.#kind[slot];
    if (kind === KIND_WORLD && this.#parented[slot] === 1) {
      // the exact local pose Havok's sync wrote: restoring it is bit-exact
      const l = this.#simLocal;
      const li = slot * LOCAL_STRIDE;
      this.#posRef[slot].set(l[li], l[li + 1], l[li + 2]);
      this.#rotRef[slot].set(l[li + 3], l[li + 4], l[li + 5], l[li + 6]);
      return;
    }
    this.#writeSlot(slot, this.#poses.current);
  }

  /** Writes pose row `slot` of `rows` to its node (or instance matrix) and remembers it. */
  #writeSlot(slot: number, rows: Float64Array): void {
    const node = this.#nodes[slot];
    if (node === undefined) return;
    const r = slot * POSE_STRIDE;
    const kind = this.#kind[slot];
    if (kind === KIND_THIN) {
      const data = node._thinInstanceDataStorage?.matrixData;
      if (!data) return;
      const o = this.#instance[slot] * MATRIX_STRIDE;
      composeMatrix(
        data,
        o,
        rows[r],
        rows[r + 1],
        rows[r + 2],
        rows[r + 3],
        rows[r + 4],
        rows[r + 5],
        rows[r + 6],
        rows[r + 7],
        rows[r + 8],
        rows[r + 9],
      );
      this.#saveWrittenMatrix(slot, data, this.#instance[slot]);
      this.#markThinDirty(node);
      return;
    }
    const q = this.#rotRef[slot];
    const w = this.#written;
    if (kind === KIND_WORLD && this.#parented[slot] === 1) {
      const parent = node.parent as NodeLike;
      const pm = parent.computeWorldMatrix(true).m;
      const pq = parent.absoluteRotationQuaternion;
      worldToLocal(
        pm,
        pq.x,
        pq.y,
        pq.z,
        pq.w,
        rows[r],
        rows[r + 1],
        rows[r + 2],
        rows[r + 3],
        rows[r + 4],
        rows[r + 5],
        rows[r + 6],
        w,
        r,
      );
      this.#posRef[slot].set(w[r], w[r + 1], w[r + 2]);
      q.set(w[r + 3], w[r + 4], w[r + 5], w[r + 6]);
      return;
    }
    // the node stores the numbers it is given, so what was written is what it now holds
    const px = rows[r];
    const py = rows[r + 1];
    const pz = rows[r + 2];
    const qx = rows[r + 3];
    const qy = rows[r + 4];
    const qz = rows[r + 5];
    const qw = rows[r + 6];
    if (
      kind === KIND_WORLD &&
      w[r] === px &&
      w[r + 1] === py &&
      w[r + 2] === pz &&
      w[r + 3] === qx &&
      w[r + 4] === qy &&
      w[r + 5] === qz &&
      w[r + 6] === qw
    ) {
      // a body at rest: leave the node (and Babylon's world-matrix cache) untouched
      return;
    }
    this.#posRef[slot].set(px, py, pz);
    q.set(qx, qy, qz, qw);
    w[r] = px;
    w[r + 1] = py;
    w[r + 2] = pz;
    w[r + 3] = qx;
    w[r + 4] = qy;
    w[r + 5] = qz;
    w[r + 6] = qw;
    if (kind === KIND_LOCAL) {
      const sx = rows[r + 7];
      const sy = rows[r + 8];
      const sz = rows[r + 9];
      this.#scaleRef[slot].set(sx, sy, sz);
      w[r + 7] = sx;
      w[r + 8] = sy;
      w[r + 9] = sz;
    }
  }

  /**
   * Writes every slot's render pose (`output`), parents first, then uploads thin matrices. A
   * body whose render pose is what its node already holds (at rest) is not touched at all.
   * With `check` (no `beforeSteps` check this frame), a node about to be written is first
   * compared with what was last written to it: a difference is a write from outside (between
   * frames), adopted instead of overwritten. Unless `computed` (the buffer filled `output`
   * already), unparented bodies are interpolated here, at `#alpha`, and bodies at rest skipped.
   */
  #writeAll(check: boolean, computed: boolean): void {
    const list = this.#bodyList;
    const kind = this.#kind;
    const posRef = this.#posRef;
    const rotRef = this.#rotRef;
    const still = this.#still;
    const extrapolating = this.#extrapolating;
    const none = this.#noneMode;
    const w = this.#written;
    const out = this.#poses.output;
    const c = this.#poses.current;
    for (let i = 0; i < this.#bodyCount; i++) {
      const slot = list[i];
      if (kind[slot] !== KIND_WORLD) continue;
      // at rest: render pose = current pose = what the node holds
      if (still[slot] === 1 && extrapolating[slot] === 0) continue;
      const r = slot * POSE_STRIDE;
      if (!computed) {
        if (none[slot] === 1) {
          for (let k = 0; k < POSE_STRIDE; k++) out[r + k] = c[r + k];
        } else {
          this.#lerpRow(r);
        }
      }
      const px = out[r];
      const py = out[r + 1];
      const pz = out[r + 2];
      const qx = out[r + 3];
      const qy = out[r + 4];
      const qz = out[r + 5];
      const qw = out[r + 6];
      if (
        w[r] === px &&
        w[r + 1] === py &&
        w[r + 2] === pz &&
        w[r + 3] === qx &&
        w[r + 4] === qy &&
        w[r + 5] === qz &&
        w[r + 6] === qw
      ) {
        continue;
      }
      const p = posRef[slot];
      const q = rotRef[slot];
      if (
        check &&
        (w[r] !== p.x ||
          w[r + 1] !== p.y ||
          w[r + 2] !== p.z ||
          w[r + 3] !== q.x ||
          w[r + 4] !== q.y ||
          w[r + 5] !== q.z ||
          w[r + 6] !== q.w)
      ) {
        this.#adopt(slot);
        continue;
      }
      // the node stores the numbers it is given, so what was written is what it now holds
      p.set(px, py, pz);
      q.set(qx, qy, qz, qw);
      w[r] = px;
      w[r + 1] = py;
      w[r + 2] = pz;
      w[r + 3] = qx;
      w[r + 4] = qy;
      w[r + 5] = qz;
      w[r + 6] = qw;
    }
    if (this.#orderCount > 0) {
      if (check) this.#adoptOtherWrites(false);
      const order = this.#order;
      for (let i = 0; i < this.#orderCount; i++) this.#writeSlot(order[i], out);
    }
    this.#flushThin();
  }

  /**
   * `'interpolate'` for one row at `#alpha`: the same operations, in the same order, as the core
   * `PoseBuffer`'s pass (exact-endpoint lerp, shortest-arc slerp, nlerp when nearly parallel),
   * so the render pose is the same number for number.
   */
  #lerpRow(r: number): void {
    const p = this.#poses.previous;
    const c = this.#poses.current;
    const o = this.#poses.output;
    const t = this.#alpha[0];
    o[r] = lerp(p[r], c[r], t);
    o[r + 1] = lerp(p[r + 1], c[r + 1], t);
    o[r + 2] = lerp(p[r + 2], c[r + 2], t);
    o[r + 7] = lerp(p[r + 7], c[r + 7], t);
    o[r + 8] = lerp(p[r + 8], c[r + 8], t);
    o[r + 9] = lerp(p[r + 9], c[r + 9], t);
    const ax = p[r + 3];
    const ay = p[r + 4];
    const az = p[r + 5];
    const aw = p[r + 6];
    const bx = c[r + 3];
    const by = c[r + 4];
    const bz = c[r + 5];
    const bw = c[r + 6];
    if (t <= 0 || (ax === bx && ay === by && az === bz && aw === bw)) {
      o[r + 3] = ax;
      o[r + 4] = ay;
      o[r + 5] = az;
      o[r + 6] = aw;
      return;
    }
    if (t >= 1) {
      o[r + 3] = bx;
      o[r + 4] = by;
      o[r + 5] = bz;
      o[r + 6] = bw;
      return;
    }
    let dot = ax * bx + ay * by + az * bz + aw * bw;
    let sign = 1;
    if (dot < 0) {
      dot = -dot;
      sign = -1;
    }
    let s0 = 1 - t;
    let s1 = t;
    if (dot < SLERP_NLERP_THRESHOLD) {
      const theta = Math.acos(dot);
      const sinTheta = Math.sin(theta);
      s0 = Math.sin(s0 * theta) / sinTheta;
      s1 = Math.sin(t * theta) / sinTheta;
    }
    s1 *= sign;
    const x = ax * s0 + bx * s1;
    const y = ay * s0 + by * s1;
    const z = az * s0 + bz * s1;
    const w = aw * s0 + bw * s1;
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    const inv = len > 0 ? 1 / len : 0;
    o[r + 3] = x * inv;
    o[r + 4] = y * inv;
    o[r + 5] = z * inv;
    o[r + 6] = w * inv;
  }

  /**
   * A body's render pose is a world pose, written as a local pose relative to its parent. If a
   * parent moved after `interpolate` (in `update`, `lateUpdate`, `preRender`), express it again
   * relative to where the parent is now, so the body renders where Havok put it.
   */
  #followParents(): void {
    if (this.#parentedBodies === 0) return;
    const order = this.#order;
    const out = this.#poses.output;
    for (let i = 0; i < this.#orderCount; i++) {
      const slot = order[i];
      if (this.#kind[slot] !== KIND_WORLD || this.#parented[slot] === 0) continue;
      const node = this.#nodes[slot] as NodeLike;
      // a write since the interpolation pass is adopted, not overwritten
      if (this.#refsStale(slot, node) || this.#changed(slot, node)) this.#adopt(slot);
      else this.#writeSlot(slot, out);
    }
  }

  /**
   * After each step: the new simulation pose becomes `current`, the old one `previous`. What a
   * node holds now (Havok's sync wrote it) is also what it was last written. A body's scale is
   * not read (Havok does not simulate it; `simulationPose` reads it from the node).
   */
  #captureAll(): void {
    const poses = this.#poses;
    if (poses.count === 0) return;
    poses.shiftAll();
    const c = poses.current;
    const w = this.#written;
    const list = this.#bodyList;
    const kind = this.#kind;
    const posRef = this.#posRef;
    const rotRef = this.#rotRef;
    const extrapolating = this.#extrapolating;
    const pendingReset = this.#pendingReset;
    const still = this.#still;
    const out = poses.output;
    for (let i = 0; i < this.#bodyCount; i++) {
      const slot = list[i];
      if (kind[slot] !== KIND_WORLD) continue;
      const p = posRef[slot];
      const q = rotRef[slot];
      const r = slot * POSE_STRIDE;
      const px = p.x;
      const py = p.y;
      const pz = p.z;
      const qx = q.x;
      const qy = q.y;
      const qz = q.z;
      const qw = q.w;
      if (
        c[r] === px &&
        c[r + 1] === py &&
        c[r + 2] === pz &&
        c[r + 3] === qx &&
        c[r + 4] === qy &&
        c[r + 5] === qz &&
        c[r + 6] === qw
      ) {
        // Havok left it where it was: previous = current, so that is its render pose from now on
        if (still[slot] === 0) {
          still[slot] = 1;
          for (let k = 0; k < POSE_STRIDE; k++) out[r + k] = c[r + k];
        }
      } else {
        still[slot] = 0;
        c[r] = px;
        c[r + 1] = py;
        c[r + 2] = pz;
        c[r + 3] = qx;
        c[r + 4] = qy;
        c[r + 5] = qz;
        c[r + 6] = qw;
      }
      w[r] = px;
      w[r + 1] = py;
      w[r + 2] = pz;
      w[r + 3] = qx;
      w[r + 4] = qy;
      w[r + 5] = qz;
      w[r + 6] = qw;
      if (extrapolating[slot] === 1) this.#captureVelocity(slot);
      if (pendingReset[slot] === 1) {
        pendingReset[slot] = 0;
        poses.reset(slot);
      }
    }
    const order = this.#order;
    const nodes = this.#nodes;
    const t = this.#tmp;
    for (let i = 0; i < this.#orderCount; i++) {
      const slot = order[i];
      const node = nodes[slot];
      if (node === undefined) continue;
      const r = slot * POSE_STRIDE;
      const k = kind[slot];
      if (k === KIND_THIN) {
        const data = node._thinInstanceDataStorage?.matrixData;
        if (data) decomposeMatrix(data, this.#instance[slot] * MATRIX_STRIDE, c, r);
      } else if (this.#parented[slot] === 1) {
        this.#readNodePose(slot, node);
        for (let j = 0; j < POSE_STRIDE; j++) c[r + j] = t[j];
      } else {
        const p = posRef[slot];
        const q = rotRef[slot];
        const sc = this.#scaleRef[slot];
        w[r] = c[r] = p.x;
        w[r + 1] = c[r + 1] = p.y;
        w[r + 2] = c[r + 2] = p.z;
        w[r + 3] = c[r + 3] = q.x;
        w[r + 4] = c[r + 4] = q.y;
        w[r + 5] = c[r + 5] = q.z;
        w[r + 6] = c[r + 6] = q.w;
        w[r + 7] = c[r + 7] = sc.x;
        w[r + 8] = c[r + 8] = sc.y;
        w[r + 9] = c[r + 9] = sc.z;
      }
      if (extrapolating[slot] === 1) this.#captureVelocity(slot);
      if (pendingReset[slot] === 1) {
        pendingReset[slot] = 0;
        poses.reset(slot);
      }
    }
  }

  /** Reads Havok's linear and angular velocity of a slot's body for extrapolation. */
  #captureVelocity(slot: number): void {
    const body = this.#bodies[slot];
    if (body === null) return;
    const index = this.#kind[slot] === KIND_THIN ? this.#instance[slot] : undefined;
    const v = this.#linear;
    const a = this.#angular;
    body.getLinearVelocityToRef(v, index);
    body.getAngularVelocityToRef(a, index);
    this.#poses.setVelocity(slot, v.x, v.y, v.z, a.x, a.y, a.z);
  }

  /** Havok writes thin-instance matrices without scale: put each instance's scale back. */
  #rescaleThin(): void {
    const list = this.#thinList;
    if (list.length === 0) return;
    const c = this.#poses.current;
    for (let e = 0; e < list.length; e++) {
      const entry = list[e];
      if (!entry.body || entry.body.disableSync) continue;
      const data = entry.mesh._thinInstanceDataStorage?.matrixData;
      if (!data) continue;
      const slots = entry.slots;
      for (let i = 0; i < slots.length; i++) {
        const r = slots[i] * POSE_STRIDE;
        scaleBasisRows(data, i * MATRIX_STRIDE, c[r + 7], c[r + 8], c[r + 9]);
      }
    }
  }

  #markThinDirty(mesh: NodeLike): void {
    if (this.#isThinDirty(mesh)) return;
    if (this.#thinDirtyCount === this.#thinDirty.length) this.#thinDirty.push(mesh);
    else this.#thinDirty[this.#thinDirtyCount] = mesh;
    this.#thinDirtyCount++;
  }

  #isThinDirty(mesh: NodeLike): boolean {
    for (let i = 0; i < this.#thinDirtyCount; i++) if (this.#thinDirty[i] === mesh) return true;
    return false;
  }

  #flushThin(): void {
    for (let i = 0; i < this.#thinDirtyCount; i++) {
      this.#thinDirty[i].thinInstanceBufferUpdated?.('matrix');
    }
    this.#thinDirtyCount = 0;
  }
}
