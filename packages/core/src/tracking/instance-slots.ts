/**
 * The tracker's per-slot steps for an instance of an instanced mesh: its pose lives in the
 * packed rows and its matrix in the engine's buffer, composed straight from the rows once per
 * frame. Functions over the shared {@link TrackerState}.
 * @internal
 */

import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { optionError } from '../options.ts';
import { ALL_COMPONENTS, isFiniteRow, sameRow } from './components.ts';
import {
  changedInstanceComponents,
  composeMatrices,
  composeMatrix,
  copyMatrix,
  MATRIX_STRIDE,
  sameMatrix,
} from './instance-matrix.ts';
import { adoptRow, finishCapture, refuseNonFinite } from './simulation-rows.ts';
import {
  afterCapture,
  EXTRAPOLATES,
  LEDGER_NOT_STORED,
  POSE_GIVEN_IN_STEP,
  POSED_BY_SET_INSTANCE_POSE,
  RESET_AFTER_STEP,
  RESTORES_MATRIX,
  STREAMED,
} from './slot-states.ts';
import type { MeshEntry, TrackerState } from './tracker-state.ts';

/** The instance matrices of `mesh`; a `RangeError` if it has none. */
export function matricesOf<Node extends object>(
  state: TrackerState<Node>,
  mesh: Node,
): Float32Array {
  const matrices = state.platform.instanceMatrices?.(mesh);
  if (!matrices) throw optionError('mesh', mesh, 'an instanced mesh with instance matrices');
  return matrices;
}

/** The platform's decomposition of a matrix into a pose row; an `Error` if it has none. */
export function decompose<Node extends object>(
  state: TrackerState<Node>,
  matrices: Float32Array,
  offset: number,
  rows: Float64Array,
  at: number,
): void {
  const decompose = state.platform.decompose;
  if (decompose === undefined)
    throw new Error('fixedtick: this platform cannot decompose instance matrices');
  decompose.call(state.platform, matrices, offset, rows, at);
}

/**
 * Capture of an instance after a step: its matrix changed only if the step wrote it; a pose
 * given with `setInstancePose` is in its current row already.
 */
export function captureInstance<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
): void {
  const { index, flags, heldMatrix, simMatrix } = state.slots;
  const matrices = (state.entryOf[slot] as MeshEntry<Node>).matrices;
  if (!matrices || flags[slot] & STREAMED) return;
  const { current, previous } = state.poses;
  const r = slot * POSE_STRIDE;
  const h = slot * MATRIX_STRIDE;
  if (flags[slot] & POSE_GIVEN_IN_STEP) {
    // the step gave the pose itself: no matrix to read back
    flags[slot] = afterCapture(
      (flags[slot] & ~POSE_GIVEN_IN_STEP) | POSED_BY_SET_INSTANCE_POSE,
      !sameRow(current, r, previous, r),
    );
    if (flags[slot] & RESTORES_MATRIX) composeMatrix(simMatrix, h, current, r);
  } else {
    settleLedger(state, slot);
    flags[slot] &= ~POSED_BY_SET_INSTANCE_POSE;
    const o = index[slot] * MATRIX_STRIDE;
    if (!sameMatrix(matrices, o, heldMatrix, h)) {
      decompose(state, matrices, o, current, r);
      copyMatrix(heldMatrix, h, matrices, o);
      copyMatrix(simMatrix, h, matrices, o);
      if (!isFiniteRow(current, r)) {
        refuseNonFinite(state, slot);
        composeMatrix(simMatrix, h, current, r);
      }
    }
    flags[slot] = afterCapture(flags[slot], !sameRow(current, r, previous, r));
  }
  if (flags[slot] & (EXTRAPOLATES | RESET_AFTER_STEP)) {
    // a reset rewrites the output row the ledger may still be composed from
    settleLedger(state, slot);
    finishCapture(state, slot);
  }
}

/**
 * Stores the ledger of an instance the interpolation pass drew without it (`LEDGER_NOT_STORED`: its matrix
 * is the composition of its output row); call it before reading the ledger or changing the row.
 */
export function settleLedger<Node extends object>(state: TrackerState<Node>, slot: number): void {
  const flags = state.slots.flags;
  if (!(flags[slot] & LEDGER_NOT_STORED)) return;
  composeMatrix(
    state.slots.heldMatrix,
    slot * MATRIX_STRIDE,
    state.poses.output,
    slot * POSE_STRIDE,
  );
  flags[slot] &= ~LEDGER_NOT_STORED;
}

/**
 * The write check of one instance: a matrix written by others since the tracker last left it is
 * adopted (per component, as far as a decomposition tells) and moves the engine's body.
 */
