/**
 * Resets through the scene graph: a reset of a node reaches its tracked descendants, and a write
 * adopted on a node teleports the same components on them. The graph is walked live (the
 * platform's `parentOf`), so reparenting needs no bookkeeping; only a reset pays for the walk.
 * @internal
 */

import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { type ComponentMask, copyComponents } from './components.ts';
import { upload } from './instance-slots.ts';
import { drawOutput } from './node-drawing.ts';
import { AT_REST, afterReset, HAS_TRACKED_BELOW, RESET_AFTER_STEP } from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';
import { adoptPendingOwn } from './write-check.ts';

/**
 * Lists in `#list` every tracked slot whose node (or instanced mesh) is `root` or lies below it,
 * `root`'s own slot first; returns the count.
 */
export function collect<Node extends object>(state: TrackerState<Node>, root: Node): number {
  let n = 0;
  const own = state.objects.get(root);
  if (own !== undefined) state.list[n++] = own;
  const leaf = state.platform.hasChildren?.(root) === false;
  const { nodes } = state.slots;
  const parentOf = state.platform;
  for (let slot = 0; slot < state.poses.size; slot++) {
    let node = nodes[slot] ?? null;
    if (slot === own || node === null) continue;
    if (leaf && node !== root) continue;
    while (node !== null && node !== root) node = parentOf.parentOf(node);
    if (node === null) continue;
    if (n === state.list.length) {
      const next = new Int32Array(n * 2);
      next.set(state.list);
      state.list = next;
    }
    state.list[n++] = slot;
  }
  return n;
}

/**
 * Adopts pending writes, resets and shows the first `n` listed slots. Inside the step the reset
 * happens when the step ends (Godot: interpolation is disabled "until the physics tick is
 * complete"), so the frame shows the pose the step ends with, not a blend from before.
 */
export function resetList<Node extends object>(state: TrackerState<Node>, n: number): void {
  const list = state.list;
  const flags = state.slots.flags;
  if (state.holding) {
    for (let k = 0; k < n; k++) flags[list[k]] |= RESET_AFTER_STEP;
    return;
  }
  for (let k = 0; k < n; k++) adoptPendingOwn(state, list[k]);
  for (let k = 0; k < n; k++) {
    state.poses.reset(list[k]);
    state.slots.wake(list[k], AT_REST);
    flags[list[k]] = afterReset(flags[list[k]]);
  }
  for (let k = 0; k < n; k++) drawOutput(state, list[k]);
  upload(state);
}

/**
 * Records that `node` (and, with `self`, `node` itself: an instanced mesh with tracked
 * instances) has something tracked below it: every ancestor goes into `state.above`, and a tracked
 * one is marked `HAS_TRACKED_BELOW`, so a write to it outside the step is adopted in the frame it
 * is made, at rest or not. Walks the ancestors only; called when a node or mesh is tracked and
 * when a write to a node is adopted (reparenting shows as one).
 */
export function noteTrackedBelow<Node extends object>(
  state: TrackerState<Node>,
  node: Node,
  self: boolean,
): void {
  const platform = state.platform;
  for (let above = self ? node : platform.parentOf(node); above !== null; ) {
    state.above.add(above);
    const slot = state.objects.get(above);
    if (slot !== undefined && !(state.slots.flags[slot] & HAS_TRACKED_BELOW)) {
      state.slots.flags[slot] |= HAS_TRACKED_BELOW;
      state.slots.wakes++;
    }
    above = platform.parentOf(above);
  }
}

/**
 * The components `mask` adopted on the slot's node teleport on its tracked descendants (and
 * instances): previous and output ← current for those components.
 */
export function resetDescendants<Node extends object>(
  state: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): void {
  const node = state.slots.nodes[slot] as Node;
  if (state.platform.hasChildren?.(node) === false && !state.meshes.has(node)) return;
  const n = collect(state, node);
  const poses = state.poses;
  const list = state.list;
  for (let k = 0; k < n; k++) {
    const d = list[k];
    if (d === slot) continue;
    // a write of its own since the last check stays (adopted, not overwritten)
    adoptPendingOwn(state, d);
    const r = d * POSE_STRIDE;
    copyComponents(poses.previous, r, poses.current, r, mask);
    copyComponents(poses.output, r, poses.current, r, mask);
    if (!state.holding) drawOutput(state, d);
  }
}
