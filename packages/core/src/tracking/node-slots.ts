/**
 * The tracker's per-slot steps for a node: the write check, adopting a write as the simulation
 * pose, restoring the simulation pose, writing a render pose component by component, capturing
 * what a step left. Functions over the shared {@link TrackerState}.
 * @internal
 */
import {
  ALL_COMPONENTS,
  type ComponentMask,
  copyComponents,
  copyRow,
  differingComponents,
  isFiniteRow,
  nonFiniteComponents,
  POSITION,
  REPARENTED,
  ROTATION,
  SCALE,
  sameRow,
} from './components.ts';
import { noteTrackedBelow, resetDescendants } from './hierarchy.ts';
import { checkInstance, showInstanceRow, upload } from './instance-slots.ts';
import { EXTRAPOLATE, RESET_AFTER_STEP, RESTING, SETTLED, WORLD } from './slot-table.ts';
import { S, type TrackerState } from './tracker-state.ts';

/**
 * The components others wrote to the slot's node since the tracker last left it; when there
 * are any, the node's pose is in scratch row 0.
 */
export function written<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  thorough = true,
): ComponentMask {
  const node = st.slots.nodes[slot] as Node;
  const platform = st.platform;
  const s = st.scratch;
  if (platform.compare !== undefined) {
    const mask = platform.compare(node, slot, st.slots.held, slot * S, thorough);
    if (mask !== 0) platform.read(node, slot, s, 0);
    return mask;
  }
  platform.read(node, slot, s, 0);
  return differingComponents(s, 0, st.slots.held, slot * S);
}

/** Adopts the components `mask` written to the slot's node (found by the platform's `compare`). */
export function adoptWrite<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): void {
  st.platform.read(st.slots.nodes[slot] as Node, slot, st.scratch, 0);
  adopt(st, slot, mask);
}

/**
 * Adopts the components `mask` of the node's pose in scratch row 0 (from `#written`); they
 * teleport on its tracked descendants too unless `alone` (the node is leaving the tracker).
 */
export function adopt<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
  alone = false,
): void {
  if (mask & REPARENTED) {
    mask = reparent(st, slot, mask);
    if (mask === 0) return;
  }
  const node = st.slots.nodes[slot] as Node;
  copyComponents(st.slots.held, slot * S, st.scratch, 0, mask);
  adoptRow(st, slot, st.scratch, mask);
  if (mask & ROTATION) st.platform.captured?.(node, slot);
  if (!alone) {
    resetDescendants(st, slot, mask);
    noteTrackedBelow(st, node, false);
  }
  st.platform.adopted?.(node, slot, st.poses.current, slot * S, mask, -1);
}

/**
 * The node's parent changed (`REPARENTED`). A node simulated in world space, before or after,
 * keeps its simulation pose where the engine has it (a root's local space is the world) and is
 * re-expressed in its new parent's space: the body stays where the engine put it. For any other
 * node the new local numbers are an ordinary write: returns the components to adopt.
 */
function reparent<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): ComponentMask {
  const { nodes, flags, held, simLocal } = st.slots;
  const node = nodes[slot] as Node;
  const world = st.platform.simulatedInWorld?.(node) === true;
  if (!world && !(flags[slot] & WORLD)) return mask & ALL_COMPONENTS;
  const r = slot * S;
  st.slots.setWorld(slot, world);
  st.platform.read(node, slot, held, r);
  if (world) convert(st, false, node, st.poses.current, r, simLocal, r);
  if (!st.holding) show(st, slot, st.poses.output);
  return 0;
}

/**
 * Makes the components `mask` of the stored pose `from[at..]` the slot's simulation values,
 * with their interpolation reset (previous = current = output).
 */
export function adoptRow<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  from: Float64Array,
  mask: ComponentMask,
): void {
  const r = slot * S;
  const poses = st.poses;
  let source = from;
  let at = 0;
  if (st.slots.flags[slot] & WORLD) {
    const local = st.slots.simLocal;
    copyComponents(local, r, from, 0, mask);
    source = st.scratch;
    at = 2 * S;
    convert(st, true, st.slots.nodes[slot] as Node, local, r, source, at);
  }
  copyComponents(poses.current, r, source, at, mask);
  copyComponents(poses.previous, r, source, at, mask);
  copyComponents(poses.output, r, source, at, mask);
  st.slots.wake(slot);
}

/**
 * Adopts a write made to the slot's node since a pass last checked it (outside the step); with
 * `alone`, without teleporting its descendants (it is being untracked).
 */
export function adoptPending<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  alone = false,
): void {
  if (st.holding) return;
  if (st.slots.index[slot] >= 0) {
    checkInstance(st, slot);
    upload(st);
    return;
  }
  const mask = written(st, slot);
  if (mask !== 0) adopt(st, slot, mask, alone);
}

export function restore<Node extends object>(st: TrackerState<Node>, slot: number): void {
  if (st.slots.flags[slot] & WORLD) showStored(st, slot, st.slots.simLocal, slot * S, true);
  else showStored(st, slot, st.poses.current, slot * S, true);
}

export function show<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  rows: Float64Array,
): void {
  if (st.slots.flags[slot] & WORLD) {
    const s = st.scratch;
    convert(st, false, st.slots.nodes[slot] as Node, rows, slot * S, s, 0);
    showStored(st, slot, s, 0);
  } else {
    showStored(st, slot, rows, slot * S);
  }
}

/**
 * Writes the components of the stored pose `from[at..]` the node does not hold yet;
 * `simulation` when it is the simulation pose last captured (see `writeRotation`).
 */
