/**
 * The one tracker every adapter runs: keeps tracked nodes at their simulation pose inside the
 * fixed step and at their interpolated pose everywhere else, over an engine's
 * {@link TrackingPlatform}.
 *
 * Per frame, in the loop's order (`LoopAdapter`):
 * 1. `beforeSteps` (frames that run steps) — each node is compared with what the tracker last
 *    left in it (the write ledger). A component written by others since (position, rotation or
 *    scale, each on its own) is a teleport of that component: it becomes the simulation value,
 *    its interpolation is reset — on the node and on its tracked descendants — and the engine's
 *    body is moved there. Then each node gets its simulation pose back (restore), so
 *    `fixedUpdate` and the physics read and move the real state, never an interpolated one.
 * 2. `afterStep` (each step) — capture: what the step left becomes the current simulation pose,
 *    the old one the previous (read from the node, or from the engine's bodies).
 * 3. `interpolate` — each node's render pose for the frame's alpha (the core {@link PoseBuffer}
 *    kernel), written component by component where it changed. In a frame without steps the
 *    write check of step 1 happens here, fused with the write.
 *
 * A node whose last two simulation poses are equal and which nothing wrote is *resting*: every
 * pass skips it (a sleeping body, a static prop) except the write check before the steps, and
 * the first change wakes it. A write made after the frame's passes (in `update`, `preRender`,
 * between frames) is drawn as written and adopted by the next pass that checks the node, or as
 * soon as the simulation pose is asked for.
 *
 * Instances of an instanced mesh are interpolated in the packed arrays and composed straight
 * into the engine's matrix buffer once per frame. Their matrices are not put back before the
 * steps unless tracked with `restore: true` (for code that reads them with `getMatrixAt` inside
 * `fixedUpdate`); a step that writes them is captured either way.
 *
 * Allocation: the per-frame and per-step passes allocate nothing; the platform is called with
 * typed arrays and offsets only (see docs/performance.md, "The tracker").
 */
import type { FixedLoop, LoopAdapter } from '../fixed-loop.ts';
import { type InterpolationMode, POSE_STRIDE, PoseBuffer } from '../interpolation/pose-buffer.ts';
import { checkInterpolationMode, optionError } from '../options.ts';
import {
  ALL_COMPONENTS,
  type ComponentMask,
  copyComponents,
  copyRow,
  differingComponents,
  POSITION,
  ROTATION,
  SCALE,
  sameRow,
} from './components.ts';
import {
  changedInstanceComponents,
  composeMatrix,
  copyMatrix,
  MATRIX_STRIDE,
  sameMatrix,
} from './instance-matrix.ts';
import type { TrackingPlatform } from './platform.ts';
import { identityPose, poseFromRow, type SimulationPose } from './simulation-pose.ts';
import {
  EXTRAPOLATE,
  FOLLOWS_DEFAULT,
  RESET_AFTER_STEP,
  RESTING,
  RESTORE,
  SETTLED,
  SlotTable,
  WORLD,
} from './slot-table.ts';

/** A position, as `teleport` takes it: a three or Babylon `Vector3`, or any `{ x, y, z }`. */
export interface Vector3Like {
  /** X component. */
  x: number;
  /** Y component. */
  y: number;
  /** Z component. */
  z: number;
}

/** A rotation quaternion, as `teleport` takes it: an engine's `Quaternion` or `{ x, y, z, w }`. */
export interface QuaternionLike extends Vector3Like {
  /** Scalar part. */
  w: number;
}

/** Options of `track`. */
export interface TrackOptions {
  /**
   * How the node is drawn between fixed steps; see {@link InterpolationMode}. Without it the node
   * follows the tracker's `defaultInterpolation`, also when that changes later.
   * @defaultValue the tracker's `defaultInterpolation`
   */
  interpolation?: InterpolationMode;
}

/** Options of `trackInstance`. */
export interface InstanceTrackOptions extends TrackOptions {
  /**
   * Put the instance's simulation matrix back into the mesh's matrix buffer before the steps,
   * so that code reading it inside `fixedUpdate` (`mesh.getMatrixAt`) reads the simulation, not
   * the interpolated matrix. Off by default: a step that only writes instance matrices, or reads
   * poses with `getSimulationPose`, needs no restore, and skipping it saves a matrix copy per
   * instance per frame.
   * @defaultValue false
   */
  restore?: boolean;
}

/** Options of a {@link Tracker}. */
export interface TrackerOptions {
  /** See {@link Tracker.defaultInterpolation}. @defaultValue `'interpolate'` */
  defaultInterpolation?: InterpolationMode;
  /** What the adapter calls a node in its API, for error messages. @defaultValue `'node'` */
  nodeName?: string;
}

/** One instanced mesh with tracked instances. */
interface MeshEntry<Node> {
  readonly mesh: Node;
  /** Its slots by instance index. */
  readonly slots: Map<number, number>;
  /** Its matrix buffer was rewritten this pass: upload it. */
  written: boolean;
}

const S = POSE_STRIDE;
const M = MATRIX_STRIDE;

function isFiniteVector(v: unknown, w: boolean): boolean {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n);
  return ok(o.x) && ok(o.y) && ok(o.z) && (!w || ok(o.w));
}

