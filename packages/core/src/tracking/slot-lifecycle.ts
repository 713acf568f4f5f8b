/**
 * Slots come and go: a tracked node gets one (its stored pose read as its simulation pose), a
 * node simulated in world space is converted, an untracked one gives its slot back, modes change.
 * Functions over the shared {@link TrackerState}.
 * @internal
 */
import type { InterpolationMode } from '../interpolation/pose-layout.ts';
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { adoptPending } from './adopt-writes.ts';
import { ALL_COMPONENTS, copyComponents } from './components.ts';
import { noteTrackedBelow } from './hierarchy.ts';
import { copyMatrix, MATRIX_STRIDE } from './instance-matrix.ts';
import { decompose, matricesOf } from './instance-slots.ts';
import { convert } from './simulation-rows.ts';
import {
  AT_REST,
  EXTRAPOLATES,
  FOLLOWS_DEFAULT,
  INTERPOLATES,
  SIMULATED_IN_WORLD,
  STREAMED,
} from './slot-states.ts';
import type { MeshEntry, TrackerState } from './tracker-state.ts';

/**
 * A new slot for `node` (instance `index`, -1 for the node itself) with `mode` (`undefined`:
 * follows the default); a node's stored pose becomes its simulation pose.
 */
export function addSlot<Node extends object>(
  state: TrackerState<Node>,
  node: Node,
  index: number,
  mode: InterpolationMode | undefined,
  flags: number,
): number {
  const poses = state.poses;
  const slot = poses.add(mode ?? state.defaultMode);
  state.slots.fit(poses);
  state.slots.claim(slot, node, index, flags | (mode === undefined ? FOLLOWS_DEFAULT : 0));
  setMode(state, slot, mode ?? state.defaultMode);
  if (index < 0) {
    state.platform.read(node, slot, state.slots.held, slot * POSE_STRIDE);
    copyComponents(
      poses.current,
      slot * POSE_STRIDE,
      state.slots.held,
      slot * POSE_STRIDE,
      ALL_COMPONENTS,
    );
    state.platform.captured?.(node, slot);
    poses.reset(slot);
  }
  return slot;
}

/**
 * A new slot for instance `index` of `mesh` (its mesh entry made on the first), its matrix
 * decomposed as its simulation pose.
 */
export function addInstance<Node extends object>(
  state: TrackerState<Node>,
  mesh: Node,
  index: number,
  mode: InterpolationMode | undefined,
  flags: number,
): number {
  const matrices = matricesOf(state, mesh);
  const slot = addSlot(state, mesh, index, mode, flags);
  let entry = state.meshes.get(mesh);
  if (entry === undefined) {
    entry = {
      mesh,
      slots: new Map(),
      dense: new Int32Array(0),
      matrices,
      needsUpload: false,
      version: state.platform.instancesVersion?.(mesh) ?? -1,
      unseen: false,
    };
    state.meshes.set(mesh, entry);
    state.meshList = [...state.meshList, entry];
    noteTrackedBelow(state, mesh, true);
  }
  entry.slots.set(index, slot);
  if (index >= entry.dense.length) {
    const dense = new Int32Array(Math.max(index + 1, entry.dense.length * 2));
    dense.set(entry.dense);
    entry.dense = dense;
  }
  entry.dense[index] = slot + 1;
  entry.matrices = matrices;
  state.entryOf[slot] = entry;
  const { heldMatrix, simMatrix } = state.slots;
  copyMatrix(heldMatrix, slot * MATRIX_STRIDE, matrices, index * MATRIX_STRIDE);
  copyMatrix(simMatrix, slot * MATRIX_STRIDE, matrices, index * MATRIX_STRIDE);
  decompose(state, matrices, index * MATRIX_STRIDE, state.poses.current, slot * POSE_STRIDE);
  state.poses.reset(slot);
  return slot;
}

/**
 * Asks the platform whether the slot's node is simulated in world space and, if that changed,
 * re-expresses its simulation pose in the new space.
 */
export function classify<Node extends object>(state: TrackerState<Node>, slot: number): void {
  const { nodes, flags, held, simLocal } = state.slots;
  const node = nodes[slot] as Node;
  const world = state.platform.simulatedInWorld?.(node) === true;
  if (world === ((flags[slot] & SIMULATED_IN_WORLD) !== 0)) return;
  adoptPending(state, slot);
  const r = slot * POSE_STRIDE;
  state.slots.setWorld(slot, world);
  if (world) {
    copyComponents(simLocal, r, held, r, ALL_COMPONENTS);
    convert(state, true, node, held, r, state.poses.current, r);
  } else {
    copyComponents(state.poses.current, r, held, r, ALL_COMPONENTS);
  }
  state.poses.reset(slot);
  state.slots.wake(slot, AT_REST);
}

/** Frees the slot (its stream binding too); an empty tracker gives its storage back. */
export function removeSlot<Node extends object>(state: TrackerState<Node>, slot: number): void {
  if (state.slots.flags[slot] & STREAMED) {
    for (const stream of state.streams) stream.released(slot);
  }
  state.poses.remove(slot);
  state.slots.release(slot);
  state.entryOf[slot] = undefined;
  if (state.poses.count === 0) {
    // empty: the storage of the peak goes back (the pose buffer gave its own back)
    state.slots.clear();
    state.entryOf.length = 0;
    state.awake = new Int32Array(64);
    state.quiet = new Uint8Array(1);
    state.list = new Int32Array(16);
  }
}

/** Frees instance `index` of `entry`; the mesh entry goes with its last instance. */
export function dropInstance<Node extends object>(
  state: TrackerState<Node>,
  entry: MeshEntry<Node>,
  index: number,
  slot: number,
): void {
  entry.slots.delete(index);
  if (index < entry.dense.length) entry.dense[index] = 0;
  removeSlot(state, slot);
  if (entry.slots.size === 0) {
    if (state.lastEntry === entry) state.lastEntry = undefined;
    state.meshes.delete(entry.mesh);
    state.meshList = state.meshList.filter((e) => e !== entry);
  }
}

/** Sets the slot's interpolation mode (and the flags that mirror it); wakes it. */
export function setMode<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mode: InterpolationMode,
): void {
  state.poses.setMode(slot, mode);
  setFlag(state, slot, EXTRAPOLATES, mode === 'extrapolate');
  setFlag(state, slot, INTERPOLATES, mode === 'interpolate');
  state.slots.wake(slot, AT_REST);
}

/** Sets the slot's mode, or makes it follow the default when `mode` is undefined. */
export function setFollows<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mode: InterpolationMode | undefined,
): void {
  setFlag(state, slot, FOLLOWS_DEFAULT, mode === undefined);
  setMode(state, slot, mode ?? state.defaultMode);
}

/** Sets or clears `flag` of the slot. */
export function setFlag<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  flag: number,
  on: boolean,
): void {
  const flags = state.slots.flags;
  flags[slot] = on ? flags[slot] | flag : flags[slot] & ~flag;
}

/** `Tracker.forget`: frees the slots of `node` and its instances without touching it. */
export function forgetNode<Node extends object>(state: TrackerState<Node>, node: Node): number {
  let n = 0;
  const slot = state.objects.get(node);
  if (slot !== undefined) {
    state.objects.delete(node);
    removeSlot(state, slot);
    n++;
  }
  const entry = state.meshes.get(node);
  if (entry !== undefined) {
    for (const [index, instanceSlot] of [...entry.slots]) {
      dropInstance(state, entry, index, instanceSlot);
      n++;
    }
  }
  return n;
}
