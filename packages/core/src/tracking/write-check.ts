/**
 * The write check of one slot: which components others wrote to its node since the tracker last
 * left it (the ledger compared, NaN equal to NaN), and adopting them as its own simulation pose
 * — a reparenting of a node simulated in world space re-expressed instead. Functions over the
 * shared {@link TrackerState}; adopt-writes.ts adds the descendants.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import {
  ALL_COMPONENTS,
  type ComponentMask,
  copyComponents,
  differingComponents,
  REPARENTED,
  ROTATION,
} from './components.ts';
import { checkInstance, upload } from './instance-slots.ts';
import { drawRows } from './node-drawing.ts';
import { adoptRow, convert } from './simulation-rows.ts';
import { SIMULATED_IN_WORLD } from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';

/**
 * The components others wrote to the slot's node since the tracker last left it; when there
 * are any, the node's pose is in scratch row 0.
 */
export function writtenComponents<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  thorough = true,
): ComponentMask {
  const node = state.slots.nodes[slot] as Node;
  const platform = state.platform;
  const s = state.scratch;
  if (platform.compare !== undefined) {
    const mask = platform.compare(node, slot, state.slots.held, slot * POSE_STRIDE, thorough);
    if (mask !== 0) platform.read(node, slot, s, 0);
    return mask;
  }
  platform.read(node, slot, s, 0);
  return differingComponents(s, 0, state.slots.held, slot * POSE_STRIDE);
}

/**
 * The node's parent changed (`REPARENTED`). A node simulated in world space, before or after,
 * keeps its simulation pose where the engine has it (a root's local space is the world) and is
 * re-expressed in its new parent's space: the body stays where the engine put it. For any other
 * node the new local numbers are an ordinary write: returns the components to adopt.
 */
function reparent<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): ComponentMask {
  const { nodes, flags, held, simLocal } = state.slots;
  const node = nodes[slot] as Node;
  const world = state.platform.simulatedInWorld?.(node) === true;
  if (!world && !(flags[slot] & SIMULATED_IN_WORLD)) return mask & ALL_COMPONENTS;
  const r = slot * POSE_STRIDE;
  state.slots.setWorld(slot, world);
  state.platform.read(node, slot, held, r);
  if (world) convert(state, false, node, state.poses.current, r, simLocal, r);
  if (!state.holding) drawRows(state, slot, state.poses.output);
  return 0;
}

/**
 * Adopts the components `mask` of the node's pose in scratch row 0 (from `written`) as
 * its own simulation pose — its descendants are left to the caller (adopt-writes.ts) — and moves
 * the engine's body there. A reparenting (`REPARENTED`) is handled first. Returns the components
 * adopted.
 */
export function adoptOwn<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): ComponentMask {
  if (mask & REPARENTED) {
    mask = reparent(state, slot, mask);
    if (mask === 0) return 0;
  }
  const node = state.slots.nodes[slot] as Node;
  copyComponents(state.slots.held, slot * POSE_STRIDE, state.scratch, 0, mask);
  adoptRow(state, slot, state.scratch, mask);
  if (mask & ROTATION) state.platform.captured?.(node, slot);
  state.platform.adopted?.(node, slot, state.poses.current, slot * POSE_STRIDE, mask, -1);
  return mask;
}

/**
 * Adopts a write made to the slot's node (or instance matrix) since a pass last checked it,
 * outside the step, as its own simulation pose (its descendants are left alone).
 */
export function adoptPendingOwn<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
): void {
  const mask = pendingComponents(state, slot);
  if (mask !== 0) adoptOwn(state, slot, mask);
}

/**
 * Outside the step, the components others wrote to the slot's node since a pass last checked it
 * (the node's pose then in scratch row 0); an instance's written matrix is adopted here and 0
 * returned. Inside the step: 0 (the node is the simulation there).
 */
export function pendingComponents<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
): ComponentMask {
  if (state.holding) return 0;
  if (state.slots.index[slot] >= 0) {
    checkInstance(state, slot);
    upload(state);
    return 0;
  }
  return writtenComponents(state, slot);
}
