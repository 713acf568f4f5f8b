/**
 * The one tracker every adapter runs: keeps tracked nodes at their simulation pose inside the
 * fixed step and at their interpolated pose everywhere else, over an engine's
 * {@link TrackingPlatform}. Its passes (write check and restore before the steps, capture after
 * each, interpolation and writes), the slot states and the hot-path rules are described in this
 * folder's README.md. The per-frame and per-step passes allocate nothing.
 */
import type { FrameContext } from '../frame-context.ts';
import type { InterpolationMode } from '../interpolation/pose-layout.ts';
import type { LoopAdapter } from '../loop-adapter.ts';
import { checkInterpolationMode, optionError } from '../options.ts';
import { adoptPending, redrawWorldNodes } from './adopt-writes.ts';
import { afterStep, beforeSteps, beginFrame, interpolate } from './frame-passes.ts';
import { collect, noteTrackedBelow, resetList } from './hierarchy.ts';
import { setInstancePose, untrackInstance } from './instance-poses.ts';
import { restore } from './node-drawing.ts';
import type { TrackingPlatform } from './platform.ts';
import { PoseStream, type PoseStreamOptions } from './pose-stream.ts';
import { identityPose, type SimulationPose } from './simulation-pose.ts';
import {
  addInstance,
  addSlot,
  classify,
  forgetNode,
  removeSlot,
  setFlag,
  setFollows,
  setMode,
} from './slot-lifecycle.ts';
import { AT_REST, FOLLOWS_DEFAULT, HAS_TRACKED_BELOW, RESTORES_MATRIX } from './slot-states.ts';
import { resetEverySlot, simulationPose, teleportInstance, teleportNode } from './teleports.ts';
import {
  type InstanceTrackOptions,
  modeOption,
  type QuaternionLike,
  type TrackerOptions,
  type TrackOptions,
  type Vector3Like,
} from './track-options.ts';
import { TrackerState } from './tracker-state.ts';

/**
 * Tracks the nodes of one engine for one loop (add it with `loop.addAdapter`); see the module
 * doc.
 */
export class Tracker<Node extends object> implements LoopAdapter {
  readonly #state: TrackerState<Node>;
  /** What the adapter calls a node, in error messages (`object3d`, `node`). */
  readonly #name: string;

  /**
   * @param platform what the engine supplies.
   * @param options see {@link TrackerOptions}.
   */
  constructor(platform: TrackingPlatform<Node>, options: TrackerOptions = {}) {
    this.#state = new TrackerState(platform);
    this.#name = options.nodeName ?? 'node';
    this.defaultInterpolation = options.defaultInterpolation ?? 'interpolate';
  }