/** Tracks the nodes of one engine for one {@link FixedLoop}; see the module doc. */
export class Tracker<Node extends object> implements LoopAdapter {
  readonly #loop: FixedLoop;
  readonly #platform: TrackingPlatform<Node>;
  readonly #poses = new PoseBuffer();
  readonly #slots = new SlotTable<Node>();
  /** Node → its own slot. */
  readonly #objects = new Map<Node, number>();
  /** Instanced mesh → its tracked instances. */
  readonly #meshes = new Map<Node, MeshEntry<Node>>();
  #meshList: MeshEntry<Node>[] = [];
  /** By slot: the mesh entry of an instance. */
  readonly #entryOf: (MeshEntry<Node> | undefined)[] = [];
  /** Three scratch rows (0, 10, 20) and a velocity row (30). */
  readonly #scratch = new Float64Array(3 * S + 6);
  #list = new Int32Array(16);
  #default: InterpolationMode = 'interpolate';
  /** What the adapter calls a node, in error messages (`object3d`, `node`). */
  readonly #name: string;
  /** The frame's first pass over the nodes has not checked them for writes yet. */
  #checkPending = false;
  /** Nodes hold simulation poses (between restore and the interpolation pass). */
  #holding = false;
  /** The frame's last step ran and is still to be captured (by the interpolation pass). */
  #capturePending = false;
  /** Steps run in this frame so far. */
  #stepsRun = 0;

  /**
   * @param loop the loop whose alpha and `fixedDelta` the interpolation reads.
   * @param platform what the engine supplies.
   * @param options see {@link TrackerOptions}.
   */
  constructor(loop: FixedLoop, platform: TrackingPlatform<Node>, options: TrackerOptions = {}) {
    this.#loop = loop;
    this.#platform = platform;
    this.#name = options.nodeName ?? 'node';
    this.defaultInterpolation = options.defaultInterpolation ?? 'interpolate';
  }

