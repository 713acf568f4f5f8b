/**
 * The tracker's per-slot steps for an instance of an instanced mesh: its pose lives in the
 * packed rows and its matrix in the engine's buffer, composed straight from the rows once per
 * frame. Functions over the shared {@link TrackerState}.
 * @internal
 */
import { optionError } from '../options.ts';
import { ALL_COMPONENTS, isFiniteRow, sameRow } from './components.ts';
import {
  changedInstanceComponents,
  composeMatrices,
  composeMatrix,
  copyMatrix,
  sameMatrix,
} from './instance-matrix.ts';
import { adoptRow, finishCapture, refuseNonFinite, settle } from './node-slots.ts';
import { DRAWN, EXTRAPOLATE, FED, POSED, RESET_AFTER_STEP, RESTORE } from './slot-table.ts';
import { M, type MeshEntry, S, type TrackerState } from './tracker-state.ts';

export function matricesOf<Node extends object>(st: TrackerState<Node>, mesh: Node): Float32Array {
  const matrices = st.platform.instanceMatrices?.(mesh);
  if (!matrices) throw optionError('mesh', mesh, 'an instanced mesh with instance matrices');
  return matrices;
}

export function decompose<Node extends object>(
  st: TrackerState<Node>,
  matrices: Float32Array,
  offset: number,
  rows: Float64Array,
  at: number,
): void {
  const decompose = st.platform.decompose;
  if (decompose === undefined)
    throw new Error('fixedtick: this platform cannot decompose instance matrices');
  decompose.call(st.platform, matrices, offset, rows, at);
}

/**
 * Capture of an instance after a step: its matrix changed only if the step wrote it; a pose
 * given with `setInstancePose` is in its current row already.
 */
export function captureInstance<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const { index, flags, heldMatrix, simMatrix } = st.slots;
  const matrices = (st.entryOf[slot] as MeshEntry<Node>).matrices;
  if (!matrices) return;
  const { current, previous } = st.poses;
  const r = slot * S;
  const h = slot * M;
  if (flags[slot] & FED) {
    // the step gave the pose itself: no matrix to read back
    flags[slot] = settle((flags[slot] & ~FED) | POSED, !sameRow(current, r, previous, r));
    if (flags[slot] & RESTORE) composeMatrix(simMatrix, h, current, r);
  } else {
    settleLedger(st, slot);
    flags[slot] &= ~POSED;
    const o = index[slot] * M;
    if (!sameMatrix(matrices, o, heldMatrix, h)) {
      decompose(st, matrices, o, current, r);
      copyMatrix(heldMatrix, h, matrices, o);
      copyMatrix(simMatrix, h, matrices, o);
      if (!isFiniteRow(current, r)) {
        refuseNonFinite(st, slot);
        composeMatrix(simMatrix, h, current, r);
      }
    }
    flags[slot] = settle(flags[slot], !sameRow(current, r, previous, r));
  }
  if (flags[slot] & (EXTRAPOLATE | RESET_AFTER_STEP)) {
    // a reset rewrites the output row the ledger may still be composed from
    settleLedger(st, slot);
    finishCapture(st, slot);
  }
}

/**
 * Stores the ledger of an instance the interpolation pass drew without it (`DRAWN`: its matrix
 * is the composition of its output row); call it before reading the ledger or changing the row.
 */
export function settleLedger<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const flags = st.slots.flags;
  if (!(flags[slot] & DRAWN)) return;
  composeMatrix(st.slots.heldMatrix, slot * M, st.poses.output, slot * S);
  flags[slot] &= ~DRAWN;
}

export function checkInstance<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const { nodes, index, heldMatrix, simMatrix } = st.slots;
  const mesh = nodes[slot] as Node;
  const matrices = (st.entryOf[slot] as MeshEntry<Node>).matrices;
  if (!matrices) return;
  settleLedger(st, slot);
  const o = index[slot] * M;
  const h = slot * M;
  if (sameMatrix(matrices, o, heldMatrix, h)) return;
  const s = st.scratch;
  decompose(st, matrices, o, s, 0);
  decompose(st, heldMatrix, h, s, S);
  const mask = changedInstanceComponents(matrices, o, heldMatrix, h, s, 0, s, S);
  copyMatrix(heldMatrix, h, matrices, o);
  if (mask === 0) return;
  // a pose given as a matrix: checked every frame until a step gives it one again
  st.slots.flags[slot] &= ~POSED;
  adoptRow(st, slot, s, mask);
  if (mask === ALL_COMPONENTS) copyMatrix(simMatrix, h, matrices, o);
  else composeMatrix(simMatrix, h, st.poses.current, slot * S);
  st.platform.adopted?.(mesh, slot, st.poses.current, slot * S, mask, index[slot]);
}

export function restoreInstance<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const { index, heldMatrix, simMatrix } = st.slots;
  const h = slot * M;
  settleLedger(st, slot);
  if (sameMatrix(heldMatrix, h, simMatrix, h)) return;
  const matrices = (st.entryOf[slot] as MeshEntry<Node>).matrices;
  if (!matrices) return;
  copyMatrix(matrices, index[slot] * M, simMatrix, h);
  copyMatrix(heldMatrix, h, simMatrix, h);
  (st.entryOf[slot] as MeshEntry<Node>).written = true;
}

export function showInstanceRow<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  rows: Float64Array,
): void {
  const entry = st.entryOf[slot] as MeshEntry<Node>;
  const matrices = entry.matrices;
  if (!matrices) return;
  composeMatrices(
    matrices,
    st.slots.index[slot] * M,
    st.slots.heldMatrix,
    slot * M,
    rows,
    slot * S,
  );
  entry.written = true;
}

export function upload<Node extends object>(st: TrackerState<Node>): void {
  const list = st.meshList;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (!entry.written) continue;
    entry.written = false;
    uploadMesh(st, entry);
  }
}

/**
 * Has the platform upload `entry`'s matrices. The tracker's own upload raises the mesh's
 * version too; it counts as seen unless someone else had raised it first.
 */
export function uploadMesh<Node extends object>(
  st: TrackerState<Node>,
  entry: MeshEntry<Node>,
): void {
  const platform = st.platform;
  const seen = platform.instancesVersion?.(entry.mesh) === entry.version;
  platform.instancesUpdated?.(entry.mesh);
  if (seen) entry.version = platform.instancesVersion?.(entry.mesh) ?? -1;
}

/**
 * Asks the platform for every mesh's matrix buffer again (once per frame: a mesh may have been
 * given a new one; the next write check then looks at all its instances); the passes use these.
 */
export function refreshMatrices<Node extends object>(st: TrackerState<Node>): void {
  const list = st.meshList;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    const matrices = st.platform.instanceMatrices?.(entry.mesh) ?? null;
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
export function beginCheck<Node extends object>(st: TrackerState<Node>): boolean {
  const versionOf = st.platform.instancesVersion;
  const list = st.meshList;
  let any = false;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    const version = versionOf === undefined ? -1 : versionOf.call(st.platform, entry.mesh);
    entry.unseen = version === -1 || version !== entry.version;
    entry.version = version;
    if (entry.unseen) any = true;
  }
  return any;
}
