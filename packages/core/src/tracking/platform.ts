/**
 * What an engine supplies to the core {@link Tracker} (floating-ui's `Platform`): one required
 * group — how to read and write a node's pose and find its parent — and optional groups an engine
 * fills when it has them: faster write checks, physics bodies, instances. The tracker runs all the
 * logic (slots, the write ledger, per-component teleports, hierarchy, capture, modes); a platform
 * only says where the engine keeps things. The adapters' platforms (three, Babylon, Rapier) are
 * worked examples, and their docs say what is particular to each engine.
 *
 * Rows: every pose goes through packed `Float64Array` rows of the pose-row layout (position
 * `x y z` at 0, rotation quaternion `x y z w` at 3, scale `x y z` at 7), never through objects; a
 * member gets the array and the offset of its row. Numbers read from a node must be exactly the
 * numbers it stores: the tracker detects writes by comparing them with what it last left there.
 *
 * `slot` is the node's small-integer slot in the tracker, for platforms that keep per-node data
 * of their own in arrays.
 */
import type { ComponentMask } from './components.ts';

/** Required: a node's stored pose and its parent. */
export interface NodePlatform<Node extends object> {
  /** Reads the pose `node` stores — local position, rotation quaternion, scale — into `rows[at..at+9]`. */
  read(node: Node, slot: number, rows: Float64Array, at: number): void;
  /** Writes the position `rows[at..at+2]` to `node`. */
  writePosition(node: Node, slot: number, rows: Float64Array, at: number): void;
  /**
   * Writes the rotation quaternion `rows[at+3..at+6]` to `node`. `simulation` is true when it is
   * the node's simulation rotation as last `captured` (the restore before the steps): put back
   * whatever was kept with it.
   */
  writeRotation(
    node: Node,
    slot: number,
    rows: Float64Array,
    at: number,
    simulation: boolean,
  ): void;
  /** Writes the scale `rows[at+7..at+9]` to `node`. */
  writeScale(node: Node, slot: number, rows: Float64Array, at: number): void;
  /** The node's parent in the scene graph, or `null`: tracked descendants reset with it. */
  parentOf(node: Node): Node | null;
}

/** Optional: faster write checks and node bookkeeping. */
export interface NodeFastPaths<Node extends object> {
  /**
   * Which components of the pose `node` stores differ from `rows[at..at+9]` (NaN equal to NaN:
   * `differs` in components.ts): the write check, done in place instead of reading the node into
   * a row. `thorough` is false only for the check of a frame without steps, right before the
   * tracker writes the node: a platform may then skip what it checks before the steps anyway,
   * since a miss there only delays a write's adoption to the next frame that steps. May add
   * `REPARENTED` when the node's parent changed (see {@link PhysicsPlatform.simulatedInWorld}).
   */
  compare?(
    node: Node,
    slot: number,
    rows: Float64Array,
    at: number,
    thorough: boolean,
  ): ComponentMask;
  /** Whether `node` may have children at all; `false` lets a reset skip the search below it. */
  hasChildren?(node: Node): boolean;
  /**
   * False once the node is gone (disposed). The tracker forgets dead nodes when the adapter asks
   * (`Tracker.forgetDead`), not every frame.
   */
  isAlive?(node: Node): boolean;
  /**
   * The pose `node` holds became its simulation pose (after a step, an adopted write, a
   * teleport): keep whatever writing its rotation back exactly needs, for `writeRotation` with
   * `simulation`.
   */
  captured?(node: Node, slot: number): void;
}

/** Optional: an engine whose bodies hold the simulation pose (a physics engine). */
export interface PhysicsPlatform<Node extends object> {
  /**
   * True if `node` is simulated in another space than the one it stores (a body under a parent,
   * simulated in world space): it is interpolated in that space and converted with `toSimulation`
   * / `toLocal`. Asked when the node is tracked, when the tracker re-sorts (`Tracker.refresh`)
   * and when `compare` reports `REPARENTED`.
   */
  simulatedInWorld?(node: Node): boolean;
  /** A stored (local) pose `from[at..]` of `node` in its simulation space, into `to[toAt..]`. */
  toSimulation?(node: Node, from: Float64Array, at: number, to: Float64Array, toAt: number): void;
  /** A simulation-space pose `from[at..]` of `node` as it would be stored, into `to[toAt..]`. */
  toLocal?(node: Node, from: Float64Array, at: number, to: Float64Array, toAt: number): void;
  /**
   * `false` when nothing reads a node's pose inside the fixed step (the engine holds the
   * simulation, `capture`): the tracker then skips the restore before the steps. Default `true`.
   */
  readonly restoresNodes?: boolean;
  /**
   * The engine's bulk read: writes the pose the engine gave `node` in the step just run into
   * `rows[at..]` (simulation space) and returns true, or returns false when it is unchanged for
   * sure (a sleeping body). Without it the tracker reads the node after each step.
   */
  capture?(node: Node, slot: number, rows: Float64Array, at: number): boolean;
  /**
   * After a step, for a node at rest: true when the engine left it as it was for sure, told
   * without touching the node; false when it may have changed or cannot tell.
   */
  untouchedByStep?(node: Node, slot: number): boolean;
  /**
   * After a step: reads what the step left in `node`, as `read` does, except that it may leave
   * out what the engine's step never changes (a write of those inside the step is then adopted by
   * the next write check). Without it the tracker calls `read`.
   */
  readStepped?(node: Node, slot: number, rows: Float64Array, at: number): void;
  /**
   * The engine's velocity of `node` for `'extrapolate'` — of its instance `index`, else `index`
   * is -1: linear `x y z` then angular `x y z` (rad/s) into `out[at..at+5]`; false if it has none
   * (the tracker then estimates it from the last two poses).
   */
  velocity?(node: Node, index: number, out: Float64Array, at: number): boolean;
  /**
   * A write to `node`'s components `mask` was adopted as its simulation pose, now `rows[at..]`
   * (simulation space), or a teleport put it there: move the engine's body to it. `index` is the
   * instance index for an instance, else -1. Leave the node and its matrices as you found them.
   */
  adopted?(
    node: Node,
    slot: number,
    rows: Float64Array,
    at: number,
    mask: ComponentMask,
    index: number,
  ): void;
}

/** Optional: instanced meshes, whose instances are tracked by index. */
export interface InstancePlatform<Node extends object> {
  /**
   * The instance matrices of an instanced mesh: 16 numbers per instance, the TRS layout of
   * `composeMatrix` (instance-matrix.ts), or `null`. Needed to track instances.
   */
  instanceMatrices?(mesh: Node): Float32Array | null;
  /** Decomposes the matrix at `matrices[offset..offset+15]` with the engine's own math into `rows[at..]`. */
  decompose?(matrices: Float32Array, offset: number, rows: Float64Array, at: number): void;
  /** The instance matrices of `mesh` were rewritten: upload them. */
  instancesUpdated?(mesh: Node): void;
  /**
   * A number that changes whenever `mesh`'s instance matrices are flagged for upload, by anyone.
   * With it, instances moved with `setInstancePose` are checked for writes made outside the step
   * only in a frame in which someone other than the tracker flagged the matrices.
   */
  instancesVersion?(mesh: Node): number;
}

/**
 * The engine side of the core {@link Tracker}: the required {@link NodePlatform} and the optional
 * groups; see the module doc.
 */
export interface TrackingPlatform<Node extends object>
  extends NodePlatform<Node>,
    NodeFastPaths<Node>,
    PhysicsPlatform<Node>,
    InstancePlatform<Node> {}
