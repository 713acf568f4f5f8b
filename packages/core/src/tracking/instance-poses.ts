/**
 * Instances moved and let go from outside the passes: `setInstancePose` (the fast way to move
 * instances inside the step) and `untrackInstance`. Functions over the shared
 * {@link TrackerState}.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { optionError } from '../options.ts';
import { adoptPending } from './adopt-writes.ts';
import { POSITION, ROTATION, SCALE } from './components.ts';
import { resetList } from './hierarchy.ts';
import { composeMatrix, copyMatrix, MATRIX_STRIDE } from './instance-matrix.ts';
import { matricesOf, uploadMesh } from './instance-slots.ts';
import { dropInstance } from './slot-lifecycle.ts';
import { POSE_GIVEN_IN_STEP, POSED_BY_SET_INSTANCE_POSE } from './slot-states.ts';
import { isFiniteVector, type QuaternionLike, type Vector3Like } from './track-options.ts';
import type { TrackerState } from './tracker-state.ts';

function setPart(rows: Float64Array, at: number, v: Vector3Like): void {
  rows[at] = v.x;
  rows[at + 1] = v.y;
  rows[at + 2] = v.z;
}

/**
 * `Tracker.setInstancePose`: instance `index` of `mesh` gets its pose — inside the step, the one
 * the step leaves it at (no matrix written, none read back); outside it, a teleport. Omitted
 * parts keep their simulation values. The per-step hot path of instanced scenes.
 */
export function setInstancePose<Node extends object>(
  state: TrackerState<Node>,
  mesh: Node,
  index: number,
  position: Vector3Like | undefined,
  rotation: QuaternionLike | undefined,
  scale: Vector3Like | undefined,
): void {
  let entry = state.lastEntry;
  if (entry === undefined || entry.mesh !== mesh) {
    entry = state.meshes.get(mesh);
    state.lastEntry = entry;
  }
  // a whole number first: `dense['length']` or `dense['constructor']` must not be looked up
  const slot = index >>> 0 === index ? (entry?.dense[index] ?? 0) - 1 : -1;
  if (slot < 0) throw optionError('index', index, 'a tracked instance index');
  if (position !== undefined && !isFiniteVector(position, false)) {
    throw optionError('position', position, 'an { x, y, z } of finite numbers');
  }
  if (rotation !== undefined && !isFiniteVector(rotation, true)) {
    throw optionError('rotation', rotation, 'an { x, y, z, w } of finite numbers');
  }
  if (scale !== undefined && !isFiniteVector(scale, false)) {
    throw optionError('scale', scale, 'an { x, y, z } of finite numbers');
  }
  // outside the step a matrix written before this call is adopted first: this pose wins
  if (!state.holding) adoptPending(state, slot);
  const r = slot * POSE_STRIDE;
  // inside the step the current pose is the step's (its start was shifted to the previous)
  const rows = state.poses.current;
  if (state.holding) state.slots.flags[slot] |= POSE_GIVEN_IN_STEP;
  if (position !== undefined) setPart(rows, r, position);
  if (rotation !== undefined) {
    rows[r + 3] = rotation.x;
    rows[r + 4] = rotation.y;
    rows[r + 5] = rotation.z;
    rows[r + 6] = rotation.w;
  }
  if (scale !== undefined) setPart(rows, r + 7, scale);
  if (state.holding) return;
  composeMatrix(state.slots.simMatrix, slot * MATRIX_STRIDE, state.poses.current, r);
  state.list[0] = slot;
  resetList(state, 1);
  const mask = (position ? POSITION : 0) | (rotation ? ROTATION : 0) | (scale ? SCALE : 0);
  state.platform.adopted?.(mesh, slot, state.poses.current, r, mask, index);
}

/** `Tracker.untrackInstance`: the instance is left at its simulation matrix, exactly. */
export function untrackInstance<Node extends object>(
  state: TrackerState<Node>,
  mesh: Node,
  index: number,
): boolean {
  const entry = state.meshes.get(mesh);
  const slot = entry?.slots.get(index);
  if (entry === undefined || slot === undefined) return false;
  if (!state.holding) {
    adoptPending(state, slot);
    // exactly the matrix captured with the simulation pose; a pose given with setInstancePose
    // has no matrix of its own yet: it is composed from the pose
    const { heldMatrix, simMatrix, flags } = state.slots;
    if (flags[slot] & POSED_BY_SET_INSTANCE_POSE) {
      composeMatrix(simMatrix, slot * MATRIX_STRIDE, state.poses.current, slot * POSE_STRIDE);
    }
    copyMatrix(matricesOf(state, mesh), index * MATRIX_STRIDE, simMatrix, slot * MATRIX_STRIDE);
    copyMatrix(heldMatrix, slot * MATRIX_STRIDE, simMatrix, slot * MATRIX_STRIDE);
    uploadMesh(state, entry);
  }
  dropInstance(state, entry, index, slot);
  return true;
}
