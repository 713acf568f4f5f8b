/**
 * The Babylon.js side of the loop: a core `LoopAdapter` that steps Physics V2 (Havok) once per
 * fixed step and keeps every tracked node's simulation pose apart from the pose it renders.
 *
 * Per frame (see the core `LoopAdapter` for where each call sits):
 * - `beginFrame`: auto-track new dynamic bodies, drop disposed ones.
 * - `beforeSteps`: adopt any pose written to a tracked node since the adapter last wrote it (a
 *   teleport), else put the node back at its simulation pose, so `fixedUpdate` and Havok's
 *   pre-step read the simulation, never an interpolated pose.
 * - `physicsStep`: `onBeforePhysicsObservable`, `plugin.executeStep(fixedDelta)`,
 *   `onAfterPhysicsObservable` — exactly Babylon's own sequence, with an explicit step.
 * - `afterStep`: capture the new simulation pose (and Havok's velocities for extrapolation).
 * - `interpolate`: each slot's render pose (the core `PoseBuffer.interpolateSlotAt`), written to
 *   its node; on a frame with no step, a node about to be written is first checked for a write.
 * - `render`: re-express bodies under moved parents, then `scene.render()`.
 *
 * Every phase is one pass over the slots (parents first) through the same few per-slot steps:
 * `#read` (node → simulation pose), `#changed` (written from outside?), `#write` (pose → node).
 * A node is checked for writes only where a pass reads or writes it anyway (before the steps,
 * and in the interpolation write). A write made after those (`update`, `preRender`, between
 * frames) is drawn as the node holds it and adopted by the next of them, or when the simulation
 * pose is asked for (`#adoptPending`): always before Havok steps. A node whose render pose is
 * what it already holds (a body at rest) is not touched: Babylon node objects are large and
 * scattered, so each touch is a cache miss.
 *
 * Spaces: a node driven by a physics body is interpolated in world space (Havok's space), then
 * expressed in its parent's current frame, so it renders where Havok put it whatever its parent
 * does; any other tracked node is interpolated in its local space and composes with its parents.
 * Matrix work (thin instances, parents) is Babylon's own `Matrix`, as Havok's sync does it.
 * @internal
 */
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { type FixedLoop, type LoopAdapter, optionError } from '@fixedtick/core';
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
  type PhysicsEngineV2Like,
  PRESTEP_TELEPORT,
  type QuatLike,
  type SceneLike,
  type Vec3Like,
} from './babylon-shapes.ts';

/** Slot flags: auto-tracked; follows `defaultInterpolation`. */
const AUTO = 1;
const DEFAULT = 2;
/** A body whose node has a parent. */
const PARENTED = 4;
/** Reset after this step (a teleport inside the fixed step). */
const RESET = 8;
const EXTRAPOLATE = 16;
/** Not `'interpolate'`. */
const NOT_INTERPOLATE = 32;
/** An unparented body (not a thin instance): the bulk of a scene, taken inline by the passes. */
const FAST = 64;

const S = POSE_STRIDE;
/** Matrix floats per thin instance. */
const M = 16;

/** The error for a scene on Physics V1 (at construction, or at a frame if enabled later). */
export const PHYSICS_V1 =
  'fixedtick: BabylonFixedLoop steps Physics V2 (Havok) only; this scene uses a Physics V1 plugin (PhysicsImpostor). Enable physics with a HavokPlugin.';

/** A position, as `teleport` takes it. */
type XYZ = { x: number; y: number; z: number };
/** A rotation quaternion, as `teleport` takes it. */
type XYZW = XYZ & { w: number };

/** What the adapter was built with; validated by `BabylonFixedLoop`. */
export interface TrackerSettings {
  autoTrack: boolean;
  defaultInterpolation: InterpolationMode;
  render: boolean;
}

/** Per thin-instanced mesh: its slots by instance index. */
interface ThinEntry {
  mesh: NodeLike;
  body: BodyLike;
  slots: number[];
  auto: boolean;
  /** An instance was adopted: Havok must be told (`#pushMoved`). */
  moved: boolean;
}

function grow<T extends Float64Array | Float32Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

/** Copies position `p` and rotation `q` into `out[o..o+6]`. */
function setRow(out: Float64Array, o: number, p: XYZ, q: XYZW): void {
  out[o] = p.x;
  out[o + 1] = p.y;
  out[o + 2] = p.z;
  out[o + 3] = q.x;
  out[o + 4] = q.y;
  out[o + 5] = q.z;
  out[o + 6] = q.w;
}

/** @internal See the module doc. */
export class BodyTracker implements LoopAdapter {
  readonly #scene: SceneLike;
  readonly #loop: FixedLoop;
  readonly #settings: TrackerSettings;
  readonly #poses = new PoseBuffer();

