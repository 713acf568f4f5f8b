/**
 * What changes a slot's simulation rows besides a capture: a pose made its simulation pose with
 * its interpolation reset (`adoptRow`), a non-finite pose refused, the rare end of a capture
 * (the engine's velocity, a reset asked for inside the step), and the conversion between the
 * space a node is stored in and the one it is simulated in. Functions over the shared
 * {@link TrackerState}.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import {
  ALL_COMPONENTS,
  type ComponentMask,
  copyComponents,
  nonFiniteComponents,
} from './components.ts';
import { EXTRAPOLATES, RESET_AFTER_STEP, SIMULATED_IN_WORLD } from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';

/**
 * Makes the components `mask` of the stored pose `from[at..]` the slot's simulation values,
 * with their interpolation reset (previous = current = output).
 */
export function adoptRow<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  from: Float64Array,
  mask: ComponentMask,
): void {
  const r = slot * POSE_STRIDE;
  const poses = state.poses;
  let source = from;
  let at = 0;
  if (state.slots.flags[slot] & SIMULATED_IN_WORLD) {
    const local = state.slots.simLocal;
    copyComponents(local, r, from, 0, mask);
    source = state.scratch;
    at = 2 * POSE_STRIDE;
    convert(state, true, state.slots.nodes[slot] as Node, local, r, source, at);
  }
  copyComponents(poses.current, r, source, at, mask);
  copyComponents(poses.previous, r, source, at, mask);
  copyComponents(poses.output, r, source, at, mask);
  state.slots.wake(slot);
}

/**
 * A step left a number that is not finite in the slot's current pose: the components holding
 * one keep the pose they had before the step (Unity refuses a NaN written to a transform;
 * docs/guarantees.md, "Non-finite poses"). Counted in `TrackerState.refused`.
 */
export function refuseNonFinite<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
): void {
  const r = slot * POSE_STRIDE;
  copyComponents(
    state.poses.current,
    r,
    state.poses.previous,
    r,
    nonFiniteComponents(state.poses.current, r),
  );
  state.refused++;
}

/** The rare part of a capture: the engine's velocity (`'extrapolate'`), a reset asked for inside the step. */
export function finishCapture<Node extends object>(state: TrackerState<Node>, slot: number): void {
  const flags = state.slots.flags;
  if (flags[slot] & EXTRAPOLATES) velocity(state, slot);
  if (flags[slot] & RESET_AFTER_STEP) {
    state.poses.reset(slot);
    flags[slot] &= ~RESET_AFTER_STEP;
  }
}

/** The engine's velocity of the slot, for `'extrapolate'` (a moving one wakes the slot). */
export function velocity<Node extends object>(state: TrackerState<Node>, slot: number): void {
  const velocity = state.platform.velocity;
  if (velocity === undefined) return;
  const s = state.scratch;
  const v = 3 * POSE_STRIDE;
  const node = state.slots.nodes[slot] as Node;
  if (!velocity.call(state.platform, node, state.slots.index[slot], s, v)) return;
  state.poses.setVelocityFrom(slot, s, v);
  if (
    s[v] !== 0 ||
    s[v + 1] !== 0 ||
    s[v + 2] !== 0 ||
    s[v + 3] !== 0 ||
    s[v + 4] !== 0 ||
    s[v + 5] !== 0
  ) {
    state.slots.wake(slot);
  }
}

/**
 * Converts a pose of `node` from the space it is stored in to the one it is simulated in
 * (`toWorld`: the platform's `toSimulation`) or back (`toLocal`); a copy without them.
 */
export function convert<Node extends object>(
  state: TrackerState<Node>,
  toWorld: boolean,
  node: Node,
  from: Float64Array,
  at: number,
  to: Float64Array,
  toAt: number,
): void {
  const platform = state.platform;
  const conversion = toWorld ? platform.toSimulation : platform.toLocal;
  if (conversion === undefined) copyComponents(to, toAt, from, at, ALL_COMPONENTS);
  else conversion.call(platform, node, from, at, to, toAt);
}
