/**
 * The capture of a node after a step: what the step left, in the node or in the engine's body,
 * becomes its current pose (a non-finite one refused); and the test that lets the capture pass
 * skip a node at rest the step did not touch. Functions over the shared {@link TrackerState}.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { copyRow, isFiniteRow, sameRow } from './components.ts';
import { convert, finishCapture, refuseNonFinite } from './simulation-rows.ts';
import {
  AT_REST,
  afterCapture,
  EXTRAPOLATES,
  RESET_AFTER_STEP,
  SIMULATED_IN_WORLD,
} from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';

/**
 * Capture of a node after a step (its current pose is still the one the step started from):
 * what the step left, in the node or the engine's body, becomes its current pose. The capture
 * pass skips a node {@link leftAtRest}.
 */
export function capture<Node extends object>(state: TrackerState<Node>, slot: number): void {
  const { nodes, flags, held } = state.slots;
  const node = nodes[slot] as Node;
  const platform = state.platform;
  const { current, previous } = state.poses;
  const r = slot * POSE_STRIDE;
  let from = held;
  let at = r;
  if (platform.capture !== undefined) {
    from = state.scratch;
    at = 0;
    if (!platform.capture(node, slot, from, 0)) copyRow(from, 0, previous, r);
  } else {
    // the node holds what the step left: read it straight into the ledger
    (platform.readStepped ?? platform.read).call(platform, node, slot, held, r);
    platform.captured?.(node, slot);
    if (flags[slot] & SIMULATED_IN_WORLD) {
      copyRow(state.slots.simLocal, r, held, r);
      from = state.scratch;
      at = 0;
      convert(state, true, node, held, r, from, 0);
    }
  }
  copyRow(current, r, from, at);
  let moved = !sameRow(current, r, previous, r);
  if (moved && !isFiniteRow(current, r)) {
    refuseNonFinite(state, slot);
    moved = !sameRow(current, r, previous, r);
  }
  flags[slot] = afterCapture(flags[slot], moved);
  if (flags[slot] & (EXTRAPOLATES | RESET_AFTER_STEP)) finishCapture(state, slot);
}

/**
 * Whether a capture of the slot would find nothing to do: it is at rest and the step left its
 * node as it was (the platform says so, or the node still holds the ledger's pose).
 */
export function leftAtRest<Node extends object>(state: TrackerState<Node>, slot: number): boolean {
  const flags = state.slots.flags[slot];
  const platform = state.platform;
  if (!(flags & AT_REST) || flags & (EXTRAPOLATES | RESET_AFTER_STEP)) return false;
  if (platform.capture !== undefined) return false;
  const node = state.slots.nodes[slot] as Node;
  if (platform.untouchedByStep?.(node, slot)) return true;
  const compare = platform.compare;
  return (
    compare !== undefined &&
    compare.call(platform, node, slot, state.slots.held, slot * POSE_STRIDE, true) === 0
  );
}
