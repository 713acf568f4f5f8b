/**
 * Adopting a write outside the step: the components written become the node's simulation pose
 * (write-check.ts) and teleport on its tracked descendants too (hierarchy.ts); and the redraw of
 * nodes simulated in world space after their parents moved. Functions over the shared
 * {@link TrackerState}.
 * @internal
 */
import type { ComponentMask } from './components.ts';
import { noteTrackedBelow, resetDescendants } from './hierarchy.ts';
import { drawRows } from './node-drawing.ts';
import { SIMULATED_IN_WORLD } from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';
import { adoptOwn, pendingComponents } from './write-check.ts';

/** Adopts the components `mask` written to the slot's node (found by the platform's `compare`). */
export function adoptWrite<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): void {
  state.platform.read(state.slots.nodes[slot] as Node, slot, state.scratch, 0);
  adopt(state, slot, mask);
}

/**
 * Adopts the components `mask` of the node's pose in scratch row 0; they teleport on its tracked
 * descendants too unless `alone` (the node is leaving the tracker).
 */
export function adopt<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
  alone = false,
): void {
  const adopted = adoptOwn(state, slot, mask);
  if (adopted === 0 || alone) return;
  resetDescendants(state, slot, adopted);
  noteTrackedBelow(state, state.slots.nodes[slot] as Node, false);
}

/**
 * Adopts a write made to the slot's node since a pass last checked it (outside the step); with
 * `alone`, without teleporting its descendants (it is being untracked).
 */
export function adoptPending<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  alone = false,
): void {
  const mask = pendingComponents(state, slot);
  if (mask !== 0) adopt(state, slot, mask, alone);
}

/**
 * `Tracker.rewriteWorldNodes`: every node simulated in world space drawn again in its parent's
 * frame as it is now (after parents may have moved).
 */
export function redrawWorldNodes<Node extends object>(state: TrackerState<Node>): void {
  // called every frame: without such nodes there is nothing to look for
  if (state.slots.worldCount === 0) return;
  const { nodes, flags, index } = state.slots;
  for (let slot = 0; slot < state.poses.size; slot++) {
    if (nodes[slot] !== undefined && flags[slot] & SIMULATED_IN_WORLD && index[slot] < 0) {
      adoptPending(state, slot);
      drawRows(state, slot, state.poses.output);
    }
  }
}
