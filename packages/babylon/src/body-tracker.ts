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
 * - `interpolate`: each slot's render pose (the core buffer's `interpolateSlotAt`, or inline for an
 *   unparented body in the nlerp case), written to its node; on a frame with no step, a node
 *   about to be written is first checked for a write since.
 * - `render`: re-express bodies under moved parents, then `scene.render()`.
 *
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

/** Slot kinds: a plain node (its parent's space), a physics body (world space), a thin instance. */
const LOCAL = 1;
const WORLD = 2;
const THIN = 3;

/** Slot flags. */
const AUTO = 1;
/** Follows `defaultInterpolation`. */
const DEFAULT = 2;
/** A body whose node has a parent. */
const PARENTED = 4;
/** Reset after this step (a teleport inside the fixed step). */
const RESET = 8;
const EXTRAPOLATE = 16;
/** Not `'interpolate'` (`'none'` or `'extrapolate'`). */
const NOT_INTERPOLATE = 32;

const S = POSE_STRIDE;
/** Matrix floats per thin instance. */
const M = 16;

/** The error for a scene on Physics V1 (at construction, or at a frame if enabled later). */
export const PHYSICS_V1 =
  'fixedtick: BabylonFixedLoop steps Physics V2 (Havok) only; this scene uses a Physics V1 plugin (PhysicsImpostor). Enable physics with a HavokPlugin.';

/** A reusable `Vector3`-shaped sink for Havok's velocity getters. */
class Sink implements Vec3Like {
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

/** @internal See the module doc. */
export class BodyTracker implements LoopAdapter {
  readonly #scene: SceneLike;
  readonly #loop: FixedLoop;
  readonly #settings: TrackerSettings;
  readonly #poses = new PoseBuffer();

  // per slot, indexed like the PoseBuffer
  #kind: number[] = [];
  #flags: number[] = [];
  #instance: number[] = [];
  #nodes: (NodeLike | undefined)[] = [];
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
  #written = new Float64Array(0);
  /** A parented body's local simulation pose, exactly as Havok's sync wrote it. */
  #local = new Float64Array(0);
  /** What each thin instance's matrix was last left holding. */
  #matrix = new Float32Array(0);

  /** Tracked slots, parents before children. */
  #order: number[] = [];
  /**
   * `#order` split: unparented bodies (the bulk of a scene, handled inline by the per-frame
   * passes) and the rest (parented bodies, plain nodes, thin instances: the general path).
   */
  #fast: number[] = [];
  #rest: number[] = [];
  #plainNodes = false;
  #orderDirty = false;
  /** `beforeSteps` checked every node this frame: `interpolate` need not. */
  #checked = false;

  readonly #nodeSlot = new Map<NodeLike, number>();
  readonly #thin = new Map<NodeLike, ThinEntry>();
  #thinList: ThinEntry[] = [];
  /** The engine's body list when last scanned: the array, its length, its last body. */
  #seen: unknown[] = [];
  readonly #optedOut = new WeakSet<BodyLike>();
  readonly #linear = new Sink();
  readonly #angular = new Sink();

  readonly #savedPhysicsEnabled: boolean;
  #savedTimeStep = Number.NaN;
  #timeStepEngine: PhysicsEngineLike | null = null;
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
    if (body && body.numInstances > 0) {
      this.#trackThin(node, body, mode, auto);
      return;
    }
    const existing = this.#nodeSlot.get(node);
    if (existing !== undefined) {
      this.#setMode(existing, mode);
      if (!auto) this.#flags[existing] &= ~AUTO;
      return;
    }
    const slot = this.#add(mode, body ? WORLD : LOCAL, node, body, auto, -1);
    this.#bind(slot, node);
    this.#nodeSlot.set(node, slot);
    this.#read(slot, body !== null && !!node.parent, true);
    this.#poses.reset(slot);
  }

