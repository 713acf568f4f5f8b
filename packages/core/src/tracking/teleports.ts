/**
 * Moving a tracked node or instance from outside the tracker's passes: a teleport (the pose
 * becomes the simulation pose, its interpolation restarts, the engine's body follows), and
 * reading the simulation pose back. Functions over the shared {@link TrackerState}; the
 * `Tracker` checks that the node or instance is tracked.
 * @internal
 */

import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { adoptPending } from './adopt-writes.ts';
import { ALL_COMPONENTS, copyComponents, ROTATION } from './components.ts';
import { collect, resetList } from './hierarchy.ts';
import { composeMatrix, copyMatrix, MATRIX_STRIDE, sameMatrix } from './instance-matrix.ts';
import { decompose, matricesOf, settleLedger, upload } from './instance-slots.ts';
import { drawOutput, writeStoredPose } from './node-drawing.ts';
import { poseFromRow, type SimulationPose } from './simulation-pose.ts';
import { adoptRow, convert } from './simulation-rows.ts';
import { RESET_AFTER_STEP, SIMULATED_IN_WORLD } from './slot-states.ts';
import {
  checkTeleport,
  type QuaternionLike,
  setTeleported,
  type Vector3Like,
} from './track-options.ts';
import type { MeshEntry, TrackerState } from './tracker-state.ts';

/** `Tracker.teleport` of `node`, tracked in `slot`. */
export function teleportNode<Node extends object>(
  state: TrackerState<Node>,
  node: Node,
  slot: number,
  position: Vector3Like,
  rotation: QuaternionLike | undefined,
): void {
  const mask = checkTeleport(position, rotation);
  const s = state.scratch;
  const r = slot * POSE_STRIDE;
  const world = (state.slots.flags[slot] & SIMULATED_IN_WORLD) !== 0;
  if (state.holding) {
    state.platform.read(node, slot, s, 0);
  } else {
    adoptPending(state, slot);
    copyComponents(s, 0, world ? state.slots.simLocal : state.poses.current, r, ALL_COMPONENTS);
  }
  setTeleported(s, 0, position, rotation);
  adoptRow(state, slot, s, mask);
  // inside the step the node is the simulation: it moves now
  if (state.holding) writeStoredPose(state, slot, s, 0);
  const n = collect(state, node);
  resetList(state, n);
  // the node shows its new simulation pose now (inside the step: it holds it)
  if (mask & ROTATION) state.platform.captured?.(node, slot);
  state.platform.adopted?.(node, slot, state.poses.current, r, mask, -1);
}

/** `Tracker.teleportInstance` of instance `index` of `mesh`, tracked in `slot`. */
export function teleportInstance<Node extends object>(
  state: TrackerState<Node>,
  mesh: Node,
  index: number,
  slot: number,
  position: Vector3Like,
  rotation: QuaternionLike | undefined,
): void {
  const mask = checkTeleport(position, rotation);
  adoptPending(state, slot);
  // the ledger is rewritten below, inside the step, with the matrix
  settleLedger(state, slot);
  const c = state.poses.current;
  const r = slot * POSE_STRIDE;
  setTeleported(c, r, position, rotation);
  const { simMatrix, heldMatrix } = state.slots;
  composeMatrix(simMatrix, slot * MATRIX_STRIDE, c, r);
  if (state.holding) {
    // inside the step the instance moves at once (code reading its matrix sees it there)
    copyMatrix(matricesOf(state, mesh), index * MATRIX_STRIDE, simMatrix, slot * MATRIX_STRIDE);
    copyMatrix(heldMatrix, slot * MATRIX_STRIDE, simMatrix, slot * MATRIX_STRIDE);
    (state.entryOf[slot] as MeshEntry<Node>).needsUpload = true;
  }
  state.list[0] = slot;
  resetList(state, 1);
  state.platform.adopted?.(mesh, slot, c, r, mask, index);
}

/**
 * `Tracker.getSimulationPose` of `node` (`index` -1) or of its instance `index`, tracked in
 * `slot`, into `out`.
 */
export function simulationPose<Node extends object>(
  state: TrackerState<Node>,
  node: Node,
  index: number,
  slot: number,
  out: SimulationPose,
): SimulationPose {
  const s = state.scratch;
  if (state.holding && index >= 0) {
    const matrices = matricesOf(state, node);
    settleLedger(state, slot);
    if (
      !sameMatrix(matrices, index * MATRIX_STRIDE, state.slots.heldMatrix, slot * MATRIX_STRIDE)
    ) {
      decompose(state, matrices, index * MATRIX_STRIDE, s, 0);
      return poseFromRow(out, s, 0);
    }
  } else if (state.holding && state.platform.capture === undefined) {
    state.platform.read(node, slot, s, 0);
    if (!(state.slots.flags[slot] & SIMULATED_IN_WORLD)) return poseFromRow(out, s, 0);
    convert(state, true, node, s, 0, s, POSE_STRIDE);
    return poseFromRow(out, s, POSE_STRIDE);
  } else if (!state.holding) {
    adoptPending(state, slot);
  }
  return poseFromRow(out, state.poses.current, slot * POSE_STRIDE);
}

/** `Tracker.resetInterpolation`: a reset of every tracked slot (inside the step: when it ends). */
export function resetEverySlot<Node extends object>(state: TrackerState<Node>): void {
  const size = state.poses.size;
  const { nodes, flags } = state.slots;
  if (state.holding) {
    for (let slot = 0; slot < size; slot++) if (nodes[slot]) flags[slot] |= RESET_AFTER_STEP;
    return;
  }
  for (let slot = 0; slot < size; slot++) if (nodes[slot]) adoptPending(state, slot);
  state.poses.resetAll();
  for (let slot = 0; slot < size; slot++) if (nodes[slot]) drawOutput(state, slot);
  upload(state);
}
