/**
 * What an engine supplies to the core {@link Tracker} (floating-ui's `Platform` idea): how to
 * read and write a node's pose, its parent, whether it is alive, its instances, and — for a
 * physics engine — its bodies' poses and velocities. The tracker runs all the logic (slot
 * registry, write ledger, per-component teleports, hierarchy, restore/capture/interpolate,
 * modes); an adapter only fills this in, one small method each.
 *
 * Rows: every pose goes through packed `Float64Array` rows of the pose-buffer layout (position
 * `x y z` at offset 0, rotation quaternion `x y z w` at 3, scale `x y z` at 7), never through
 * objects, so nothing is allocated per frame; a method gets the array and the offset of its row.
 * Numbers read from a node must be exactly the numbers it stores: the tracker detects writes by
 * comparing them with what it last left there (`===`).
 *
 * `slot` is the node's small-integer slot in the tracker, for platforms that keep per-node data
 * of their own in arrays (three.js: the Euler angles captured with a pose; Babylon.js: the
 * node's vector objects).
 */
import type { ComponentMask } from './components.ts';

/** The engine side of the core {@link Tracker}; see the module doc. */
export interface TrackingPlatform<Node extends object> {
  /**
   * Reads the pose `node` stores — local position, rotation quaternion, scale, exactly as stored
   * — into `rows[at..at+9]`.
   */
  read(node: Node, slot: number, rows: Float64Array, at: number): void;
  /**
   * Which components of the pose `node` stores differ (`!==`) from `rows[at..at+9]`: the write
   * check. Optional — without it the tracker reads the node and compares — but a platform that
   * compares in place saves storing ten numbers per node. `thorough` is false only for the check of
   * a frame without steps, right before the tracker writes the node: a platform may then skip what
   * it checks before the steps anyway (Babylon: whether a vector object was replaced), since a
   * miss there only delays a write's adoption to the next frame that steps.
   */
  compare?(
    node: Node,
    slot: number,
    rows: Float64Array,
    at: number,
    thorough: boolean,
  ): ComponentMask;
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
  /**
   * False once the node is gone (disposed). The tracker forgets dead nodes when the adapter asks
   * (`Tracker.forgetDead`), not every frame: the adapter knows when something may have died.
   */
  isAlive?(node: Node): boolean;
  /**
   * Whether `node` may have children at all; `false` lets a reset skip the search for tracked
   * descendants.
   */
  hasChildren?(node: Node): boolean;
  /**
   * The pose `node` holds became its simulation pose (after a step, an adopted write, a
   * teleport): keep whatever writing its rotation back exactly needs, for `writeRotation` with
   * `simulation` (three.js keeps the Euler angles the step left, so `rotation.y += w * dt` stays
   * exact past ±90°).
   */
  captured?(node: Node, slot: number): void;

  /**
   * True if `node` is simulated in another space than the one it stores (a physics body under a
   * parent: the engine simulates it in world space). Such a node is interpolated in that space
   * and converted with {@link TrackingPlatform.toSimulation} / {@link TrackingPlatform.toLocal}.
   * Asked when the node is tracked and when the tracker re-sorts (`Tracker.refresh`).
   */
  simulatedInWorld?(node: Node): boolean;
  /** A stored (local) pose `from[at..]` of `node` in its simulation space, into `to[toAt..]`. */
  toSimulation?(node: Node, from: Float64Array, at: number, to: Float64Array, toAt: number): void;
  /** A simulation-space pose `from[at..]` of `node` as it would be stored, into `to[toAt..]`. */
  toLocal?(node: Node, from: Float64Array, at: number, to: Float64Array, toAt: number): void;

  /**
   * `false` when nothing reads a node's pose inside the fixed step — a physics engine that holds
   * the simulation pose itself (`capture`), whose nodes are only pictures of its bodies: the
   * tracker then skips the restore before the steps (no write per node per frame that steps),
   * and inside the step nodes keep the pose they were drawn at. Default `true`: every node gets
   * its simulation pose back before the steps.
   */
  readonly restoresNodes?: boolean;

  /**
   * A physics engine that holds the simulation pose itself (its nodes are only views): writes
   * the pose the engine gave `node` in the step just run into `rows[at..]` (simulation space) and
   * returns true, or returns false when it is unchanged for sure (a sleeping body) — the tracker
   * then skips it. Without this member the tracker reads the node after each step.
   */
  capture?(node: Node, slot: number, rows: Float64Array, at: number): boolean;
  /**
   * After a step, for a node at rest: true when the engine left it as it was for sure, told
   * without touching the node (Babylon.js: its Havok body's transform, bit for bit the one of the
   * step before, in Havok's body buffer); false when it may have changed or cannot tell. The
   * tracker then skips the node, else compares it as without this member. A write made to the
   * node inside the step that the engine did not overwrite is then adopted by the next write
   * check, as one made outside the step.
   */
  untouchedByStep?(node: Node, slot: number): boolean;
  /**
   * After a step: reads what the step left in `node` into `rows[at..]`, as `read` does, except
   * that it may leave out what the engine's step never changes (Babylon.js: the scale of a body
   * Havok syncs, and vector objects replaced on the node, which only code can do): a write of
   * those made inside the step is adopted by the next write check instead, as one made outside
   * it. Without it the tracker calls `read`.
   */
  readStepped?(node: Node, slot: number, rows: Float64Array, at: number): void;
  /**
   * The engine's velocity of `node` for `'extrapolate'` — of its instance `index` for an
   * instance, else `index` is -1 (unlike the other members, this one gets no slot): linear
   * `x y z` then angular `x y z` (rad/s) into `out[at..at+5]`; false if it has none (the tracker
   * then estimates it from the last two poses).
   */
  velocity?(node: Node, index: number, out: Float64Array, at: number): boolean;
  /**
   * A write to `node`'s components `mask` was adopted as its simulation pose, now
   * `rows[at..]` (simulation space), or `teleport` put it there: move the engine's body to it.
   * `index` is the instance index for an instance of `node` (an instanced mesh), else -1. Leave
   * the node (and its instance matrices) as you found them: the tracker knows what they hold.
   */
  adopted?(
    node: Node,
    slot: number,
    rows: Float64Array,
    at: number,
    mask: ComponentMask,
    index: number,
  ): void;

  /**
   * The instance matrices of an instanced mesh (three's `instanceMatrix.array`, Babylon's
   * thin-instance buffer): 16 numbers per instance, column-major TRS as both engines store them.
   * Needed to track instances.
   */
  instanceMatrices?(mesh: Node): Float32Array | null;
  /** Decomposes the matrix at `matrices[offset..offset+15]` with the engine's own math into `rows[at..]`. */
  decompose?(matrices: Float32Array, offset: number, rows: Float64Array, at: number): void;
  /** The instance matrices of `mesh` were rewritten: upload them. */
  instancesUpdated?(mesh: Node): void;
  /**
   * A number that changes whenever `mesh`'s instance matrices are flagged for upload, by anyone
   * (three's `instanceMatrix.version`, which `needsUpdate = true` raises). With it, instances
   * moved with `setInstancePose` are checked for writes made outside the step only in a frame
   * in which someone other than the tracker flagged the matrices; without it, every frame.
   */
  instancesVersion?(mesh: Node): number;
}