  /** Stops tracking `node`; it is left at its simulation pose. */
  untrack(node: NodeLike): boolean {
    const thin = this.#thin.get(node);
    const slot = this.#nodeSlot.get(node);
    if (thin) {
      if (thin.auto) this.#optedOut.add(thin.body);
      this.#removeThin(thin, true);
    } else if (slot !== undefined) {
      this.#adoptPending(slot);
      const body = this.#bodies[slot];
      if (body && this.#flags[slot] & AUTO) this.#optedOut.add(body);
      this.#remove(slot, true);
    }
    return thin !== undefined || slot !== undefined;
  }

  /** True if `node` (or a thin-instanced mesh) is tracked. */
  isTracked(node: NodeLike): boolean {
    return this.#nodeSlot.has(node) || this.#thin.has(node);
  }

  /** The interpolation mode of a tracked node, or `undefined`. */
  modeOf(node: NodeLike): InterpolationMode | undefined {
    const slot = this.#slotOf(node, -1);
    return slot === undefined ? undefined : this.#poses.getMode(slot);
  }

  /** Copies the simulation pose of `node` (or thin instance `index`) into `out` (10 numbers). */
  simulationPose(node: NodeLike, index: number, out: Float64Array | number[]): boolean {
    const slot = this.#slotOf(node, index);
    if (slot === undefined) return false;
    this.#adoptPending(slot);
    const c = this.#poses.current;
    for (let k = 0; k < S; k++) out[k] = c[slot * S + k];
    if (this.#kind[slot] === WORLD) {
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
    const slot = this.#slotOf(node, index);
    const slots = thin && index < 0 ? thin.slots : slot === undefined ? [] : [slot];
    for (const s of slots) {
      this.#adoptPending(s);
      if (this.#loop.inFixedStep) {
        this.#flags[s] |= RESET;
      } else {
        const n = this.#poses.reset(s);
        for (let k = 0; k < n; k++)
          this.#write(this.#poses.resetSlots[k], this.#poses.output, false);
      }
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
      if (!node.rotationQuaternion) node.rotationQuaternion = node.rotation.toQuaternion();
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
      throw new RangeError(
        `fixedtick: option "index" must be a tracked thin instance of "${mesh.name}", got ${String(index)}`,
      );
    }
    const c = this.#poses.current;
    const r = slot * S;
    c[r] = position.x;
    c[r + 1] = position.y;
    c[r + 2] = position.z;
    if (rotation) {
      c[r + 3] = rotation.x;
      c[r + 4] = rotation.y;
      c[r + 5] = rotation.z;
      c[r + 6] = rotation.w;
    }
    const inStep = this.#loop.inFixedStep;
    if (inStep) this.#flags[slot] |= RESET;
    else this.#poses.reset(slot);
    this.#pushThin(entry, inStep);
    this.#flush();
  }

  /** Changes the default mode, and the mode of every slot that follows it. */
  setDefaultMode(mode: InterpolationMode): void {
    this.#settings.defaultInterpolation = mode;
    for (const slot of this.#order) if (this.#flags[slot] & DEFAULT) this.#setMode(slot, undefined);
  }

  // ---- LoopAdapter ------------------------------------------------------------------------

  beginFrame(): void {
    // set by `beforeSteps`, consumed by `interpolate`; cleared here too in case a frame was cut
    // short between them (an error under errorPolicy 'throw', a dispose mid-step)
    this.#checked = false;
    // something turned Babylon's own physics step back on: it would step a second time
    if (this.#scene.physicsEnabled) this.#scene.physicsEnabled = false;
    this.#prune(this.#scanBodies());
    if (this.#orderDirty) this.#rebuildOrder();
  }

  beforeSteps(): void {
    if (this.#orderDirty) this.#rebuildOrder();
    const fast = this.#fast;
    const nodes = this.#nodes;
    const c = this.#poses.current;
    for (let i = 0; i < fast.length; i++) {
      const slot = fast[i];
      const node = nodes[slot];
      if (!node) continue;
      if (node.position !== this.#pos[slot] || node.rotationQuaternion !== this.#rot[slot]) {
        this.#bind(slot, node);
        this.#adopt(slot);
      } else if (!this.#holds(slot)) {
        this.#adopt(slot);
      } else if (!this.#same(c, slot * S)) {
        this.#put(slot, c);
      }
    }
    const rest = this.#rest;
    for (let i = 0; i < rest.length; i++) {
      const slot = rest[i];
      if (this.#changed(slot, true)) this.#adopt(slot);
      else this.#restore(slot);
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
    this.#rescaleThin();
    scene.onAfterPhysicsObservable?.notifyObservers(scene);
  }

  /**
   * After each step: the new simulation pose becomes `current`, the old one `previous`. What a
   * node holds now (Havok's sync wrote it) is also what it was last left holding. A body's scale
   * is not read (Havok does not simulate it; `simulationPose` reads it from the node).
   */
  afterStep(): void {
    // tracked or untracked since `beginFrame` (in `fixedUpdate`): a slot may have been reused
    if (this.#orderDirty) this.#rebuildOrder();
    const poses = this.#poses;
    poses.shiftAll();
    const c = poses.current;
    const w = this.#written;
    const fast = this.#fast;
    const pos = this.#pos;
    const rot = this.#rot;
    const flags = this.#flags;
    for (let i = 0; i < fast.length; i++) {
      const slot = fast[i];
      const p = pos[slot];
      const q = rot[slot];
      const r = slot * S;
      c[r] = w[r] = p.x;
      c[r + 1] = w[r + 1] = p.y;
      c[r + 2] = w[r + 2] = p.z;
      c[r + 3] = w[r + 3] = q.x;
      c[r + 4] = w[r + 4] = q.y;
      c[r + 5] = w[r + 5] = q.z;
      c[r + 6] = w[r + 6] = q.w;
      if (flags[slot] & (EXTRAPOLATE | RESET)) this.#stepped(slot);
    }
    const rest = this.#rest;
    for (let i = 0; i < rest.length; i++) {
      const slot = rest[i];
      const kind = this.#kind[slot];
      if (kind === 0) continue;
      this.#read(slot, (this.#flags[slot] & PARENTED) !== 0, kind === LOCAL);
      this.#stepped(slot);
    }
  }

  /** After a step's capture: Havok's velocities for extrapolation, a teleport's reset. */
  #stepped(slot: number): void {
    const flags = this.#flags[slot];
    if (flags & EXTRAPOLATE) this.#velocity(slot);
    if (flags & RESET) {
      this.#flags[slot] = flags & ~RESET;
      this.#poses.reset(slot);
    }
  }

  interpolate(): void {
    if (this.#orderDirty) this.#rebuildOrder();
    const check = !this.#checked;
    this.#checked = false;
    const poses = this.#poses;
    if (poses.count === 0) return;
    const t = this.#loop.alpha;
    poses.setClock(this.#loop);
    const out = poses.output;
    const a = poses.previous;
    const b = poses.current;
    const fast = this.#fast;
    const w = this.#written;
    const nodes = this.#nodes;
    const pos = this.#pos;
    const rot = this.#rot;
    for (let i = 0; i < fast.length; i++) {
      const slot = fast[i];
      if (!nodes[slot]) continue;
      const r = slot * S;
      let px: number;
      let py: number;
      let pz: number;
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
        this.#flags[slot] & NOT_INTERPOLATE ||
        (dot < SLERP_NLERP_THRESHOLD && -dot < SLERP_NLERP_THRESHOLD)
      ) {
        // other modes, and rotations far enough apart to need a true slerp: the buffer's pass
        poses.interpolateSlotAt(slot);
        px = out[r];
        py = out[r + 1];
        pz = out[r + 2];
        qx = out[r + 3];
        qy = out[r + 4];
        qz = out[r + 5];
        qw = out[r + 6];
      } else {
        // 'interpolate' between nearly equal rotations (the common case at 60 Hz): the buffer's
        // operations, inline — exact-endpoint lerp and the normalised nlerp
        px = lerp(a[r], b[r], t);
        py = lerp(a[r + 1], b[r + 1], t);
        pz = lerp(a[r + 2], b[r + 2], t);
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
      const p = pos[slot];
      const q = rot[slot];
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
    const rest = this.#rest;
    for (let i = 0; i < rest.length; i++) {
      if (this.#nodes[rest[i]]) poses.interpolateSlotAt(rest[i]);
    }
    for (let i = 0; i < rest.length; i++) this.#write(rest[i], out, check);
    this.#pushMoved(false);
    this.#flush();
  }

  render(): void {
    if (this.#orderDirty) this.#rebuildOrder();
    // A body's render pose is a world pose, written relative to its parent: if the parent moved
    // since (`update`, `lateUpdate`, `preRender`), express it again relative to where it is now.
    const rest = this.#rest;
    for (let i = 0; i < rest.length; i++) {
      if (this.#flags[rest[i]] & PARENTED) this.#write(rest[i], this.#poses.output, true);
    }
    const scene = this.#scene;
    if (!this.#settings.render || scene.isDisposed) return;
    if (!scene.activeCamera && !(scene.activeCameras && scene.activeCameras.length > 0)) return;
    scene.render();
  }

  resetInterpolation(): void {
    const inStep = this.#loop.inFixedStep;
    if (!inStep) this.#adoptAll();
    for (const slot of this.#order) this.#flags[slot] |= inStep ? RESET : 0;
    if (inStep) return;
    this.#poses.resetAll();
    for (const slot of this.#order) this.#write(slot, this.#poses.output, false);
    this.#flush();
  }

  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    // leave every node at its simulation pose, then hand stepping back to Babylon
    if (!this.#loop.inFixedStep) {
      this.#adoptAll();
      for (const slot of this.#order) this.#restore(slot);
      this.#flush();
    }
    this.#scene.physicsEnabled = this.#savedPhysicsEnabled;
    const engine = this.#timeStepEngine;
    if (engine !== null && !Number.isNaN(this.#savedTimeStep)) {
      engine.getPhysicsPlugin().setTimeStep(this.#savedTimeStep);
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
      if (this.#kind[slot] === WORLD && body && !present.has(body)) this.#remove(slot, false);
    }
    for (const entry of [...this.#thinList]) {
      const body = entry.body;
      if (present.has(body) && body.numInstances === entry.slots.length) continue;
      // gone, or instances added or removed: forget it, and track the new set
      const first = entry.slots[0];
      const mode =
        first === undefined || this.#flags[first] & DEFAULT
          ? undefined
          : this.#poses.getMode(first);
      this.#removeThin(entry, false);
      if (present.has(body) && !entry.mesh.isDisposed()) {
        this.#trackThin(entry.mesh, body, mode, entry.auto);
      }
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
      const kind = this.#kind[slot];
      if (!node || (!all && kind !== LOCAL)) continue;
      const body = this.#bodies[slot];
      const bodyGone = body?.isDisposed === true;
      if (!node.isDisposed() && !bodyGone) continue;
      const entry = this.#thin.get(node);
      if (entry) {
        this.#removeThin(entry, false);
      } else if (!node.isDisposed()) {
        // the body went away, the node stays: keep interpolating it as a plain node
        this.#kind[slot] = LOCAL;
        this.#bodies[slot] = null;
        this.#flags[slot] &= ~PARENTED;
        this.#read(slot, false, true);
        this.#poses.reset(slot);
        this.#orderDirty = true;
      } else {
        this.#remove(slot, false);
      }
    }
  }

  // ---- slots ------------------------------------------------------------------------------

  #add(
    mode: InterpolationMode | undefined,
    kind: number,
    node: NodeLike,
    body: BodyLike | null,
    auto: boolean,
    instance: number,
  ): number {
    const slot = this.#poses.add(mode ?? this.#settings.defaultInterpolation);
    const n = this.#poses.capacity;
    this.#written = grow(this.#written, n * S);
    this.#local = grow(this.#local, n * S);
    this.#matrix = grow(this.#matrix, n * M);
    this.#kind[slot] = kind;
    this.#nodes[slot] = node;
    this.#bodies[slot] = body;
    this.#instance[slot] = instance;
    this.#flags[slot] = auto ? AUTO : 0;
    this.#plainNodes ||= kind === LOCAL;
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
    if (this.#kind[slot] !== THIN) this.#nodeSlot.delete(node);
    this.#poses.remove(slot);
    this.#kind[slot] = 0;
    this.#flags[slot] = 0;
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
      existing.auto &&= auto;
      return;
    }
    const storage = mesh._thinInstanceDataStorage;
    if (!storage?.matrixData) return;
    const entry: ThinEntry = { mesh, body, slots: [], auto, moved: false };
    for (let i = 0; i < Math.min(body.numInstances, storage.instancesCount); i++) {
      const slot = this.#add(mode, THIN, mesh, body, auto, i);
      this.#read(slot, false, true);
      this.#poses.reset(slot);
      entry.slots.push(slot);
    }
    this.#thin.set(mesh, entry);
    this.#thinList = [...this.#thinList, entry];
    // Babylon (9.x) creates instance bodies with the motion type set after the transform, which
    // leaves every instance at the origin inside Havok; the matrices are the intended poses.
    this.#pushThin(entry, this.#loop.inFixedStep);
    this.#flush();
  }

  #removeThin(entry: ThinEntry, restore: boolean): void {
    for (const slot of entry.slots) this.#remove(slot, restore);
    if (restore) entry.mesh.thinInstanceBufferUpdated?.('matrix');
    this.#thin.delete(entry.mesh);
    this.#thinList = this.#thinList.filter((e) => e !== entry);
  }

  #slotOf(node: NodeLike, index: number): number | undefined {
    const thin = this.#thin.get(node)?.slots;
    return index >= 0 ? thin?.[index] : (this.#nodeSlot.get(node) ?? thin?.[0]);
  }

  /** Parent-before-child order, `PARENTED` flags and the buffer's parent links (for reset). */
  #rebuildOrder(): void {
    this.#orderDirty = false;
    const depth: number[] = [];
    const parents: number[] = [];
    const order: number[] = [];
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const node = this.#nodes[slot];
      if (!node) continue;
      let d = 0;
      let tracked = -1;
      for (let p = node.parent as NodeLike | null; p; p = p.parent as NodeLike | null) {
        d++;
        if (tracked < 0) tracked = this.#nodeSlot.get(p) ?? -1;
      }
      const parented = this.#kind[slot] === WORLD && node.parent ? PARENTED : 0;
      this.#flags[slot] = (this.#flags[slot] & ~PARENTED) | parented;
      this.#poses.setParent(slot, -1);
      depth[slot] = d;
      parents[slot] = tracked;
      order.push(slot);
    }
    for (const slot of order) {
      if (parents[slot] >= 0 && parents[slot] !== slot) this.#poses.setParent(slot, parents[slot]);
    }
    this.#order = order.sort((a, b) => depth[a] - depth[b] || a - b);
    const fast = (slot: number) => this.#kind[slot] === WORLD && !(this.#flags[slot] & PARENTED);
    this.#fast = order.filter(fast);
    this.#rest = order.filter((slot) => !fast(slot));
    this.#plainNodes = order.some((slot) => this.#kind[slot] === LOCAL);
  }

  // ---- reading and writing nodes ------------------------------------------------------------

  #bind(slot: number, node: NodeLike): void {
    if (!node.rotationQuaternion) node.rotationQuaternion = node.rotation.toQuaternion();
    this.#pos[slot] = node.position;
    this.#rot[slot] = node.rotationQuaternion;
    this.#scale[slot] = node.scaling;
  }

  /**
   * Reads a slot's simulation pose from its node into `current` (world space for a body; with
   * the scale if `scale`) and records it as what the node holds; a parented body's local pose
   * also goes to `#local`.
   */
  #read(slot: number, parented: boolean, scale: boolean): void {
    const node = this.#nodes[slot] as NodeLike;
    const c = this.#poses.current;
    const r = slot * S;
    if (this.#kind[slot] === THIN) {
      const data = this.#keep(slot);
      if (data) decomposeMatrix(data, this.#instance[slot] * M, c, r);
      return;
    }
    const p = this.#pos[slot];
    const q = this.#rot[slot];
    const w = this.#written;
    const l = parented ? this.#local : c;
    l[r] = w[r] = p.x;
    l[r + 1] = w[r + 1] = p.y;
    l[r + 2] = w[r + 2] = p.z;
    l[r + 3] = w[r + 3] = q.x;
    l[r + 4] = w[r + 4] = q.y;
    l[r + 5] = w[r + 5] = q.z;
    l[r + 6] = w[r + 6] = q.w;
    if (scale) {
      const s = this.#scale[slot];
      c[r + 7] = w[r + 7] = s.x;
      c[r + 8] = w[r + 8] = s.y;
      c[r + 9] = w[r + 9] = s.z;
    }
    if (parented) {
      node.computeWorldMatrix(true);
      const a = node.absolutePosition;
      const b = node.absoluteRotationQuaternion;
      c[r] = a.x;
      c[r + 1] = a.y;
      c[r + 2] = a.z;
      c[r + 3] = b.x;
      c[r + 4] = b.y;
      c[r + 5] = b.z;
      c[r + 6] = b.w;
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
    if (this.#kind[slot] === THIN) {
      const data = node._thinInstanceDataStorage?.matrixData;
      const o = this.#instance[slot] * M;
      for (let k = 0; data && k < M; k++)
        if (this.#matrix[slot * M + k] !== data[o + k]) return true;
      return false;
    }
    const p = this.#pos[slot];
    const q = this.#rot[slot];
    const s = this.#scale[slot];
    const local = this.#kind[slot] === LOCAL;
    if (
      identity &&
      (node.position !== p || node.rotationQuaternion !== q || (local && node.scaling !== s))
    ) {
      this.#bind(slot, node);
      return true;
    }
    const w = this.#written;
    return (
      !this.#holds(slot) || (local && (w[r + 7] !== s.x || w[r + 8] !== s.y || w[r + 9] !== s.z))
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
    const kind = this.#kind[slot];
    const r = slot * S;
    const w = this.#written;
    if (kind === WORLD && !(this.#flags[slot] & PARENTED) && this.#same(rows, r)) return;
    if (check && this.#changed(slot, false)) {
      this.#adopt(slot);
      return;
    }
    if (kind === THIN) {
      const data = node._thinInstanceDataStorage?.matrixData;
      if (data) composeMatrix(data, this.#instance[slot] * M, rows, r, true);
      this.#keep(slot);
      return;
    }
    let from = rows;
    if (this.#flags[slot] & PARENTED) {
      const parent = node.parent as NodeLike;
      const m = parent.computeWorldMatrix(true).m;
      worldToLocal(m, parent.absoluteRotationQuaternion, rows, r, w, r);
      from = w;
    }
    this.#put(slot, from);
    if (kind !== LOCAL) return;
    for (let k = 7; k < S; k++) w[r + k] = rows[r + k];
    this.#scale[slot].set(w[r + 7], w[r + 8], w[r + 9]);
  }

  /** True if the slot's node holds the position and rotation it was last left holding. */
  #holds(slot: number): boolean {
    const w = this.#written;
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

  /** True if position and rotation of `rows[r..]` are what the node was last left holding. */
  #same(rows: Float64Array, r: number): boolean {
    const w = this.#written;
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

  /** Writes position and rotation of row `slot` of `rows` to the node, and records them. */
  #put(slot: number, rows: Float64Array): void {
    const w = this.#written;
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

  /** A slot's node was written from outside: make that the simulation pose, move the body. */
  #adopt(slot: number): void {
    const node = this.#nodes[slot] as NodeLike;
    const kind = this.#kind[slot];
    this.#read(slot, kind === WORLD && !!node.parent, true);
    const n = this.#poses.reset(slot);
    // the slot already shows its new pose; its tracked descendants jump to theirs
    for (let k = 1; k < n; k++) this.#write(this.#poses.resetSlots[k], this.#poses.output, false);
    const body = this.#bodies[slot];
    if (kind === THIN) {
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
    for (const slot of this.#order) if (this.#changed(slot, true)) this.#adopt(slot);
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
    for (let i = 0; i < list.length; i++) {
      if (list[i].moved) this.#pushThin(list[i], inStep);
    }
  }

  /**
   * Teleports every instance of a thin-instanced body to its `current` pose. Havok reads the
   * rotation from the matrix as if it had no scale, so the matrices are written unscaled for the
   * push and then rewritten (simulation pose inside the step, render pose outside).
   */
  #pushThin(entry: ThinEntry, inStep: boolean): void {
    entry.moved = false;
    const data = entry.mesh._thinInstanceDataStorage?.matrixData;
    if (!data) return;
    const c = this.#poses.current;
    for (const slot of entry.slots)
      composeMatrix(data, this.#instance[slot] * M, c, slot * S, false);
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
    const index = this.#kind[slot] === THIN ? this.#instance[slot] : undefined;
    const v = this.#linear;
    const a = this.#angular;
    body.getLinearVelocityToRef(v, index);
    body.getAngularVelocityToRef(a, index);
    this.#poses.setVelocity(slot, v.x, v.y, v.z, a.x, a.y, a.z);
  }

  /** Havok writes thin-instance matrices without scale: put each instance's scale back. */
  #rescaleThin(): void {
    const c = this.#poses.current;
    const list = this.#thinList;
    for (let e = 0; e < list.length; e++) {
      const data = list[e].mesh._thinInstanceDataStorage?.matrixData;
      const slots = list[e].slots;
      for (let i = 0; data && !list[e].body.disableSync && i < slots.length; i++) {
        scaleBasisRows(data, i * M, c, slots[i] * S + 7);
      }
    }
  }
}
