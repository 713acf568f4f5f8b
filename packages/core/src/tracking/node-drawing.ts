/**
 * Writing poses to nodes: the simulation pose put back before the steps (`restore`), a row
 * drawn in the node's stored space (`drawRows`), component by component where the node does not
 * hold it yet (`writeStoredPose`), and a slot's output drawn, node or instance (`drawOutput`).
 * The ledger (`SlotTable.held`) records what each write left. Functions over the shared
 * {@link TrackerState}.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { copyComponents, differingComponents, POSITION, ROTATION, SCALE } from './components.ts';
import { drawInstanceRow } from './instance-slots.ts';
import { convert } from './simulation-rows.ts';
import { SIMULATED_IN_WORLD } from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';

/** Puts the slot's simulation pose back into its node (stored numbers, exactly). */
export function restore<Node extends object>(state: TrackerState<Node>, slot: number): void {
  if (state.slots.flags[slot] & SIMULATED_IN_WORLD)
    writeStoredPose(state, slot, state.slots.simLocal, slot * POSE_STRIDE, true);
  else writeStoredPose(state, slot, state.poses.current, slot * POSE_STRIDE, true);
}

/** Draws row `slot` of `rows` (simulation space) into the node, converted to its stored space. */
export function drawRows<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  rows: Float64Array,
): void {
  if (state.slots.flags[slot] & SIMULATED_IN_WORLD) {
    const s = state.scratch;
    convert(state, false, state.slots.nodes[slot] as Node, rows, slot * POSE_STRIDE, s, 0);
    writeStoredPose(state, slot, s, 0);
  } else {
    writeStoredPose(state, slot, rows, slot * POSE_STRIDE);
  }
}

/**
 * Writes the components of the stored pose `from[at..]` the node does not hold yet;
 * `simulation` when it is the simulation pose last captured (see `writeRotation`).
 */
export function writeStoredPose<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  from: Float64Array,
  at: number,
  simulation = false,
): void {
  const held = state.slots.held;
  const r = slot * POSE_STRIDE;
  const mask = differingComponents(from, at, held, r);
  if (mask === 0) return;
  const node = state.slots.nodes[slot] as Node;
  const platform = state.platform;
  if (mask & POSITION) platform.writePosition(node, slot, from, at);
  if (mask & ROTATION) platform.writeRotation(node, slot, from, at, simulation);
  if (mask & SCALE) platform.writeScale(node, slot, from, at);
  copyComponents(held, r, from, at, mask);
}

/** Draws the slot's output row into its sink: the node, or the instance matrix. */
export function drawOutput<Node extends object>(state: TrackerState<Node>, slot: number): void {
  if (state.slots.index[slot] >= 0) drawInstanceRow(state, slot, state.poses.output);
  else drawRows(state, slot, state.poses.output);
}