  /**
   * Mode of nodes tracked without one. Live: setting it switches every such node at once (a
   * mode selector in a settings menu). A bad value throws a `RangeError`.
   */
  get defaultInterpolation(): InterpolationMode {
    return this.#state.defaultMode;
  }
  set defaultInterpolation(value: InterpolationMode) {
    this.#state.defaultMode = checkInterpolationMode(value, 'defaultInterpolation');
    const { nodes, flags } = this.#state.slots;
    for (let slot = 0; slot < this.#state.poses.size; slot++) {
      if (nodes[slot] !== undefined && flags[slot] & FOLLOWS_DEFAULT)
        setMode(this.#state, slot, value);
    }
  }

  /** Tracked nodes and instances. */
  get size(): number {
    return this.#state.poses.count;
  }

  /** The pose buffer (read-only use: adapters, tests and benchmarks inspect it). */
  get poses(): TrackerState<Node>['poses'] {
    return this.#state.poses;
  }

  /** True while nodes hold their simulation poses (from the restore to the interpolation pass). */
  get holding(): boolean {
    return this.#state.holding;
  }

  /**
   * Poses a step left with a number that is not finite (NaN, ±Infinity) and the tracker refused:
   * the components holding one kept their pose from before the step (docs/guarantees.md,
   * "Non-finite poses").
   */
  get refusedPoses(): number {
    return this.#state.refused;
  }

  /** Tracked slots at rest (skipped by the per-frame passes). */
  get restingCount(): number {
    let n = 0;
    const { nodes, flags } = this.#state.slots;
    for (let slot = 0; slot < this.#state.poses.size; slot++) {
      if (nodes[slot] !== undefined && flags[slot] & AT_REST) n++;
    }
    return n;
  }

  // ---- tracking -------------------------------------------------------------------------------

  /**
   * Tracks `node`: its stored pose now is its simulation pose and what it shows (no streak from
   * the origin). Tracking a tracked node changes its mode. Returns its slot.
   */
  track(node: Node, options: TrackOptions = {}): number {
    const mode = modeOption(options);
    const existing = this.#state.objects.get(node);
    if (existing !== undefined) {
      setFollows(this.#state, existing, mode);
      return existing;
    }
    const state = this.#state;
    const slot = addSlot(state, node, -1, mode, 0);
    state.objects.set(node, slot);
    classify(state, slot);
    noteTrackedBelow(state, node, false);
    if (state.above.has(node) || state.meshes.has(node))
      state.slots.flags[slot] |= HAS_TRACKED_BELOW;
    return slot;
  }

  /**
   * Tracks instance `index` of the instanced `mesh` (its matrix in the platform's
   * `instanceMatrices`), decomposed to position, rotation and scale, so each instance keeps its
   * own scale. Returns its slot. The caller checks that `index` exists.
   */
  trackInstance(mesh: Node, index: number, options: InstanceTrackOptions = {}): number {
    const mode = modeOption(options);
    if (options.restore !== undefined && typeof options.restore !== 'boolean') {
      throw optionError('restore', options.restore, 'true or false');
    }
    const existing = this.#state.meshes.get(mesh)?.slots.get(index);
    if (existing !== undefined) {
      setFollows(this.#state, existing, mode);
      setFlag(this.#state, existing, RESTORES_MATRIX, options.restore === true);
      return existing;
    }
    return addInstance(
      this.#state,
      mesh,
      index,
      mode,
      options.restore === true ? RESTORES_MATRIX : 0,
    );
  }

  /**
   * Stops tracking `node` itself (not its instances), leaving it at its simulation pose (or at a
   * pose written to it since the last frame). Returns false if it was not tracked.
   */
  untrack(node: Node): boolean {
    const slot = this.#state.objects.get(node);
    if (slot === undefined) return false;
    if (!this.#state.holding) {
      // a write not adopted yet stays (and reaches the engine); the tracked children keep theirs
      adoptPending(this.#state, slot, true);
      restore(this.#state, slot);
    }
    this.#state.objects.delete(node);
    removeSlot(this.#state, slot);
    return true;
  }

  /** Stops tracking instance `index` of `mesh`, left at its simulation pose. */
  untrackInstance(mesh: Node, index: number): boolean {
    return untrackInstance(this.#state, mesh, index);
  }

  /** Stops tracking every instance of `mesh`; returns how many were tracked. */
  untrackInstances(mesh: Node): number {
    const entry = this.#state.meshes.get(mesh);
    if (entry === undefined) return 0;
    const indices = [...entry.slots.keys()];
    // adopt every pending write before any slot goes (an engine may push all instances at once)
    for (const slot of entry.slots.values()) adoptPending(this.#state, slot);
    for (const index of indices) this.untrackInstance(mesh, index);
    return indices.length;
  }

  /**
   * Forgets `node` and its instances without touching it (it is gone, or its body left the
   * engine). Returns how many slots were freed.
   */
  forget(node: Node): number {
    return forgetNode(this.#state, node);
  }

  /** Forgets every node the platform reports dead (`isAlive`); returns how many. */
  forgetDead(): number {
    const isAlive = this.#state.platform.isAlive;
    if (isAlive === undefined) return 0;
    const dead = new Set<Node>();
    const { nodes } = this.#state.slots;
    for (let slot = 0; slot < this.#state.poses.size; slot++) {
      const node = nodes[slot];
      if (node !== undefined && !isAlive.call(this.#state.platform, node)) dead.add(node);
    }
    for (const node of dead) this.forget(node);
    return dead.size;
  }

  /** Stops tracking everything (the loop is disposed), leaving each node at its simulation pose. */
  detach(): void {
    for (const entry of [...this.#state.meshList]) this.untrackInstances(entry.mesh);
    for (const node of [...this.#state.objects.keys()]) this.untrack(node);
  }

  /** True if `node` itself is tracked. */
  isTracked(node: Node): boolean {
    return this.#state.objects.has(node);
  }

  /** The slot of `node` (`index` -1) or of its instance `index`, or `undefined`. */
  slotOf(node: Node, index = -1): number | undefined {
    return index === -1
      ? this.#state.objects.get(node)
      : this.#state.meshes.get(node)?.slots.get(index);
  }

  /** The tracked instance indices of `mesh`, in tracking order. */
  instancesOf(mesh: Node): number[] {
    return [...(this.#state.meshes.get(mesh)?.slots.keys() ?? [])];
  }

  /** The interpolation mode of `node` (or of its instance `index`), or `undefined`. */
  modeOf(node: Node, index = -1): InterpolationMode | undefined {
    const slot = this.slotOf(node, index);
    return slot === undefined ? undefined : this.#state.poses.getMode(slot);
  }

  /** Re-asks the platform which nodes are simulated in world space (their parenting changed). */
  refresh(): void {
    for (let slot = 0; slot < this.#state.poses.size; slot++) {
      if (this.#state.slots.nodes[slot] !== undefined && this.#state.slots.index[slot] < 0) {
        classify(this.#state, slot);
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
      n = collect(this.#state, node);
    } else {
      const slot = this.#state.meshes.get(node)?.slots.get(index);
      if (slot === undefined) return 0;
      this.#state.list[0] = slot;
      n = 1;
    }
    resetList(this.#state, n);
    return n;
  }

  /** {@link Tracker.reset} of every tracked slot (`loop.resetInterpolation()`). */
  resetInterpolation(): void {
    resetEverySlot(this.#state);
  }

  /**
   * Moves tracked `node` to `position` and, if given, `rotation` — in the space it stores, like
   * writing its pose — and resets its interpolation (and its tracked descendants'), so this very
   * frame draws it there with no streak; the engine's body is moved too. Inside the step the
   * node moves at once and its interpolation restarts when the step ends.
   */
  teleport(node: Node, position: Vector3Like, rotation?: QuaternionLike): void {
    const slot = this.#state.objects.get(node);
    if (slot === undefined) throw optionError(this.#name, node, 'a tracked object');
    teleportNode(this.#state, node, slot, position, rotation);
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
    const slot = this.#state.meshes.get(mesh)?.slots.get(index);
    if (slot === undefined) throw optionError('index', index, 'a tracked instance index');
    teleportInstance(this.#state, mesh, index, slot, position, rotation);
  }

  /**
   * Gives instance `index` of `mesh` its pose: inside `fixedUpdate`, the pose the step leaves it
   * at (the fast way to move instances: no matrix is written and none read back — the
   * interpolated matrices are composed from the poses once per frame); outside the step, a
   * teleport. Omitted parts keep their simulation values.
   */
  setInstancePose(
    mesh: Node,
    index: number,
    position?: Vector3Like,
    rotation?: QuaternionLike,
    scale?: Vector3Like,
  ): void {
    setInstancePose(this.#state, mesh, index, position, rotation, scale);
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
    return simulationPose(this.#state, node, index, slot, target ?? identityPose());
  }

  /**
   * An external stream source (pose-stream.ts): poses pushed tick-stamped from elsewhere — a
   * worker's shared buffer, a server's snapshots — drawn into the nodes and instances it binds,
   * at the loop's alpha or at a render delay of its own (docs/tracking.md, "External streams").
   * Throws a `RangeError` for a bad option.
   */
  stream(options: PoseStreamOptions = {}): PoseStream<Node> {
    const state = this.#state;
    const stream = new PoseStream(
      state,
      (node, index) => (index < 0 ? this.track(node) : this.#instanceSlot(node, index)),
      options,
    );
    state.streams = [...state.streams, stream];
    return stream;
  }

  /** The slot of tracked instance `index` of `mesh`; a `RangeError` if it is not tracked. */
  #instanceSlot(mesh: Node, index: number): number {
    const slot = this.slotOf(mesh, index);
    if (slot === undefined) throw optionError('index', index, 'a tracked instance index');
    return slot;
  }

  /**
   * Writes the current render pose of every node simulated in world space again, expressed in
   * its parent's frame as it is now: call it after parents may have moved (before rendering).
   */
  rewriteWorldNodes(): void {
    redrawWorldNodes(this.#state);
  }

  // ---- LoopAdapter (frame-passes.ts) -------------------------------------------------

  /** Arms the write check of the frame's first pass over the nodes. */
  beginFrame(): void {
    beginFrame(this.#state);
  }

  /**
   * Write check (per component) and restore: every node gets its simulation pose back (unless
   * the platform's `restoresNodes` is false).
   */
  beforeSteps(): void {
    beforeSteps(this.#state);
  }

  /** Capture of what the step left (the frame's last step: in the interpolation pass). */
  afterStep(_fixedDelta: number, frame: FrameContext): void {
    afterStep(this.#state, frame.lastStep);
  }

  /** The render pose of every node that is not at rest, for the frame's alpha. */
  interpolate(frame: FrameContext): void {
    interpolate(this.#state, frame);
  }
}