export function checkInstance<Node extends object>(state: TrackerState<Node>, slot: number): void {
  const { nodes, index, heldMatrix, simMatrix } = state.slots;
  const mesh = nodes[slot] as Node;
  const matrices = (state.entryOf[slot] as MeshEntry<Node>).matrices;
  if (!matrices) return;
  settleLedger(state, slot);
  const o = index[slot] * MATRIX_STRIDE;
  const h = slot * MATRIX_STRIDE;
  if (sameMatrix(matrices, o, heldMatrix, h)) return;
  const s = state.scratch;
  decompose(state, matrices, o, s, 0);
  decompose(state, heldMatrix, h, s, POSE_STRIDE);
  const mask = changedInstanceComponents(matrices, o, heldMatrix, h, s, 0, s, POSE_STRIDE);
  copyMatrix(heldMatrix, h, matrices, o);
  if (mask === 0) return;
  // a pose given as a matrix: checked every frame until a step gives it one again
  state.slots.flags[slot] &= ~POSED_BY_SET_INSTANCE_POSE;
  adoptRow(state, slot, s, mask);
  if (mask === ALL_COMPONENTS) copyMatrix(simMatrix, h, matrices, o);
  else composeMatrix(simMatrix, h, state.poses.current, slot * POSE_STRIDE);
  state.platform.adopted?.(mesh, slot, state.poses.current, slot * POSE_STRIDE, mask, index[slot]);
}

/** Puts an instance's simulation matrix back before the steps (`restore: true`). */
export function restoreInstance<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
): void {
  const { index, heldMatrix, simMatrix } = state.slots;
  const h = slot * MATRIX_STRIDE;
  settleLedger(state, slot);
  if (sameMatrix(heldMatrix, h, simMatrix, h)) return;
  const matrices = (state.entryOf[slot] as MeshEntry<Node>).matrices;
  if (!matrices) return;
  copyMatrix(matrices, index[slot] * MATRIX_STRIDE, simMatrix, h);
  copyMatrix(heldMatrix, h, simMatrix, h);
  (state.entryOf[slot] as MeshEntry<Node>).needsUpload = true;
}

/** Composes an instance's pose row `rows` into its matrix and its ledger. */
export function drawInstanceRow<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  rows: Float64Array,
): void {
  const entry = state.entryOf[slot] as MeshEntry<Node>;
  const matrices = entry.matrices;
  if (!matrices) return;
  composeMatrices(
    matrices,
    state.slots.index[slot] * MATRIX_STRIDE,
    state.slots.heldMatrix,
    slot * MATRIX_STRIDE,
    rows,
    slot * POSE_STRIDE,
  );
  entry.needsUpload = true;
}

/** Has the platform upload every mesh whose matrices a pass rewrote. */
export function upload<Node extends object>(state: TrackerState<Node>): void {
  const list = state.meshList;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (!entry.needsUpload) continue;
    entry.needsUpload = false;
    uploadMesh(state, entry);
  }
}

/**
 * Has the platform upload `entry`'s matrices. The tracker's own upload raises the mesh's
 * version too; it counts as seen unless someone else had raised it first.
 */
export function uploadMesh<Node extends object>(
  state: TrackerState<Node>,
  entry: MeshEntry<Node>,
): void {
  const platform = state.platform;
  const seen = platform.instancesVersion?.(entry.mesh) === entry.version;
  platform.instancesUpdated?.(entry.mesh);
  if (seen) entry.version = platform.instancesVersion?.(entry.mesh) ?? -1;
}

/**
 * Asks the platform for every mesh's matrix buffer again (once per frame: a mesh may have been
 * given a new one; the next write check then looks at all its instances); the passes use these.
 */
export function refreshMatrices<Node extends object>(state: TrackerState<Node>): void {
  const list = state.meshList;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    const matrices = state.platform.instanceMatrices?.(entry.mesh) ?? null;
    if (matrices !== entry.matrices) entry.version = -1;
    entry.matrices = matrices;
  }
}

/**
 * Before a write check: which meshes had their matrices flagged for upload by someone else
 * since the tracker last saw them (their instances moved with `setInstancePose` are checked
 * too, their ledgers stored first); after it, every mesh's current version counts as seen.
 * Returns true if any mesh is unseen.
 */
export function beginCheck<Node extends object>(state: TrackerState<Node>): boolean {
  const versionOf = state.platform.instancesVersion;
  const list = state.meshList;
  let any = false;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    const version = versionOf === undefined ? -1 : versionOf.call(state.platform, entry.mesh);
    entry.unseen = version === -1 || version !== entry.version;
    entry.version = version;
    if (entry.unseen) any = true;
  }
  return any;
}
