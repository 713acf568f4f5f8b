/**
 * Moving a tracked node or instance from outside the tracker's passes: a teleport (the pose
 * becomes the simulation pose, its interpolation restarts, the engine's body follows), and
 * reading the simulation pose back. Functions over the shared {@link TrackerState}; the
 * `Tracker` checks that the node or instance is tracked.
 * @internal
 */
import { ALL_COMPONENTS, copyComponents, ROTATION } from './components.ts';
import { collect, resetList } from './hierarchy.ts';
import { composeMatrix, copyMatrix, sameMatrix } from './instance-matrix.ts';
import { decompose, matricesOf, settleLedger } from './instance-slots.ts';
import { adoptPending, adoptRow, convert, showStored } from './node-slots.ts';
import { poseFromRow, type SimulationPose } from './simulation-pose.ts';
import { WORLD } from './slot-table.ts';
import {
  checkTeleport,
  type QuaternionLike,
  setTeleported,
  type Vector3Like,
} from './track-options.ts';
import { M, type MeshEntry, S, type TrackerState } from './tracker-state.ts';

/** `Tracker.teleport` of `node`, tracked in `slot`. */
export function teleportNode<Node extends object>(
  st: TrackerState<Node>,
  node: Node,
  slot: number,
  position: Vector3Like,
  rotation: QuaternionLike | undefined,
): void {
  const mask = checkTeleport(position, rotation);
  const s = st.scratch;
  const r = slot * S;
  const world = (st.slots.flags[slot] & WORLD) !== 0;
  if (st.holding) {
    st.platform.read(node, slot, s, 0);
  } else {
    adoptPending(st, slot);
    copyComponents(s, 0, world ? st.slots.simLocal : st.poses.current, r, ALL_COMPONENTS);
  }
  setTeleported(s, 0, position, rotation);
  adoptRow(st, slot, s, mask);
  // inside the step the node is the simulation: it moves now
  if (st.holding) showStored(st, slot, s, 0);
  const n = collect(st, node);
  resetList(st, n);
  // the node shows its new simulation pose now (inside the step: it holds it)
  if (mask & ROTATION) st.platform.captured?.(node, slot);
  st.platform.adopted?.(node, slot, st.poses.current, r, mask, -1);
}

/** `Tracker.teleportInstance` of instance `index` of `mesh`, tracked in `slot`. */
export function teleportInstance<Node extends object>(
  st: TrackerState<Node>,
  mesh: Node,
  index: number,
  slot: number,
  position: Vector3Like,
  rotation: QuaternionLike | undefined,
): void {
  const mask = checkTeleport(position, rotation);
  adoptPending(st, slot);
  // the ledger is rewritten below, inside the step, with the matrix
  settleLedger(st, slot);
  const c = st.poses.current;
  const r = slot * S;
  setTeleported(c, r, position, rotation);
  const { simMatrix, heldMatrix } = st.slots;
  composeMatrix(simMatrix, slot * M, c, r);
  if (st.holding) {
    // inside the step the instance moves at once (code reading its matrix sees it there)
    copyMatrix(matricesOf(st, mesh), index * M, simMatrix, slot * M);
    copyMatrix(heldMatrix, slot * M, simMatrix, slot * M);
    (st.entryOf[slot] as MeshEntry<Node>).written = true;
  }
  st.list[0] = slot;
  resetList(st, 1);
  st.platform.adopted?.(mesh, slot, c, r, mask, index);
}

/**
 * `Tracker.getSimulationPose` of `node` (`index` -1) or of its instance `index`, tracked in
 * `slot`, into `out`.
 */
export function simulationPose<Node extends object>(
  st: TrackerState<Node>,
  node: Node,
  index: number,
  slot: number,
  out: SimulationPose,
): SimulationPose {
  const s = st.scratch;
  if (st.holding && index >= 0) {
    const matrices = matricesOf(st, node);
    settleLedger(st, slot);
    if (!sameMatrix(matrices, index * M, st.slots.heldMatrix, slot * M)) {
      decompose(st, matrices, index * M, s, 0);
      return poseFromRow(out, s, 0);
    }
  } else if (st.holding && st.platform.capture === undefined) {
    st.platform.read(node, slot, s, 0);
    if (!(st.slots.flags[slot] & WORLD)) return poseFromRow(out, s, 0);
    convert(st, true, node, s, 0, s, S);
    return poseFromRow(out, s, S);
  } else if (!st.holding) {
    adoptPending(st, slot);
  }
  return poseFromRow(out, st.poses.current, slot * S);
}
