/**
 * Slots come and go: a tracked node gets one (its stored pose read as its simulation pose), a
 * node simulated in world space is converted, an untracked one gives its slot back, modes change.
 * Functions over the shared {@link TrackerState}.
 * @internal
 */
import type { InterpolationMode } from '../interpolation/pose-layout.ts';
import { ALL_COMPONENTS, copyComponents } from './components.ts';
import { noteTrackedBelow } from './hierarchy.ts';
import { copyMatrix } from './instance-matrix.ts';
import { decompose, matricesOf } from './instance-slots.ts';
import { adoptPending, convert } from './node-slots.ts';
import { EXTRAPOLATE, FOLLOWS_DEFAULT, INTERPOLATES, RESTING, WORLD } from './slot-table.ts';
import { M, type MeshEntry, S, type TrackerState } from './tracker-state.ts';

export function add<Node extends object>(
  st: TrackerState<Node>,
  node: Node,
  index: number,
  mode: InterpolationMode | undefined,
  flags: number,
): number {
  const poses = st.poses;
  const slot = poses.add(mode ?? st.defaultMode);
  st.slots.fit(poses);
  st.slots.claim(slot, node, index, flags | (mode === undefined ? FOLLOWS_DEFAULT : 0));
  setMode(st, slot, mode ?? st.defaultMode);
  if (index < 0) {
    st.platform.read(node, slot, st.slots.held, slot * S);
    copyComponents(poses.current, slot * S, st.slots.held, slot * S, ALL_COMPONENTS);
    st.platform.captured?.(node, slot);
    poses.reset(slot);
  }
  return slot;
}

/**
 * A new slot for instance `index` of `mesh` (its mesh entry made on the first), its matrix
 * decomposed as its simulation pose.
 */
export function addInstance<Node extends object>(
  st: TrackerState<Node>,
  mesh: Node,
  index: number,
  mode: InterpolationMode | undefined,
  flags: number,
): number {
  const matrices = matricesOf(st, mesh);
  const slot = add(st, mesh, index, mode, flags);
  let entry = st.meshes.get(mesh);
  if (entry === undefined) {
    entry = {
      mesh,
      slots: new Map(),
      dense: new Int32Array(0),
      matrices,
      written: false,
      version: st.platform.instancesVersion?.(mesh) ?? -1,
      unseen: false,
    };
    st.meshes.set(mesh, entry);
    st.meshList = [...st.meshList, entry];
    noteTrackedBelow(st, mesh, true);
  }
  entry.slots.set(index, slot);
  if (index >= entry.dense.length) {
    const dense = new Int32Array(Math.max(index + 1, entry.dense.length * 2));
    dense.set(entry.dense);
    entry.dense = dense;
  }
  entry.dense[index] = slot + 1;
  entry.matrices = matrices;
  st.entryOf[slot] = entry;
  const { heldMatrix, simMatrix } = st.slots;
  copyMatrix(heldMatrix, slot * M, matrices, index * M);
  copyMatrix(simMatrix, slot * M, matrices, index * M);
  decompose(st, matrices, index * M, st.poses.current, slot * S);
  st.poses.reset(slot);
  return slot;
}

export function classify<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const { nodes, flags, held, simLocal } = st.slots;
  const node = nodes[slot] as Node;
  const world = st.platform.simulatedInWorld?.(node) === true;
  if (world === ((flags[slot] & WORLD) !== 0)) return;
  adoptPending(st, slot);
  const r = slot * S;
  st.slots.setWorld(slot, world);
  if (world) {
    copyComponents(simLocal, r, held, r, ALL_COMPONENTS);
    convert(st, true, node, held, r, st.poses.current, r);
  } else {
    copyComponents(st.poses.current, r, held, r, ALL_COMPONENTS);
  }
  st.poses.reset(slot);
  st.slots.wake(slot, RESTING);
}

export function remove<Node extends object>(st: TrackerState<Node>, slot: number): void {
  st.poses.remove(slot);
  st.slots.release(slot);
  st.entryOf[slot] = undefined;
  if (st.poses.count === 0) {
    // empty: the storage of the peak goes back (the pose buffer gave its own back)
    st.slots.clear();
    st.entryOf.length = 0;
    st.awake = new Int32Array(64);
    st.quiet = new Uint8Array(1);
    st.list = new Int32Array(16);
  }
}

export function dropInstance<Node extends object>(
  st: TrackerState<Node>,
  entry: MeshEntry<Node>,
  index: number,
  slot: number,
): void {
  entry.slots.delete(index);
  if (index < entry.dense.length) entry.dense[index] = 0;
  remove(st, slot);
  if (entry.slots.size === 0) {
    if (st.lastEntry === entry) st.lastEntry = undefined;
    st.meshes.delete(entry.mesh);
    st.meshList = st.meshList.filter((e) => e !== entry);
  }
}

export function setMode<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  mode: InterpolationMode,
): void {
  st.poses.setMode(slot, mode);
  setFlag(st, slot, EXTRAPOLATE, mode === 'extrapolate');
  setFlag(st, slot, INTERPOLATES, mode === 'interpolate');
  st.slots.wake(slot, RESTING);
}

export function setFollows<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  mode: InterpolationMode | undefined,
): void {
  setFlag(st, slot, FOLLOWS_DEFAULT, mode === undefined);
  setMode(st, slot, mode ?? st.defaultMode);
}

export function setFlag<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  flag: number,
  on: boolean,
): void {
  const flags = st.slots.flags;
  flags[slot] = on ? flags[slot] | flag : flags[slot] & ~flag;
}
