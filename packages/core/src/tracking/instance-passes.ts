/**
 * The tracker's passes over the instances of instanced meshes, called from frame-passes.ts: the
 * write check (and the restore of `restore: true` instances) before the steps, the capture after
 * a step, and the interpolation and the composition of every awake instance's matrix straight
 * into its mesh's buffer. Functions over the shared {@link TrackerState}.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { composeMatrices, composeMatrix, MATRIX_STRIDE, sameMatrix } from './instance-matrix.ts';
import { captureInstance, checkInstance, restoreInstance } from './instance-slots.ts';
import {
  AT_REST,
  afterDrawn,
  INTERPOLATES,
  LEDGER_NOT_STORED,
  POSED_BY_SET_INSTANCE_POSE,
  RESTORES_MATRIX,
  STREAMED,
} from './slot-states.ts';
import type { MeshEntry, TrackerState } from './tracker-state.ts';

/**
 * The write check of every instance (when `check`: a matrix others wrote is adopted), and with
 * `restore` the simulation matrix put back where code reads instances in the step. An instance
 * moved with `setInstancePose` is checked only if its mesh's matrices were flagged for upload
 * by someone else (`unseen`: some mesh's were, from `beginCheck`; docs/three.md, "Instanced
 * meshes").
 */
export function checkInstances<Node extends object>(
  state: TrackerState<Node>,
  unseen: boolean,
  check: boolean,
  restore: boolean,
): void {
  const { nodes, index, flags, heldMatrix } = state.slots;
  const size = state.poses.size;
  for (let slot = 0; slot < size; slot++) {
    // nothing to do for an instance moved with setInstancePose while no mesh is unseen
    if (
      !unseen &&
      (flags[slot] & (POSED_BY_SET_INSTANCE_POSE | RESTORES_MATRIX)) === POSED_BY_SET_INSTANCE_POSE
    )
      continue;
    if (nodes[slot] === undefined || index[slot] < 0) continue;
    if (!restore && flags[slot] & AT_REST) continue;
    const entry = state.entryOf[slot] as MeshEntry<Node>;
    const matrices = entry.matrices;
    if (matrices === null) continue;
    // (a ledger left to settleLedger compares unequal here; checkInstance settles it first)
    if (
      check &&
      (entry.unseen || !(flags[slot] & POSED_BY_SET_INSTANCE_POSE)) &&
      !sameMatrix(matrices, index[slot] * MATRIX_STRIDE, heldMatrix, slot * MATRIX_STRIDE)
    ) {
      checkInstance(state, slot);
    }
    if (restore && flags[slot] & RESTORES_MATRIX) restoreInstance(state, slot);
  }
}

/** Capture of every tracked instance after a step. */
export function captureInstances<Node extends object>(state: TrackerState<Node>): void {
  const { nodes, index } = state.slots;
  const size = state.poses.size;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] !== undefined && index[slot] >= 0) captureInstance(state, slot);
  }
}

/**
 * Lists the awake instances in `'interpolate'` mode in `state.awake` and returns how many; the
 * others are interpolated here, one at a time. All are written by `writeInstances`.
 */
export function collectInstances<Node extends object>(state: TrackerState<Node>): number {
  const { nodes, index, flags } = state.slots;
  const poses = state.poses;
  const size = poses.size;
  const awake = state.awake;
  let count = 0;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined || index[slot] < 0 || flags[slot] & AT_REST) continue;
    if ((state.entryOf[slot] as MeshEntry<Node>).matrices === null) continue;
    if (flags[slot] & STREAMED) continue;
    if (flags[slot] & INTERPOLATES) awake[count++] = slot;
    else poses.interpolateSlotAt(slot);
  }
  return count;
}

/**
 * Composes every awake instance's render matrix into its mesh's buffer, and into the ledger
 * unless the instance is moved with `setInstancePose` on a platform with `instancesVersion`:
 * its ledger is then stored only when needed (`LEDGER_NOT_STORED`, docs/performance.md, "Instances").
 */
export function writeInstances<Node extends object>(state: TrackerState<Node>): void {
  const { nodes, index, flags, heldMatrix } = state.slots;
  const { size, output } = state.poses;
  const entryOf = state.entryOf;
  const drawn = state.platform.instancesVersion !== undefined ? POSED_BY_SET_INSTANCE_POSE : 0;
  for (let slot = 0; slot < size; slot++) {
    const f = flags[slot];
    if (nodes[slot] === undefined || index[slot] < 0 || f & AT_REST) continue;
    const entry = entryOf[slot] as MeshEntry<Node>;
    const matrices = entry.matrices;
    if (matrices === null) continue;
    if (f & drawn) {
      composeMatrix(matrices, index[slot] * MATRIX_STRIDE, output, slot * POSE_STRIDE);
      flags[slot] = afterDrawn(f) | LEDGER_NOT_STORED;
    } else {
      composeMatrices(
        matrices,
        index[slot] * MATRIX_STRIDE,
        heldMatrix,
        slot * MATRIX_STRIDE,
        output,
        slot * POSE_STRIDE,
      );
      flags[slot] = afterDrawn(f);
    }
    entry.needsUpload = true;
  }
}