  /**
   * Mode of nodes tracked without one. Live: setting it switches every such node at once (a
   * mode selector in a settings menu). A bad value throws a `RangeError`.
   */
  get defaultInterpolation(): InterpolationMode {
    return this.#default;
  }
  set defaultInterpolation(value: InterpolationMode) {
    this.#default = checkInterpolationMode(value, 'defaultInterpolation');
    const { nodes, flags } = this.#slots;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      if (nodes[slot] !== undefined && flags[slot] & FOLLOWS_DEFAULT) this.#setMode(slot, value);
    }
  }

  /** Tracked nodes and instances. */
  get size(): number {
    return this.#poses.count;
  }

  /** The pose buffer (read-only use: adapters, tests and benchmarks inspect it). */
  get poses(): PoseBuffer {
    return this.#poses;
  }

  /** True while nodes hold their simulation poses (from the restore to the interpolation pass). */
  get holding(): boolean {
    return this.#holding;
  }

  /** Tracked slots at rest (skipped by the per-frame passes). */
  get restingCount(): number {
    let n = 0;
    const { nodes, flags } = this.#slots;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      if (nodes[slot] !== undefined && flags[slot] & RESTING) n++;
    }
    return n;
  }

  // ---- tracking -------------------------------------------------------------------------------

  /**
   * Tracks `node`: its stored pose now is its simulation pose and what it shows (no streak from
   * the origin). Tracking a tracked node changes its mode. Returns its slot.
   */
  track(node: Node, options: TrackOptions = {}): number {
    const mode = this.#modeOption(options);
    const existing = this.#objects.get(node);
    if (existing !== undefined) {
      this.#setFollows(existing, mode);
      return existing;
    }
    const slot = this.#add(node, -1, mode, 0);
    this.#objects.set(node, slot);
    this.#classify(slot);
    return slot;
  }

  /**
   * Tracks instance `index` of the instanced `mesh` (its matrix in the platform's
   * `instanceMatrices`), decomposed to position, rotation and scale, so each instance keeps its
   * own scale. Returns its slot. The caller checks that `index` exists.
   */
  trackInstance(mesh: Node, index: number, options: InstanceTrackOptions = {}): number {
    const mode = this.#modeOption(options);
    if (options.restore !== undefined && typeof options.restore !== 'boolean') {
      throw optionError('restore', options.restore, 'true or false');
    }
    let entry = this.#meshes.get(mesh);
    const existing = entry?.slots.get(index);
    if (existing !== undefined) {
      this.#setFollows(existing, mode);
      this.#setFlag(existing, RESTORE, options.restore === true);
      return existing;
    }
    const matrices = this.#matrices(mesh);
    const slot = this.#add(mesh, index, mode, options.restore === true ? RESTORE : 0);
    if (entry === undefined) {
      entry = { mesh, slots: new Map(), written: false };
      this.#meshes.set(mesh, entry);
      this.#meshList = [...this.#meshList, entry];
    }
    entry.slots.set(index, slot);
    this.#entryOf[slot] = entry;
    const { heldMatrix, simMatrix } = this.#slots;
    copyMatrix(heldMatrix, slot * M, matrices, index * M);
    copyMatrix(simMatrix, slot * M, matrices, index * M);
    this.#decompose(matrices, index * M, this.#poses.current, slot * S);
    this.#poses.reset(slot);
    return slot;
  }

  /**
   * Stops tracking `node` itself (not its instances), leaving it at its simulation pose (or at a
   * pose written to it since the last frame). Returns false if it was not tracked.
   */
  untrack(node: Node): boolean {
    const slot = this.#objects.get(node);
    if (slot === undefined) return false;
    if (!this.#holding) {
      // a write not adopted yet stays (and reaches the engine); the tracked children keep theirs
      this.#adoptPending(slot, true);
      this.#restore(slot);
    }
    this.#objects.delete(node);
    this.#remove(slot);
    return true;
  }

  /** Stops tracking instance `index` of `mesh`, left at its simulation pose. */
  untrackInstance(mesh: Node, index: number): boolean {
    const entry = this.#meshes.get(mesh);
    const slot = entry?.slots.get(index);
    if (entry === undefined || slot === undefined) return false;
    if (!this.#holding) {
      this.#adoptPending(slot);
      // exactly the matrix captured with the simulation pose
      const { heldMatrix, simMatrix } = this.#slots;
      copyMatrix(this.#matrices(mesh), index * M, simMatrix, slot * M);
      copyMatrix(heldMatrix, slot * M, simMatrix, slot * M);
      this.#platform.instancesUpdated?.(mesh);
    }
    this.#dropInstance(entry, index, slot);
    return true;
  }

  /** Stops tracking every instance of `mesh`; returns how many were tracked. */
  untrackInstances(mesh: Node): number {
    const entry = this.#meshes.get(mesh);
    if (entry === undefined) return 0;
    const indices = [...entry.slots.keys()];
    // adopt every pending write before any slot goes (an engine may push all instances at once)
    for (const slot of entry.slots.values()) this.#adoptPending(slot);
    for (const index of indices) this.untrackInstance(mesh, index);
    return indices.length;
  }

  /**
   * Forgets `node` and its instances without touching it (it is gone, or its body left the
   * engine). Returns how many slots were freed.
   */
  forget(node: Node): number {
    let n = 0;
    const slot = this.#objects.get(node);
    if (slot !== undefined) {
      this.#objects.delete(node);
      this.#remove(slot);
      n++;
    }
    const entry = this.#meshes.get(node);
    if (entry !== undefined) {
      for (const [index, s] of [...entry.slots]) {
        this.#dropInstance(entry, index, s);
        n++;
      }
    }
    return n;
  }

  /** Forgets every node the platform reports dead (`isAlive`); returns how many. */
  forgetDead(): number {
    const isAlive = this.#platform.isAlive;
    if (isAlive === undefined) return 0;
    const dead = new Set<Node>();
    const { nodes } = this.#slots;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      const node = nodes[slot];
      if (node !== undefined && !isAlive.call(this.#platform, node)) dead.add(node);
    }
    for (const node of dead) this.forget(node);
    return dead.size;
  }

  /** Stops tracking everything (the loop is disposed), leaving each node at its simulation pose. */
  detach(): void {
    for (const entry of [...this.#meshList]) this.untrackInstances(entry.mesh);
    for (const node of [...this.#objects.keys()]) this.untrack(node);
  }

  /** True if `node` itself is tracked. */
  isTracked(node: Node): boolean {
    return this.#objects.has(node);
  }

  /** The slot of `node` (`index` -1) or of its instance `index`, or `undefined`. */
  slotOf(node: Node, index = -1): number | undefined {
    return index === -1 ? this.#objects.get(node) : this.#meshes.get(node)?.slots.get(index);
  }

  /** The tracked instance indices of `mesh`, in tracking order. */
  instancesOf(mesh: Node): number[] {
    return [...(this.#meshes.get(mesh)?.slots.keys() ?? [])];
  }

  /** The interpolation mode of `node` (or of its instance `index`), or `undefined`. */
  modeOf(node: Node, index = -1): InterpolationMode | undefined {
    const slot = this.slotOf(node, index);
    return slot === undefined ? undefined : this.#poses.getMode(slot);
  }

  /** Re-asks the platform which nodes are simulated in world space (their parenting changed). */
  refresh(): void {
    for (let slot = 0; slot < this.#poses.size; slot++) {
      if (this.#slots.nodes[slot] !== undefined && this.#slots.index[slot] < 0) {
        this.#classify(slot);
      }
    }
  }

  // ---- teleports and simulation poses -------------------------------------------------------

  /**
   * Teleport (Godot `reset_physics_interpolation`) of `node` (tracked or not) and of every
   * tracked node and instance below it; with `index`, of that one instance. Previous = current,
   * so the next frame draws the current pose with no streak. A pose written since the last frame
   * is adopted first. Inside the step it takes effect when the step ends. Returns how many slots
   * it reset.
   */
  reset(node: Node, index?: number): number {
    let n: number;
    if (index === undefined) {
      n = this.#collect(node);
    } else {
      const slot = this.#meshes.get(node)?.slots.get(index);
      if (slot === undefined) return 0;
      this.#list[0] = slot;
      n = 1;
    }
    this.#resetList(n);
    return n;
  }

  /** {@link Tracker.reset} of every tracked slot (`loop.resetInterpolation()`). */
  resetInterpolation(): void {
    const size = this.#poses.size;
    const { nodes, flags } = this.#slots;
    if (this.#holding) {
      for (let slot = 0; slot < size; slot++) if (nodes[slot]) flags[slot] |= RESET_AFTER_STEP;
      return;
    }
    for (let slot = 0; slot < size; slot++) if (nodes[slot]) this.#adoptPending(slot);
    this.#poses.resetAll();
    for (let slot = 0; slot < size; slot++) if (nodes[slot]) this.#showOutput(slot);
    this.#upload();
  }

  /**
   * Moves tracked `node` to `position` and, if given, `rotation` — in the space it stores, like
   * writing its pose — and resets its interpolation (and its tracked descendants'), so this very
   * frame draws it there with no streak; the engine's body is moved too. Inside the step the
   * node moves at once and its interpolation restarts when the step ends.
   */
  teleport(node: Node, position: Vector3Like, rotation?: QuaternionLike): void {
    const slot = this.#objects.get(node);
    if (slot === undefined) throw optionError(this.#name, node, 'a tracked object');
    const mask = this.#checkTeleport(position, rotation);
    const s = this.#scratch;
    const r = slot * S;
    const world = (this.#slots.flags[slot] & WORLD) !== 0;
    if (this.#holding) {
      this.#platform.read(node, slot, s, 0);
    } else {
      this.#adoptPending(slot);
      copyComponents(s, 0, world ? this.#slots.simLocal : this.#poses.current, r, ALL_COMPONENTS);
    }
    this.#setTeleported(s, 0, position, rotation);
    this.#adoptRow(slot, s, mask);
    // inside the step the node is the simulation: it moves now
    if (this.#holding) this.#showStored(slot, s, 0);
    const n = this.#collect(node);
    this.#resetList(n);
    // the node shows its new simulation pose now (inside the step: it holds it)
    if (mask & ROTATION) this.#platform.captured?.(node, slot);
    this.#platform.adopted?.(node, slot, this.#poses.current, r, mask, -1);
  }

  /**
   * {@link Tracker.teleport} for instance `index` of `mesh`: position and, if given, rotation
   * in the mesh's space; the instance keeps its scale.
   */
  teleportInstance(
    mesh: Node,
    index: number,
    position: Vector3Like,
    rotation?: QuaternionLike,
  ): void {
    const slot = this.#meshes.get(mesh)?.slots.get(index);
    if (slot === undefined) throw optionError('index', index, 'a tracked instance index');
    const mask = this.#checkTeleport(position, rotation);
    this.#adoptPending(slot);
    const c = this.#poses.current;
    const r = slot * S;
    this.#setTeleported(c, r, position, rotation);
    const { simMatrix, heldMatrix } = this.#slots;
    composeMatrix(simMatrix, slot * M, c, r);
    if (this.#holding) {
      // inside the step the instance moves at once (code reading its matrix sees it there)
      copyMatrix(this.#matrices(mesh), index * M, simMatrix, slot * M);
      copyMatrix(heldMatrix, slot * M, simMatrix, slot * M);
      (this.#entryOf[slot] as MeshEntry<Node>).written = true;
    }
    this.#list[0] = slot;
    this.#resetList(1);
    this.#platform.adopted?.(mesh, slot, c, r, mask, index);
  }

  /**
   * The simulation pose of tracked `node` (or of its instance `index`), into `target` if given.
   * Outside the fixed step this is what the simulation holds, not what is drawn; inside it, the
   * pose as the step has moved it so far. Throws a `RangeError` if it is not tracked.
   */
  getSimulationPose(node: Node, index = -1, target?: SimulationPose): SimulationPose {
    const slot = this.slotOf(node, index);
    if (slot === undefined) {
      const instance = index === -1 ? '' : ` with tracked instance ${index}`;
      throw optionError(this.#name, node, `a tracked object${instance}`);
    }
    const out = target ?? identityPose();
    const s = this.#scratch;
    if (this.#holding && index >= 0) {
      const matrices = this.#matrices(node);
      if (!sameMatrix(matrices, index * M, this.#slots.heldMatrix, slot * M)) {
        this.#decompose(matrices, index * M, s, 0);
        return poseFromRow(out, s, 0);
      }
    } else if (this.#holding && this.#platform.capture === undefined) {
      this.#platform.read(node, slot, s, 0);
      if (!(this.#slots.flags[slot] & WORLD)) return poseFromRow(out, s, 0);
      this.#toSimulation(node, s, 0, s, S);
      return poseFromRow(out, s, S);
    } else if (!this.#holding) {
      this.#adoptPending(slot);
    }
    return poseFromRow(out, this.#poses.current, slot * S);
  }

  /**
   * Writes the current render pose of every node simulated in world space again, expressed in
   * its parent's frame as it is now: call it after parents may have moved (before rendering).
   */
  rewriteWorldNodes(): void {
    const { nodes, flags, index } = this.#slots;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      if (nodes[slot] !== undefined && flags[slot] & WORLD && index[slot] < 0) {
        this.#adoptPending(slot);
        this.#show(slot, this.#poses.output);
      }
    }
  }

  // ---- LoopAdapter ------------------------------------------------------------------------

  /** Arms the write check of the frame's first pass over the nodes. */
  beginFrame(): void {
    this.#checkPending = true;
    this.#capturePending = false;
    this.#holding = false;
    this.#stepsRun = 0;
  }

  /** Write check (per component) and restore: every node gets its simulation pose back. */
  beforeSteps(): void {
    const check = this.#checkPending;
    this.#checkPending = false;
    const { nodes, index, flags } = this.#slots;
    const size = this.#poses.size;
    for (let slot = 0; slot < size; slot++) {
      if (nodes[slot] === undefined) continue;
      if (index[slot] >= 0) {
        if (check) this.#checkInstance(slot);
        if (flags[slot] & RESTORE) this.#restoreInstance(slot);
        continue;
      }
      if (check) {
        const mask = this.#written(slot);
        if (mask !== 0) this.#adopt(slot, mask);
      }
      this.#restore(slot);
    }
    this.#holding = true;
    this.#upload();
  }

  /**
   * Capture: the pose the step left becomes the current simulation pose. The frame's last step
   * is captured by the interpolation pass instead (nothing runs in between), fused with it: one
   * visit of each node instead of two.
   */
  afterStep(): void {
    if (++this.#stepsRun >= this.#loop.lastFrame.steps) {
      this.#capturePending = true;
      return;
    }
    this.#captureAll();
  }

  #captureAll(): void {
    const { nodes, index } = this.#slots;
    const size = this.#poses.size;
    for (let slot = 0; slot < size; slot++) {
      if (nodes[slot] === undefined) continue;
      if (index[slot] >= 0) this.#captureInstance(slot);
      else this.#capture(slot);
    }
  }

  /**
   * The capture of the frame's last step (if it ran one), then the render pose of every node
   * that is not at rest, for the loop's alpha.
   */
  interpolate(): void {
    const check = this.#checkPending;
    const capture = this.#capturePending;
    this.#checkPending = false;
    this.#capturePending = false;
    this.#holding = false;
    const poses = this.#poses;
    poses.setClock(this.#loop);
    const { nodes, index, flags } = this.#slots;
    const size = poses.size;
    const output = poses.output;
    for (let slot = 0; slot < size; slot++) {
      if (nodes[slot] === undefined) continue;
      if (capture) {
        if (index[slot] >= 0) this.#captureInstance(slot);
        else this.#capture(slot);
      }
      if (flags[slot] & RESTING) continue;
      if (index[slot] >= 0) {
        this.#interpolateInstance(slot, check);
      } else {
        if (check) {
          const mask = this.#written(slot);
          if (mask !== 0) this.#adopt(slot, mask);
        }
        poses.interpolateSlotAt(slot);
        this.#show(slot, output);
      }
      const f = flags[slot];
      if (f & SETTLED) flags[slot] = (f & ~SETTLED) | RESTING;
    }
    this.#upload();
  }

  // ---- per-slot steps of the passes ----------------------------------------------------------

  /**
   * The components others wrote to the slot's node since the tracker last left it; when there
   * are any, the node's pose is in scratch row 0.
   */
  #written(slot: number): ComponentMask {
    const node = this.#slots.nodes[slot] as Node;
    const platform = this.#platform;
    const s = this.#scratch;
    if (platform.compare !== undefined) {
      const mask = platform.compare(node, slot, this.#slots.held, slot * S);
      if (mask !== 0) platform.read(node, slot, s, 0);
      return mask;
    }
    platform.read(node, slot, s, 0);
    return differingComponents(s, 0, this.#slots.held, slot * S);
  }

  /**
   * Adopts the components `mask` of the node's pose in scratch row 0 (from `#written`); they
   * teleport on its tracked descendants too unless `alone` (the node is leaving the tracker).
   */
  #adopt(slot: number, mask: ComponentMask, alone = false): void {
    const node = this.#slots.nodes[slot] as Node;
    copyComponents(this.#slots.held, slot * S, this.#scratch, 0, mask);
    this.#adoptRow(slot, this.#scratch, mask);
    if (mask & ROTATION) this.#platform.captured?.(node, slot);
    if (!alone) this.#resetDescendants(slot, mask);
    this.#platform.adopted?.(node, slot, this.#poses.current, slot * S, mask, -1);
  }

  /**
   * Makes the components `mask` of the stored pose `from[at..]` the slot's simulation values,
   * with their interpolation reset (previous = current = output).
   */
  #adoptRow(slot: number, from: Float64Array, mask: ComponentMask): void {
    const r = slot * S;
    const poses = this.#poses;
    let source = from;
    let at = 0;
    if (this.#slots.flags[slot] & WORLD) {
      const local = this.#slots.simLocal;
      copyComponents(local, r, from, 0, mask);
      source = this.#scratch;
      at = 2 * S;
      this.#toSimulation(this.#slots.nodes[slot] as Node, local, r, source, at);
    }
    copyComponents(poses.current, r, source, at, mask);
    copyComponents(poses.previous, r, source, at, mask);
    copyComponents(poses.output, r, source, at, mask);
    this.#slots.flags[slot] &= ~(RESTING | SETTLED);
  }

  /**
   * Adopts a write made to the slot's node since a pass last checked it (outside the step); with
   * `alone`, without teleporting its descendants (it is being untracked).
   */
  #adoptPending(slot: number, alone = false): void {
    if (this.#holding) return;
    if (this.#slots.index[slot] >= 0) {
      this.#checkInstance(slot);
      this.#upload();
      return;
    }
    const mask = this.#written(slot);
    if (mask !== 0) this.#adopt(slot, mask, alone);
  }

  /** Puts the node back at its simulation pose (exactly as the step left it). */
  #restore(slot: number): void {
    if (this.#slots.flags[slot] & WORLD)
      this.#showStored(slot, this.#slots.simLocal, slot * S, true);
    else this.#showStored(slot, this.#poses.current, slot * S, true);
  }

  /** Makes the node show row `slot` of `rows` (simulation space). */
  #show(slot: number, rows: Float64Array): void {
    if (this.#slots.flags[slot] & WORLD) {
      const s = this.#scratch;
      this.#toLocal(this.#slots.nodes[slot] as Node, rows, slot * S, s, 0);
      this.#showStored(slot, s, 0);
    } else {
      this.#showStored(slot, rows, slot * S);
    }
  }

  /**
   * Writes the components of the stored pose `from[at..]` the node does not hold yet;
   * `simulation` when it is the simulation pose last captured (see `writeRotation`).
   */
  #showStored(slot: number, from: Float64Array, at: number, simulation = false): void {
    const held = this.#slots.held;
    const r = slot * S;
    const mask = differingComponents(from, at, held, r);
    if (mask === 0) return;
    const node = this.#slots.nodes[slot] as Node;
    const platform = this.#platform;
    if (mask & POSITION) platform.writePosition(node, slot, from, at);
    if (mask & ROTATION) platform.writeRotation(node, slot, from, at, simulation);
    if (mask & SCALE) platform.writeScale(node, slot, from, at);
    copyComponents(held, r, from, at, mask);
  }

  /** The slot's output row, written to its node or instance matrix. */
  #showOutput(slot: number): void {
    if (this.#slots.index[slot] >= 0) this.#showInstanceRow(slot, this.#poses.output);
    else this.#show(slot, this.#poses.output);
  }

  /** Capture of a node after a step: what the step left (in the node, or the engine's body). */
  #capture(slot: number): void {
    const { nodes, flags, held } = this.#slots;
    const node = nodes[slot] as Node;
    const platform = this.#platform;
    const current = this.#poses.current;
    const r = slot * S;
    if (platform.capture !== undefined) {
      const s = this.#scratch;
      const moved =
        platform.capture(node, slot, s, 0) && differingComponents(s, 0, current, r) !== 0;
      this.#settleOrMove(slot, moved, s, 0);
      return;
    }
    // the node holds what the step left: read it straight into the ledger
    platform.read(node, slot, held, r);
    platform.captured?.(node, slot);
    if (flags[slot] & WORLD) {
      const s = this.#scratch;
      copyRow(this.#slots.simLocal, r, held, r);
      this.#toSimulation(node, held, r, s, 0);
      this.#settleOrMove(slot, !sameRow(s, 0, current, r), s, 0);
      return;
    }
    this.#settleOrMove(slot, !sameRow(held, r, current, r), held, r);
  }

  /** After a capture: a moved slot shifts current to previous and takes `from[at..]`. */
  #settleOrMove(slot: number, moved: boolean, from: Float64Array, at: number): void {
    const flags = this.#slots.flags;
    const poses = this.#poses;
    const r = slot * S;
    const f = flags[slot];
    if (moved) {
      copyRow(poses.previous, r, poses.current, r);
      copyRow(poses.current, r, from, at);
      flags[slot] = f & ~(RESTING | SETTLED);
    } else if (!(f & (RESTING | SETTLED))) {
      copyRow(poses.previous, r, poses.current, r);
      flags[slot] = f | SETTLED;
    }
    if (f & EXTRAPOLATE) this.#velocity(slot);
    if (f & RESET_AFTER_STEP) {
      poses.reset(slot);
      flags[slot] &= ~RESET_AFTER_STEP;
    }
  }

  /** The engine's velocity for `'extrapolate'`; a moving body is not at rest. */
  #velocity(slot: number): void {
    const velocity = this.#platform.velocity;
    if (velocity === undefined) return;
    const s = this.#scratch;
    const v = 3 * S;
    const node = this.#slots.nodes[slot] as Node;
    if (!velocity.call(this.#platform, node, this.#slots.index[slot], s, v)) return;
    this.#poses.setVelocityFrom(slot, s, v);
    if (
      s[v] !== 0 ||
      s[v + 1] !== 0 ||
      s[v + 2] !== 0 ||
      s[v + 3] !== 0 ||
      s[v + 4] !== 0 ||
      s[v + 5] !== 0
    ) {
      this.#slots.flags[slot] &= ~(RESTING | SETTLED);
    }
  }

  // ---- instances ---------------------------------------------------------------------------

  #matrices(mesh: Node): Float32Array {
    const matrices = this.#platform.instanceMatrices?.(mesh);
    if (!matrices) throw optionError('mesh', mesh, 'an instanced mesh with instance matrices');
    return matrices;
  }

  #decompose(matrices: Float32Array, offset: number, rows: Float64Array, at: number): void {
    const decompose = this.#platform.decompose;
    if (decompose === undefined)
      throw new Error('fixedtick: this platform cannot decompose instance matrices');
    decompose.call(this.#platform, matrices, offset, rows, at);
  }

  /** Capture of an instance: its matrix changed in the step only if the step wrote it. */
  #captureInstance(slot: number): void {
    const { nodes, index, heldMatrix, simMatrix } = this.#slots;
    const matrices = this.#platform.instanceMatrices?.(nodes[slot] as Node);
    if (!matrices) return;
    const o = index[slot] * M;
    const h = slot * M;
    const s = this.#scratch;
    let moved = false;
    if (!sameMatrix(matrices, o, heldMatrix, h)) {
      this.#decompose(matrices, o, s, 0);
      copyMatrix(heldMatrix, h, matrices, o);
      copyMatrix(simMatrix, h, matrices, o);
      moved = differingComponents(s, 0, this.#poses.current, slot * S) !== 0;
    }
    this.#settleOrMove(slot, moved, s, 0);
  }

  /** Adopts a write to an instance's matrix since the tracker last wrote it, per component. */
  #checkInstance(slot: number): void {
    const { nodes, index, heldMatrix, simMatrix } = this.#slots;
    const mesh = nodes[slot] as Node;
    const matrices = this.#platform.instanceMatrices?.(mesh);
    if (!matrices) return;
    const o = index[slot] * M;
    const h = slot * M;
    if (sameMatrix(matrices, o, heldMatrix, h)) return;
    const s = this.#scratch;
    this.#decompose(matrices, o, s, 0);
    this.#decompose(heldMatrix, h, s, S);
    const mask = changedInstanceComponents(matrices, o, heldMatrix, h, s, 0, s, S);
    copyMatrix(heldMatrix, h, matrices, o);
    if (mask === 0) return;
    this.#adoptRow(slot, s, mask);
    if (mask === ALL_COMPONENTS) copyMatrix(simMatrix, h, matrices, o);
    else composeMatrix(simMatrix, h, this.#poses.current, slot * S);
    this.#platform.adopted?.(mesh, slot, this.#poses.current, slot * S, mask, index[slot]);
  }

  /** Before the steps: an instance tracked with `restore` gets its simulation matrix back. */
  #restoreInstance(slot: number): void {
    const { nodes, index, heldMatrix, simMatrix } = this.#slots;
    const h = slot * M;
    if (sameMatrix(heldMatrix, h, simMatrix, h)) return;
    const matrices = this.#matrices(nodes[slot] as Node);
    copyMatrix(matrices, index[slot] * M, simMatrix, h);
    copyMatrix(heldMatrix, h, simMatrix, h);
    (this.#entryOf[slot] as MeshEntry<Node>).written = true;
  }

  /** Interpolation pass of an instance: check (frames without steps), interpolate, compose. */
  #interpolateInstance(slot: number, check: boolean): void {
    if (check) this.#checkInstance(slot);
    this.#poses.interpolateSlotAt(slot);
    this.#showInstanceRow(slot, this.#poses.output);
  }

  /** Composes row `slot` of `rows` into the instance's matrix (and the ledger). */
  #showInstanceRow(slot: number, rows: Float64Array): void {
    const { nodes, index, heldMatrix } = this.#slots;
    const matrices = this.#platform.instanceMatrices?.(nodes[slot] as Node);
    if (!matrices) return;
    const o = index[slot] * M;
    composeMatrix(matrices, o, rows, slot * S);
    copyMatrix(heldMatrix, slot * M, matrices, o);
    (this.#entryOf[slot] as MeshEntry<Node>).written = true;
  }

  /** Uploads the matrix buffers written since the last upload. */
  #upload(): void {
    const list = this.#meshList;
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      if (!entry.written) continue;
      entry.written = false;
      this.#platform.instancesUpdated?.(entry.mesh);
    }
  }

  // ---- hierarchy and resets ------------------------------------------------------------------

  /**
   * Lists in `#list` every tracked slot whose node (or instanced mesh) is `root` or lies below it,
   * `root`'s own slot first; returns the count.
   */
  #collect(root: Node): number {
    let n = 0;
    const own = this.#objects.get(root);
    if (own !== undefined) this.#list[n++] = own;
    const leaf = this.#platform.hasChildren?.(root) === false;
    const { nodes } = this.#slots;
    const parentOf = this.#platform;
    for (let slot = 0; slot < this.#poses.size; slot++) {
      let node = nodes[slot] ?? null;
      if (slot === own || node === null) continue;
      if (leaf && node !== root) continue;
      while (node !== null && node !== root) node = parentOf.parentOf(node);
      if (node === null) continue;
      if (n === this.#list.length) {
        const next = new Int32Array(n * 2);
        next.set(this.#list);
        this.#list = next;
      }
      this.#list[n++] = slot;
    }
    return n;
  }

  /**
   * Adopts pending writes, resets and shows the first `n` listed slots. Inside the step the reset
   * happens when the step ends (Godot: interpolation is disabled "until the physics tick is
   * complete"), so the frame shows the pose the step ends with, not a blend from before.
   */
  #resetList(n: number): void {
    const list = this.#list;
    const flags = this.#slots.flags;
    if (this.#holding) {
      for (let k = 0; k < n; k++) flags[list[k]] |= RESET_AFTER_STEP;
      return;
    }
    for (let k = 0; k < n; k++) this.#adoptPending(list[k]);
    for (let k = 0; k < n; k++) {
      this.#poses.reset(list[k]);
      flags[list[k]] &= ~RESTING;
      flags[list[k]] |= SETTLED;
    }
    for (let k = 0; k < n; k++) this.#showOutput(list[k]);
    this.#upload();
  }

  /** A write to the components `mask` of `slot` teleports them on its tracked descendants too. */
  #resetDescendants(slot: number, mask: ComponentMask): void {
    const node = this.#slots.nodes[slot] as Node;
    if (this.#platform.hasChildren?.(node) === false && !this.#meshes.has(node)) return;
    const n = this.#collect(node);
    const poses = this.#poses;
    const list = this.#list;
    for (let k = 0; k < n; k++) {
      const d = list[k];
      if (d === slot) continue;
      // a write of its own since the last check stays (adopted, not overwritten)
      this.#adoptPending(d, true);
      const r = d * S;
      copyComponents(poses.previous, r, poses.current, r, mask);
      copyComponents(poses.output, r, poses.current, r, mask);
      if (!this.#holding) this.#showOutput(d);
    }
  }

  // ---- slots -------------------------------------------------------------------------------

  #modeOption(options: TrackOptions): InterpolationMode | undefined {
    if (options === null || typeof options !== 'object') {
      throw optionError('options', options, 'an object');
    }
    return options.interpolation === undefined
      ? undefined
      : checkInterpolationMode(options.interpolation, 'interpolation');
  }

  /** A new slot for `node` (instance `index`), its stored pose read as its simulation pose. */
  #add(node: Node, index: number, mode: InterpolationMode | undefined, flags: number): number {
    const poses = this.#poses;
    const slot = poses.add(mode ?? this.#default);
    this.#slots.fit(poses);
    this.#slots.claim(slot, node, index, flags | (mode === undefined ? FOLLOWS_DEFAULT : 0));
    this.#setMode(slot, mode ?? this.#default);
    if (index < 0) {
      this.#platform.read(node, slot, this.#slots.held, slot * S);
      copyComponents(poses.current, slot * S, this.#slots.held, slot * S, ALL_COMPONENTS);
      this.#platform.captured?.(node, slot);
      poses.reset(slot);
    }
    return slot;
  }

  /** Decides whether the node is simulated in world space, and reads its pose in that space. */
  #classify(slot: number): void {
    const { nodes, flags, held, simLocal } = this.#slots;
    const node = nodes[slot] as Node;
    const world = this.#platform.simulatedInWorld?.(node) === true;
    if (world === ((flags[slot] & WORLD) !== 0)) return;
    this.#adoptPending(slot);
    const r = slot * S;
    if (world) {
      flags[slot] |= WORLD;
      copyComponents(simLocal, r, held, r, ALL_COMPONENTS);
      this.#toSimulation(node, held, r, this.#poses.current, r);
    } else {
      flags[slot] &= ~WORLD;
      copyComponents(this.#poses.current, r, held, r, ALL_COMPONENTS);
    }
    this.#poses.reset(slot);
    flags[slot] &= ~RESTING;
  }

  #remove(slot: number): void {
    this.#poses.remove(slot);
    this.#slots.release(slot);
    this.#entryOf[slot] = undefined;
  }

  #dropInstance(entry: MeshEntry<Node>, index: number, slot: number): void {
    entry.slots.delete(index);
    this.#remove(slot);
    if (entry.slots.size === 0) {
      this.#meshes.delete(entry.mesh);
      this.#meshList = this.#meshList.filter((e) => e !== entry);
    }
  }

  #setMode(slot: number, mode: InterpolationMode): void {
    this.#poses.setMode(slot, mode);
    this.#setFlag(slot, EXTRAPOLATE, mode === 'extrapolate');
    this.#slots.flags[slot] &= ~RESTING;
  }

  /** A tracked slot's mode: `mode`, or the default (following it) when `undefined`. */
  #setFollows(slot: number, mode: InterpolationMode | undefined): void {
    this.#setFlag(slot, FOLLOWS_DEFAULT, mode === undefined);
    this.#setMode(slot, mode ?? this.#default);
  }

  #setFlag(slot: number, flag: number, on: boolean): void {
    const flags = this.#slots.flags;
    flags[slot] = on ? flags[slot] | flag : flags[slot] & ~flag;
  }

  #checkTeleport(position: Vector3Like, rotation: QuaternionLike | undefined): ComponentMask {
    if (!isFiniteVector(position, false)) {
      throw optionError('position', position, 'an { x, y, z } of finite numbers');
    }
    if (rotation !== undefined && !isFiniteVector(rotation, true)) {
      throw optionError('rotation', rotation, 'an { x, y, z, w } of finite numbers');
    }
    return rotation === undefined ? POSITION : POSITION | ROTATION;
  }

  #setTeleported(
    rows: Float64Array,
    r: number,
    position: Vector3Like,
    rotation: QuaternionLike | undefined,
  ): void {
    rows[r] = position.x;
    rows[r + 1] = position.y;
    rows[r + 2] = position.z;
    if (rotation === undefined) return;
    rows[r + 3] = rotation.x;
    rows[r + 4] = rotation.y;
    rows[r + 5] = rotation.z;
    rows[r + 6] = rotation.w;
  }

  #toSimulation(node: Node, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    const convert = this.#platform.toSimulation;
    if (convert === undefined) copyComponents(to, toAt, from, at, ALL_COMPONENTS);
    else convert.call(this.#platform, node, from, at, to, toAt);
  }

  #toLocal(node: Node, from: Float64Array, at: number, to: Float64Array, toAt: number): void {
    const convert = this.#platform.toLocal;
    if (convert === undefined) copyComponents(to, toAt, from, at, ALL_COMPONENTS);
    else convert.call(this.#platform, node, from, at, to, toAt);
  }
}