  // per slot, indexed like the PoseBuffer
  #flags: number[] = [];
  /** Thin-instance index, `-1` for a node. */
  #instance: number[] = [];
  #nodes: (NodeLike | undefined)[] = [];
  /** The slot's body; `null` for a plain node. */
  #bodies: (BodyLike | null)[] = [];
  /**
   * Each node's `position`, `rotationQuaternion` and `scaling` objects: Babylon nodes are large
   * and their getters slow; the small vector objects are fast. A node whose vector was replaced
   * (`mesh.position = new Vector3(…)`) is noticed before the next steps.
   */
  #pos: Vec3Like[] = [];
  #rot: QuatLike[] = [];
  #scale: Vec3Like[] = [];
  /** What each node was last left holding (local numbers, stride `S`). */
  #held = new Float64Array(0);
  /** A parented body's local simulation pose, exactly as Havok's sync wrote it. */
  #local = new Float64Array(0);
  /** What each thin instance's matrix was last left holding. */
  #matrix = new Float32Array(0);

  /** Tracked slots, parents before children. */
  #order: number[] = [];
  #orderDirty = false;
  #plainNodes = false;
  #parented = false;
  /** `beforeSteps` checked every node this frame: `interpolate` need not. */
  #checked = false;

  readonly #nodeSlot = new Map<NodeLike, number>();
  readonly #thin = new Map<NodeLike, ThinEntry>();
  #thinList: ThinEntry[] = [];
  /** The engine's body list when last scanned: the array, its length, its last body. */
  #seen: unknown[] = [];
  readonly #optedOut = new WeakSet<BodyLike>();
  // scratch objects for Babylon's math and Havok's velocity getters
  readonly #m = [new Matrix(), new Matrix(), new Matrix()];
  readonly #v = new Vector3();
  readonly #w = new Vector3();
  readonly #q = new Quaternion();

  readonly #savedPhysicsEnabled: boolean;
  #savedTimeStep = Number.NaN;
  #timeStepEngine: PhysicsEngineV2Like | null = null;
  #detached = false;

  constructor(scene: SceneLike, loop: FixedLoop, settings: TrackerSettings) {
    this.#scene = scene;
    this.#loop = loop;
    this.#settings = settings;
    // Babylon must not also step: `Scene.animate` skips `_advancePhysicsEngineStep` when off.
    this.#savedPhysicsEnabled = scene.physicsEnabled;
    scene.physicsEnabled = false;
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
    if (body) this.#optedOut.delete(body);
    const thin = this.#thin.get(node);
    const existing = this.#slots(node);
    if (existing.length > 0 || thin) {
      for (const slot of existing) {
        this.#setMode(slot, mode);
        if (!auto) this.#flags[slot] &= ~AUTO;
      }
      if (thin && !auto) thin.auto = false;
      return;
    }
    if (!body || body.numInstances < 1) {
      const slot = this.#add(mode, node, body, auto, -1);
      this.#bind(slot, node);
      this.#nodeSlot.set(node, slot);
      this.#read(slot, !!body && !!node.parent, true);
      this.#poses.reset(slot);
      return;
    }
    const storage = node._thinInstanceDataStorage;
    if (!storage?.matrixData) return;
    const entry: ThinEntry = { mesh: node, body, slots: [], auto, moved: false };
    for (let i = 0; i < Math.min(body.numInstances, storage.instancesCount); i++) {
      const slot = this.#add(mode, node, body, auto, i);
      this.#read(slot, false, true);
      this.#poses.reset(slot);
      entry.slots.push(slot);
    }
    this.#thin.set(node, entry);
    this.#thinList = [...this.#thinList, entry];
    // Babylon (9.x) creates instance bodies with the motion type set after the transform, which
    // leaves every instance at the origin inside Havok; the matrices are the intended poses.
    this.#pushThin(entry, this.#loop.inFixedStep);
    this.#flush();
  }