export function showStored<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  from: Float64Array,
  at: number,
  simulation = false,
): void {
  const held = st.slots.held;
  const r = slot * S;
  const mask = differingComponents(from, at, held, r);
  if (mask === 0) return;
  const node = st.slots.nodes[slot] as Node;
  const platform = st.platform;
  if (mask & POSITION) platform.writePosition(node, slot, from, at);
  if (mask & ROTATION) platform.writeRotation(node, slot, from, at, simulation);
  if (mask & SCALE) platform.writeScale(node, slot, from, at);
  copyComponents(held, r, from, at, mask);
}

export function showOutput<Node extends object>(st: TrackerState<Node>, slot: number): void {
  if (st.slots.index[slot] >= 0) showInstanceRow(st, slot, st.poses.output);
  else show(st, slot, st.poses.output);
}

/**
 * Capture of a node after a step (its current pose is still the one the step started from):
 * what the step left, in the node or the engine's body, becomes its current pose. The capture
 * pass skips a node {@link leftAtRest}.
 */
export function capture<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const { nodes, flags, held } = st.slots;
  const node = nodes[slot] as Node;
  const platform = st.platform;
  const { current, previous } = st.poses;
  const r = slot * S;
  let from = held;
  let at = r;
  if (platform.capture !== undefined) {
    from = st.scratch;
    at = 0;
    if (!platform.capture(node, slot, from, 0)) copyRow(from, 0, previous, r);
  } else {
    // the node holds what the step left: read it straight into the ledger
    (platform.readStepped ?? platform.read).call(platform, node, slot, held, r);
    platform.captured?.(node, slot);
    if (flags[slot] & WORLD) {
      copyRow(st.slots.simLocal, r, held, r);
      from = st.scratch;
      at = 0;
      convert(st, true, node, held, r, from, 0);
    }
  }
  copyRow(current, r, from, at);
  let moved = !sameRow(current, r, previous, r);
  if (moved && !isFiniteRow(current, r)) {
    refuseNonFinite(st, slot);
    moved = !sameRow(current, r, previous, r);
  }
  flags[slot] = settle(flags[slot], moved);
  if (flags[slot] & (EXTRAPOLATE | RESET_AFTER_STEP)) finishCapture(st, slot);
}

/**
 * A step left a number that is not finite in the slot's current pose: the components holding
 * one keep the pose they had before the step (Unity refuses a NaN written to a transform;
 * docs/guarantees.md, "Non-finite poses"). Counted in `TrackerState.refused`.
 */
export function refuseNonFinite<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const r = slot * S;
  copyComponents(
    st.poses.current,
    r,
    st.poses.previous,
    r,
    nonFiniteComponents(st.poses.current, r),
  );
  st.refused++;
}

/**
 * Whether a capture of the slot would find nothing to do: it is at rest and the step left its
 * node as it was (the platform says so, or the node still holds the ledger's pose).
 */
export function leftAtRest<Node extends object>(st: TrackerState<Node>, slot: number): boolean {
  const flags = st.slots.flags[slot];
  const platform = st.platform;
  if (!(flags & RESTING) || flags & (EXTRAPOLATE | RESET_AFTER_STEP)) return false;
  if (platform.capture !== undefined) return false;
  const node = st.slots.nodes[slot] as Node;
  if (platform.untouchedByStep?.(node, slot)) return true;
  const compare = platform.compare;
  return (
    compare !== undefined && compare.call(platform, node, slot, st.slots.held, slot * S, true) === 0
  );
}

/**
 * A slot's flags after a capture: one that moved is awake; one that did not has settled
 * (previous = current), and the next interpolation pass puts it to rest.
 */
export function settle(flags: number, moved: boolean): number {
  if (moved) return flags & ~(RESTING | SETTLED);
  return flags & RESTING ? flags : flags | SETTLED;
}

/** The rare part of a capture: the engine's velocity (`'extrapolate'`), a reset asked for inside the step. */
export function finishCapture<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const flags = st.slots.flags;
  if (flags[slot] & EXTRAPOLATE) velocity(st, slot);
  if (flags[slot] & RESET_AFTER_STEP) {
    st.poses.reset(slot);
    flags[slot] &= ~RESET_AFTER_STEP;
  }
}

export function velocity<Node extends object>(st: TrackerState<Node>, slot: number): void {
  const velocity = st.platform.velocity;
  if (velocity === undefined) return;
  const s = st.scratch;
  const v = 3 * S;
  const node = st.slots.nodes[slot] as Node;
  if (!velocity.call(st.platform, node, st.slots.index[slot], s, v)) return;
  st.poses.setVelocityFrom(slot, s, v);
  if (
    s[v] !== 0 ||
    s[v + 1] !== 0 ||
    s[v + 2] !== 0 ||
    s[v + 3] !== 0 ||
    s[v + 4] !== 0 ||
    s[v + 5] !== 0
  ) {
    st.slots.wake(slot);
  }
}

/**
 * Converts a pose of `node` from the space it is stored in to the one it is simulated in
 * (`toWorld`: the platform's `toSimulation`) or back (`toLocal`); a copy without them.
 */
export function convert<Node extends object>(
  st: TrackerState<Node>,
  toWorld: boolean,
  node: Node,
  from: Float64Array,
  at: number,
  to: Float64Array,
  toAt: number,
): void {
  const platform = st.platform;
  const conversion = toWorld ? platform.toSimulation : platform.toLocal;
  if (conversion === undefined) copyComponents(to, toAt, from, at, ALL_COMPONENTS);
  else conversion.call(platform, node, from, at, to, toAt);
}