  /** Stops tracking `node`; it is left at its simulation pose. */
  untrack(node: NodeLike): boolean {
    const thin = this.#thin.get(node);
    const slots = this.#slots(node);
    // adopt every pending write first: pushing an adopted thin instance to Havok rewrites all
    // the mesh's instances, which must all still be tracked
    for (const slot of slots) this.#adoptPending(slot);
    for (const slot of slots) {
      const body = this.#bodies[slot];
      if (body && this.#flags[slot] & AUTO) this.#optedOut.add(body);
      this.#remove(slot, true);
    }
    if (thin) this.#dropThin(thin, true);
    return slots.length > 0 || thin !== undefined;
  }

  /** True if `node` (or a thin-instanced mesh) is tracked. */
  isTracked(node: NodeLike): boolean {
    return this.#nodeSlot.has(node) || this.#thin.has(node);
  }

  /** The interpolation mode of a tracked node, or `undefined`. */
  modeOf(node: NodeLike): InterpolationMode | undefined {
    const slot = this.#slotOf(node);
    return slot === undefined ? undefined : this.#poses.getMode(slot);
  }

  /** Copies the simulation pose of `node` (or thin instance `index`) into `out` (10 numbers). */
  simulationPose(node: NodeLike, index: number, out: Float64Array | number[]): boolean {
    const slot = this.#slotOf(node, index);
    if (slot === undefined) return false;
    this.#adoptPending(slot);
    const c = this.#poses.current;
    for (let k = 0; k < S; k++) out[k] = c[slot * S + k];
    if (this.#bodies[slot] && this.#instance[slot] < 0) {
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
    const slots = this.#slots(node, index);
    for (const s of slots) {
      this.#adoptPending(s);
      if (this.#loop.inFixedStep) this.#flags[s] |= RESET;
      else this.#reset(s, 0);
    }
    this.#flush();
    return slots.length > 0;
  }

  /** Moves `node` and its Havok body now, with no interpolation streak. */
  teleport(node: NodeLike, position: XYZ, rotation?: XYZW): void {
    if (this.#thin.has(node)) {
      throw new Error(
        `fixedtick: "${node.name}" is a thin-instanced physics mesh; use teleportInstance(mesh, index, position, rotation?)`,
      );
    }
    node.position.set(position.x, position.y, position.z);
    if (rotation) {
      node.rotationQuaternion ??= node.rotation.toQuaternion();
      node.rotationQuaternion.set(rotation.x, rotation.y, rotation.z, rotation.w);
    }
    const slot = this.#nodeSlot.get(node);
    const body = node.physicsBody;
    if (slot !== undefined) this.#bind(slot, node);
    if (slot === undefined || this.#loop.inFixedStep) {
      if (body) this.#pushBody(body, node);
      if (slot !== undefined) this.#flags[slot] |= RESET;
    } else {
      this.#adopt(slot);
    }
  }

  /** Moves thin instance `index` of `mesh` and its Havok body now, scale kept. */
  teleportInstance(mesh: NodeLike, index: number, position: XYZ, rotation?: XYZW): void {
    const entry = this.#thin.get(mesh);
    const slot = entry?.slots[index];
    if (!entry || slot === undefined) {
      throw optionError('index', index, `a tracked thin instance of "${mesh.name}"`);
    }
    const c = this.#poses.current;
    const r = slot * S;
    setRow(c, r, position, rotation ?? this.#q.set(c[r + 3], c[r + 4], c[r + 5], c[r + 6]));
    const inStep = this.#loop.inFixedStep;
    if (inStep) this.#flags[slot] |= RESET;
    else this.#poses.reset(slot);
    this.#pushThin(entry, inStep);
    this.#flush();
  }

  /** Changes the default mode, and the mode of every slot that follows it. */
  setDefaultMode(mode: InterpolationMode): void {
    this.#settings.defaultInterpolation = mode;
    for (const slot of this.#sort())
      if (this.#flags[slot] & DEFAULT) this.#setMode(slot, undefined);
  }

  // ---- LoopAdapter ------------------------------------------------------------------------

  beginFrame(): void {
    // set by `beforeSteps`, consumed by `interpolate`; cleared here too in case a frame was cut
    // short between them (an error under errorPolicy 'throw', a dispose mid-step)
    this.#checked = false;
    // something turned Babylon's own physics step back on: it would step a second time
    if (this.#scene.physicsEnabled) this.#scene.physicsEnabled = false;
    this.#prune(this.#scanBodies());
    this.#sort();
  }

  beforeSteps(): void {
    const order = this.#sort();
    const c = this.#poses.current;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i];
      const node = this.#nodes[slot] as NodeLike;
      if (
        this.#flags[slot] & FAST &&
        node.position === this.#pos[slot] &&
        node.rotationQuaternion === this.#rot[slot] &&
        this.#holds(slot)
      ) {
        if (!this.#same(c, slot)) this.#put(slot, c);
      } else if (this.#changed(slot, true)) {
        this.#adopt(slot);
      } else {
        this.#restore(slot);
      }
    }
    this.#pushMoved(true);
    this.#flush();
    this.#checked = true;
  }

  physicsStep(fixedDelta: number): void {
    const engine = this.#physicsEngine();
    if (engine === null) return;
    const plugin = engine.getPhysicsPlugin();
    if (this.#timeStepEngine !== engine) {
      this.#timeStepEngine = engine;
      this.#savedTimeStep = plugin.getTimeStep();
    }
    // `applyForce` converts force to impulse with the plugin's time step: keep it = fixedDelta.
    if (plugin.getTimeStep() !== fixedDelta) plugin.setTimeStep(fixedDelta);
    const scene = this.#scene;
    scene.onBeforePhysicsObservable?.notifyObservers(scene);
    plugin.executeStep(fixedDelta, engine.getBodies());
    // Havok writes thin-instance matrices without scale: put each instance's scale back
    const c = this.#poses.current;
    const list = this.#thinList;
    for (let e = 0; e < list.length; e++) {
      const data = list[e].mesh._thinInstanceDataStorage?.matrixData;
      const slots = list[e].slots;
      for (let i = 0; data && !list[e].body.disableSync && i < slots.length; i++) {
        for (let k = 0; k < 12; k++) data[i * M + k] *= c[slots[i] * S + 7 + (k >> 2)];
      }
    }
    scene.onAfterPhysicsObservable?.notifyObservers(scene);
  }

  /**
   * After each step: the new simulation pose becomes `current`, the old one `previous`. What a
   * node holds now (Havok's sync wrote it) is also what it was last left holding. A body's scale
   * is not read (Havok does not simulate it; `simulationPose` reads it from the node).
   */
  afterStep(): void {
    // tracked or untracked since `beginFrame` (in `fixedUpdate`): a slot may have been reused
    const order = this.#sort();
    this.#poses.shiftAll();
    const c = this.#poses.current;
    const w = this.#held;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i];
      const flags = this.#flags[slot];
      if (flags & FAST) {
        setRow(c, slot * S, this.#pos[slot], this.#rot[slot]);
        setRow(w, slot * S, this.#pos[slot], this.#rot[slot]);
      } else {
        this.#read(slot, (flags & PARENTED) !== 0, !this.#bodies[slot]);
      }
      if (flags & EXTRAPOLATE) this.#velocity(slot);
      if (flags & RESET) {
        this.#flags[slot] = flags & ~RESET;
        this.#poses.reset(slot);
      }
    }
  }

  interpolate(): void {
    const order = this.#sort();
    const check = !this.#checked;
    this.#checked = false;
    const poses = this.#poses;
    poses.setClock(this.#loop);
    const t = this.#loop.alpha;
    const a = poses.previous;
    const b = poses.current;
    const out = poses.output;
    const w = this.#held;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i];
      const flags = this.#flags[slot];
      const r = slot * S;
      let qx = a[r + 3];
      let qy = a[r + 4];
      let qz = a[r + 5];
      let qw = a[r + 6];
      const bx = b[r + 3];
      const by = b[r + 4];
      const bz = b[r + 5];
      const bw = b[r + 6];
      const dot = qx * bx + qy * by + qz * bz + qw * bw;
      if (
        !(flags & FAST) ||
        flags & NOT_INTERPOLATE ||
        (dot < SLERP_NLERP_THRESHOLD && -dot < SLERP_NLERP_THRESHOLD)
      ) {
        // other nodes, other modes, and rotations far enough apart to need a true slerp
        poses.interpolateSlotAt(slot);
        this.#write(slot, out, check);
        continue;
      }
      // an unparented body in 'interpolate' between nearly equal rotations (the common case at
      // 60 Hz): the buffer's operations, inline — exact-endpoint lerp and the normalised nlerp
      const px = lerp(a[r], b[r], t);
      const py = lerp(a[r + 1], b[r + 1], t);
      const pz = lerp(a[r + 2], b[r + 2], t);
      if (t >= 1) {
        qx = bx;
        qy = by;
        qz = bz;
        qw = bw;
      } else if (t > 0 && (qx !== bx || qy !== by || qz !== bz || qw !== bw)) {
        const s1 = dot < 0 ? -t : t;
        const x = qx * (1 - t) + bx * s1;
        const y = qy * (1 - t) + by * s1;
        const z = qz * (1 - t) + bz * s1;
        const ww = qw * (1 - t) + bw * s1;
        const len = Math.sqrt(x * x + y * y + z * z + ww * ww);
        const inv = len > 0 ? 1 / len : 0;
        qx = x * inv;
        qy = y * inv;
        qz = z * inv;
        qw = ww * inv;
      }
      // a body at rest: its node already holds its render pose
      if (
        w[r] === px &&
        w[r + 1] === py &&
        w[r + 2] === pz &&
        w[r + 3] === qx &&
        w[r + 4] === qy &&
        w[r + 5] === qz &&
        w[r + 6] === qw
      )
        continue;
      if (check && !this.#holds(slot)) {
        this.#adopt(slot);
        continue;
      }
      this.#pos[slot].set(px, py, pz);
      this.#rot[slot].set(qx, qy, qz, qw);
      w[r] = px;
      w[r + 1] = py;
      w[r + 2] = pz;
      w[r + 3] = qx;
      w[r + 4] = qy;
      w[r + 5] = qz;
      w[r + 6] = qw;
    }
    this.#pushMoved(false);
    this.#flush();
  }

  render(): void {
    const order = this.#sort();
    // A body's render pose is a world pose, written relative to its parent: if the parent moved
    // since (`update`, `lateUpdate`, `preRender`), express it again relative to where it is now.
    for (let i = 0; this.#parented && i < order.length; i++) {
      if (this.#flags[order[i]] & PARENTED) this.#write(order[i], this.#poses.output, true);
    }
    const scene = this.#scene;
    if (!this.#settings.render || scene.isDisposed) return;
    if (scene.activeCamera || scene.activeCameras?.length) scene.render();
  }

  resetInterpolation(): void {
    if (this.#loop.inFixedStep) {
      for (const slot of this.#sort()) this.#flags[slot] |= RESET;
      return;
    }
    this.#adoptAll();
    this.#poses.resetAll();
    for (const slot of this.#sort()) this.#write(slot, this.#poses.output, false);
    this.#flush();
  }

  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    // leave every node at its simulation pose, then hand stepping back to Babylon
    if (!this.#loop.inFixedStep) {
      this.#adoptAll();
      for (const slot of this.#sort()) this.#restore(slot);
      this.#flush();
    }
    this.#scene.physicsEnabled = this.#savedPhysicsEnabled;
    if (!Number.isNaN(this.#savedTimeStep)) {
      this.#timeStepEngine?.getPhysicsPlugin().setTimeStep(this.#savedTimeStep);
    }
  }

  // ---- physics engine -----------------------------------------------------------------------

  #physicsEngine(): PhysicsEngineV2Like | null {
    const engine = this.#scene.getPhysicsEngine?.() ?? null;
    if (engine === null) return null;
    if (engine.getPluginVersion() !== 2 || !engine.getBodies) throw new Error(PHYSICS_V1);
    return engine as PhysicsEngineV2Like;
  }

  /**
   * Rescans the engine's body list when it changed (or a thin body's instance count did):
   * forget bodies that left, auto-track new dynamic ones. Returns true if it rescanned. Babylon's
   * engine appends a new body and splices a removed one out of the same array, so any change
   * shows in the array, its length or its last body — three compares per frame instead of one
   * per body — unless a body is removed and added back within one frame (then the next change
   * of the list is what notices it).
   */
  #scanBodies(): boolean {
    const bodies = this.#physicsEngine()?.getBodies();
    if (!bodies) return false;
    const seen = this.#seen;
    let same = bodies === seen[0] && bodies.length === seen[1] && bodies.at(-1) === seen[2];
    const thin = this.#thinList;
    for (let e = 0; same && e < thin.length; e++) {
      same = thin[e].body.numInstances === thin[e].slots.length;
    }
    if (same) return false;
    this.#seen = [bodies, bodies.length, bodies.at(-1)];
    const present = new Set(bodies);
    // forget tracked bodies that left the engine
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const body = this.#bodies[slot];
      if (body && this.#instance[slot] < 0 && !present.has(body)) this.#remove(slot, false);
    }
    for (const entry of thin) {
      const { body, mesh, slots } = entry;
      if (present.has(body) && body.numInstances === slots.length) continue;
      // gone, or instances added or removed: forget it, and track the new set
      const mode =
        slots.length === 0 || this.#flags[slots[0]] & DEFAULT
          ? undefined
          : this.#poses.getMode(slots[0]);
      this.#dropThin(entry, false);
      if (present.has(body) && !mesh.isDisposed()) this.track(mesh, mode, entry.auto);
    }
    for (const body of bodies) {
      const node = body.transformNode;
      if (
        this.#settings.autoTrack &&
        !this.#optedOut.has(body) &&
        node &&
        !node.isDisposed() &&
        !this.isTracked(node) &&
        body.getMotionType() === MOTION_DYNAMIC
      ) {
        this.track(node, undefined, true);
      }
    }
    return true;
  }

  /**
   * Drops disposed nodes. A disposed body or body node leaves the engine's body list, so bodies
   * are checked only when that list changed (`all`); plain nodes every frame.
   */
  #prune(all: boolean): void {
    if (!all && !this.#plainNodes) return;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const node = this.#nodes[slot];
      const body = this.#bodies[slot];
      if (!node || (!all && body) || (!node.isDisposed() && body?.isDisposed !== true)) continue;
      const entry = this.#thin.get(node);
      if (entry) {
        this.#dropThin(entry, false);
      } else if (node.isDisposed()) {
        this.#remove(slot, false);
      } else {
        // the body went away, the node stays: keep interpolating it as a plain node
        this.#bodies[slot] = null;
        this.#flags[slot] &= ~(PARENTED | FAST);
        this.#read(slot, false, true);
        this.#poses.reset(slot);
        this.#orderDirty = true;
      }
    }
  }

  // ---- slots ------------------------------------------------------------------------------

  #add(
    mode: InterpolationMode | undefined,
    node: NodeLike,
    body: BodyLike | null,
    auto: boolean,
    instance: number,
  ): number {
    const slot = this.#poses.add(mode ?? this.#settings.defaultInterpolation);
    const n = this.#poses.capacity;
    this.#held = grow(this.#held, n * S);
    this.#local = grow(this.#local, n * S);
    this.#matrix = grow(this.#matrix, n * M);
    this.#nodes[slot] = node;
    this.#bodies[slot] = body;
    this.#instance[slot] = instance;
    this.#flags[slot] = auto ? AUTO : 0;
    this.#plainNodes ||= !body;
    this.#setMode(slot, mode);
    this.#orderDirty = true;
    return slot;
  }

  #setMode(slot: number, mode: InterpolationMode | undefined): void {
    const resolved = mode ?? this.#settings.defaultInterpolation;
    this.#poses.setMode(slot, resolved);
    this.#flags[slot] =
      (this.#flags[slot] & ~(DEFAULT | EXTRAPOLATE | NOT_INTERPOLATE)) |
      (mode === undefined ? DEFAULT : 0) |
      (resolved === 'extrapolate' ? EXTRAPOLATE : 0) |
      (resolved === 'interpolate' ? 0 : NOT_INTERPOLATE);
  }

  #remove(slot: number, restore: boolean): void {
    const node = this.#nodes[slot];
    if (!node) return;
    if (restore && !this.#loop.inFixedStep) this.#restore(slot);
    if (this.#instance[slot] < 0) this.#nodeSlot.delete(node);
    this.#poses.remove(slot);
    this.#flags[slot] = 0;
    this.#nodes[slot] = undefined;
    this.#bodies[slot] = null;
    this.#orderDirty = true;
  }

  /** Forgets a thin-instanced mesh (its slots are removed here unless already). */
  #dropThin(entry: ThinEntry, restore: boolean): void {
    for (const slot of entry.slots) this.#remove(slot, restore);
    if (restore) entry.mesh.thinInstanceBufferUpdated?.('matrix');
    this.#thin.delete(entry.mesh);
    this.#thinList = this.#thinList.filter((e) => e !== entry);
  }

  /** The slots of `node`: all its instances (or instance `index`), or its own slot. */
  #slots(node: NodeLike, index = -1): number[] {
    const thin = this.#thin.get(node);
    const slot = this.#slotOf(node, index);
    return thin && index < 0 ? thin.slots : slot === undefined ? [] : [slot];
  }

  #slotOf(node: NodeLike, index = -1): number | undefined {
    const thin = this.#thin.get(node)?.slots;
    return index >= 0 ? thin?.[index] : (this.#nodeSlot.get(node) ?? thin?.[0]);
  }

  /**
   * The slots, parents before children, rebuilt (with `PARENTED` flags and the buffer's parent
   * links, for reset) when a node was tracked or untracked since.
   */
  #sort(): number[] {
    if (!this.#orderDirty) return this.#order;
    this.#orderDirty = false;
    const depth: number[] = [];
    const order: number[] = [];
    this.#plainNodes = this.#parented = false;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const node = this.#nodes[slot];
      if (!node) continue;
      this.#poses.setParent(slot, -1);
      depth[slot] = 0;
      for (let p = node.parent as NodeLike | null; p; p = p.parent as NodeLike | null)
        depth[slot]++;
      const body = this.#bodies[slot] && this.#instance[slot] < 0;
      const parented = body && node.parent;
      this.#flags[slot] =
        (this.#flags[slot] & ~(PARENTED | FAST)) | (parented ? PARENTED : body ? FAST : 0);
      this.#parented ||= !!parented;
      this.#plainNodes ||= !this.#bodies[slot];
      order.push(slot);
    }
    for (const slot of order) {
      // the nearest tracked ancestor
      let p = this.#nodes[slot]?.parent as NodeLike | null;
      while (p && !this.#nodeSlot.has(p)) p = p.parent as NodeLike | null;
      const parent = p ? (this.#nodeSlot.get(p) as number) : -1;
      if (parent !== slot) this.#poses.setParent(slot, parent);
    }
    this.#order = order.sort((a, b) => depth[a] - depth[b] || a - b);
    return this.#order;
  }

  // ---- reading and writing nodes ------------------------------------------------------------

  #bind(slot: number, node: NodeLike): void {
    node.rotationQuaternion ??= node.rotation.toQuaternion();
    this.#pos[slot] = node.position;
    this.#rot[slot] = node.rotationQuaternion;
    this.#scale[slot] = node.scaling;
  }

  /**
   * Reads a slot's simulation pose from its node into `current` (world space for a body; with
   * the scale if `scale`) and records it as what the node holds; a parented body's local pose
   * also goes to `#local`. A thin instance's pose is its matrix, decomposed.
   */
  #read(slot: number, parented: boolean, scale: boolean): void {
    const c = this.#poses.current;
    const r = slot * S;
    if (this.#instance[slot] >= 0) {
      const data = this.#keep(slot);
      if (!data) return;
      const m = this.#m[0];
      const s = this.#w;
      Matrix.FromArrayToRef(data, this.#instance[slot] * M, m);
      m.decompose(s, this.#q, this.#v);
      setRow(c, r, this.#v, this.#q);
      c[r + 7] = s.x;
      c[r + 8] = s.y;
      c[r + 9] = s.z;
      return;
    }
    const p = this.#pos[slot];
    const q = this.#rot[slot];
    const w = this.#held;
    setRow(w, r, p, q);
    setRow(parented ? this.#local : c, r, p, q);
    if (scale) {
      const s = this.#scale[slot];
      c[r + 7] = w[r + 7] = s.x;
      c[r + 8] = w[r + 8] = s.y;
      c[r + 9] = w[r + 9] = s.z;
    }
    if (parented) {
      const node = this.#nodes[slot] as NodeLike;
      node.computeWorldMatrix(true);
      setRow(c, r, node.absolutePosition, node.absoluteRotationQuaternion);
    }
  }

  /** Records a thin instance's matrix as what it holds; returns the mesh's matrix buffer. */
  #keep(slot: number): Float32Array | null | undefined {
    const data = this.#nodes[slot]?._thinInstanceDataStorage?.matrixData;
    const o = this.#instance[slot] * M;
    for (let k = 0; data && k < M; k++) this.#matrix[slot * M + k] = data[o + k];
    return data;
  }

  /**
   * True if something other than the adapter and Havok wrote to the slot's node (or instance)
   * since it was last left holding a pose. With `identity`, a vector object replaced on the node
   * counts too (and the refs are rebound).
   */
  #changed(slot: number, identity: boolean): boolean {
    const node = this.#nodes[slot];
    if (!node) return false;
    const r = slot * S;
    const i = this.#instance[slot];
    if (i >= 0) {
      const data = node._thinInstanceDataStorage?.matrixData;
      for (let k = 0; data && k < M; k++)
        if (this.#matrix[slot * M + k] !== data[i * M + k]) return true;
      return false;
    }
    const s = this.#scale[slot];
    const plain = !this.#bodies[slot];
    if (
      identity &&
      (node.position !== this.#pos[slot] ||
        node.rotationQuaternion !== this.#rot[slot] ||
        (plain && node.scaling !== s))
    ) {
      this.#bind(slot, node);
      return true;
    }
    const w = this.#held;
    return (
      !this.#holds(slot) || (plain && (w[r + 7] !== s.x || w[r + 8] !== s.y || w[r + 9] !== s.z))
    );
  }

  /** True if the slot's node holds the position and rotation it was last left holding. */
  #holds(slot: number): boolean {
    const w = this.#held;
    const r = slot * S;
    const p = this.#pos[slot];
    const q = this.#rot[slot];
    return (
      w[r] === p.x &&
      w[r + 1] === p.y &&
      w[r + 2] === p.z &&
      w[r + 3] === q.x &&
      w[r + 4] === q.y &&
      w[r + 5] === q.z &&
      w[r + 6] === q.w
    );
  }

  /** True if position and rotation of row `slot` of `rows` are what its node was left holding. */
  #same(rows: Float64Array, slot: number): boolean {
    const w = this.#held;
    const r = slot * S;
    return (
      w[r] === rows[r] &&
      w[r + 1] === rows[r + 1] &&
      w[r + 2] === rows[r + 2] &&
      w[r + 3] === rows[r + 3] &&
      w[r + 4] === rows[r + 4] &&
      w[r + 5] === rows[r + 5] &&
      w[r + 6] === rows[r + 6]
    );
  }

  /**
   * Writes row `slot` of `rows` (a pose in the slot's space; world for a body) to its node or
   * instance matrix and records it. A body whose node already holds it (at rest) is not touched.
   * With `check`, a node written from outside since is adopted instead of overwritten.
   */
  #write(slot: number, rows: Float64Array, check: boolean): void {
    const node = this.#nodes[slot];
    if (!node) return;
    const r = slot * S;
    const w = this.#held;
    const i = this.#instance[slot];
    const parented = this.#flags[slot] & PARENTED;
    const plain = !this.#bodies[slot];
    // a body at rest: its node already holds its render pose
    if (this.#flags[slot] & FAST && this.#same(rows, slot)) return;
    if (check && this.#changed(slot, false)) {
      this.#adopt(slot);
      return;
    }
    if (i >= 0) {
      this.#compose(slot, rows, true);
      this.#keep(slot);
      return;
    }
    let from = rows;
    if (parented) {
      // world → the parent's current frame, as Havok's sync does it
      const [world, inverse, local] = this.#m;
      this.#compose(slot, rows, false);
      (node.parent as NodeLike).computeWorldMatrix(true).invertToRef(inverse);
      world.multiplyToRef(inverse, local);
      local.decompose(this.#w, this.#q, this.#v);
      setRow(w, r, this.#v, this.#q.normalize());
      from = w;
    }
    this.#put(slot, from);
    if (!plain) return;
    for (let k = 7; k < S; k++) w[r + k] = rows[r + k];
    this.#scale[slot].set(w[r + 7], w[r + 8], w[r + 9]);
  }

  /**
   * Composes row `slot` of `rows` into a matrix (Babylon's `Matrix.ComposeToRef`; unit scale
   * unless `scaled`): a thin instance's own slot in its mesh's buffer, else the first scratch.
   */
  #compose(slot: number, rows: Float64Array, scaled: boolean): void {
    const r = slot * S;
    const m = this.#m[0];
    Matrix.ComposeToRef(
      this.#w.set(scaled ? rows[r + 7] : 1, scaled ? rows[r + 8] : 1, scaled ? rows[r + 9] : 1),
      this.#q.set(rows[r + 3], rows[r + 4], rows[r + 5], rows[r + 6]),
      this.#v.set(rows[r], rows[r + 1], rows[r + 2]),
      m,
    );
    const data = this.#nodes[slot]?._thinInstanceDataStorage?.matrixData;
    if (data && this.#instance[slot] >= 0) m.copyToArray(data, this.#instance[slot] * M);
  }

  /** Writes position and rotation of row `slot` of `rows` to the node, and records them. */
  #put(slot: number, rows: Float64Array): void {
    const w = this.#held;
    const r = slot * S;
    for (let k = 0; k < 7; k++) w[r + k] = rows[r + k];
    // the node stores the numbers it is given, so what was written is what it now holds
    this.#pos[slot].set(w[r], w[r + 1], w[r + 2]);
    this.#rot[slot].set(w[r + 3], w[r + 4], w[r + 5], w[r + 6]);
  }

  /** Puts a node back at its simulation pose (a parented body: the exact local pose Havok wrote). */
  #restore(slot: number): void {
    if (this.#flags[slot] & PARENTED) this.#put(slot, this.#local);
    else this.#write(slot, this.#poses.current, false);
  }

  /** Resets the slot's interpolation and writes its tracked descendants from `first` on. */
  #reset(slot: number, first: number): void {
    const n = this.#poses.reset(slot);
    for (let k = first; k < n; k++) {
      this.#write(this.#poses.resetSlots[k], this.#poses.output, false);
    }
  }

  /** A slot's node was written from outside: make that the simulation pose, move the body. */
  #adopt(slot: number): void {
    const node = this.#nodes[slot] as NodeLike;
    const body = this.#bodies[slot];
    const thin = this.#instance[slot] >= 0;
    this.#read(slot, !!body && !thin && !!node.parent, true);
    // the slot already shows its new pose; its tracked descendants jump to theirs
    this.#reset(slot, 1);
    if (thin) {
      const entry = this.#thin.get(node);
      if (entry) entry.moved = true;
    } else if (body) {
      this.#pushBody(body, node);
    }
  }

  /**
   * Outside the fixed step, adopts a write made to the slot's node (or instance) since the last
   * pass that checked it: the per-frame passes check a node only where they read or write it
   * anyway, so a write made after them is adopted by the next of them — or here, when the
   * simulation pose is asked for first.
   */
  #adoptPending(slot: number): void {
    if (this.#loop.inFixedStep || !this.#changed(slot, true)) return;
    this.#adopt(slot);
    this.#pushMoved(false);
    this.#flush();
  }

  /** Adopts every write not adopted yet (`resetInterpolation()`, `dispose`). */
  #adoptAll(): void {
    for (const slot of this.#sort()) if (this.#changed(slot, true)) this.#adopt(slot);
    this.#pushMoved(false);
  }

  /** Teleports a node's Havok body to the node's pose, whatever its pre-step type. */
  #pushBody(body: BodyLike, node: NodeLike): void {
    const engine = this.#physicsEngine();
    if (engine === null || body.isDisposed === true) return;
    const type = body.getPrestepType();
    body.setPrestepType(PRESTEP_TELEPORT);
    try {
      engine.getPhysicsPlugin().setPhysicsBodyTransformation(body, node);
    } finally {
      body.setPrestepType(type);
    }
  }

  /** Tells Havok about adopted thin instances. */
  #pushMoved(inStep: boolean): void {
    const list = this.#thinList;
    for (let i = 0; i < list.length; i++) if (list[i].moved) this.#pushThin(list[i], inStep);
  }

  /**
   * Teleports every instance of a thin-instanced body to its `current` pose. Havok reads the
   * rotation from the matrix as if it had no scale, so the matrices are written unscaled for the
   * push and then rewritten (simulation pose inside the step, render pose outside).
   */
  #pushThin(entry: ThinEntry, inStep: boolean): void {
    entry.moved = false;
    const c = this.#poses.current;
    for (const slot of entry.slots) this.#compose(slot, c, false);
    this.#pushBody(entry.body, entry.mesh);
    for (const slot of entry.slots) this.#write(slot, inStep ? c : this.#poses.output, false);
  }

  /** Uploads the thin-instance matrices (the passes rewrite them all). */
  #flush(): void {
    const list = this.#thinList;
    for (let i = 0; i < list.length; i++) list[i].mesh.thinInstanceBufferUpdated?.('matrix');
  }

  /** Reads Havok's linear and angular velocity of a slot's body for extrapolation. */
  #velocity(slot: number): void {
    const body = this.#bodies[slot];
    if (!body) return;
    const index = this.#instance[slot] >= 0 ? this.#instance[slot] : undefined;
    const v = this.#v;
    const a = this.#w;
    body.getLinearVelocityToRef(v, index);
    body.getAngularVelocityToRef(a, index);
    this.#poses.setVelocity(slot, v.x, v.y, v.z, a.x, a.y, a.z);
  }
}
