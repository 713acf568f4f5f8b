/**
 * Resets through the scene graph: a reset of a node reaches its tracked descendants, and a write
 * adopted on a node teleports the same components on them. The graph is walked live (the
 * platform's `parentOf`), so reparenting needs no bookkeeping; only a reset pays for the walk.
 * @internal
 */
import { type ComponentMask, copyComponents } from './components.ts';
import { upload } from './instance-slots.ts';
import { adoptPending, showOutput } from './node-slots.ts';
import { HAS_TRACKED_BELOW, RESET_AFTER_STEP, RESTING, SETTLED } from './slot-table.ts';
import { S, type TrackerState } from './tracker-state.ts';

/**
 * Lists in `#list` every tracked slot whose node (or instanced mesh) is `root` or lies below it,
 * `root`'s own slot first; returns the count.
 */
export function collect<Node extends object>(st: TrackerState<Node>, root: Node): number {
  let n = 0;
  const own = st.objects.get(root);
  if (own !== undefined) st.list[n++] = own;
  const leaf = st.platform.hasChildren?.(root) === false;
  const { nodes } = st.slots;
  const parentOf = st.platform;
  for (let slot = 0; slot < st.poses.size; slot++) {
    let node = nodes[slot] ?? null;
    if (slot === own || node === null) continue;
    if (leaf && node !== root) continue;
    while (node !== null && node !== root) node = parentOf.parentOf(node);
    if (node === null) continue;
    if (n === st.list.length) {
      const next = new Int32Array(n * 2);
      next.set(st.list);
      st.list = next;
    }
    st.list[n++] = slot;
  }
  return n;
}

/**
 * Adopts pending writes, resets and shows the first `n` listed slots. Inside the step the reset
 * happens when the step ends (Godot: interpolation is disabled "until the physics tick is
 * complete"), so the frame shows the pose the step ends with, not a blend from before.
 */
export function resetList<Node extends object>(st: TrackerState<Node>, n: number): void {
  const list = st.list;
  const flags = st.slots.flags;
  if (st.holding) {
    for (let k = 0; k < n; k++) flags[list[k]] |= RESET_AFTER_STEP;
    return;
  }
  for (let k = 0; k < n; k++) adoptPending(st, list[k]);
  for (let k = 0; k < n; k++) {
    st.poses.reset(list[k]);
    st.slots.wake(list[k], RESTING);
    flags[list[k]] |= SETTLED;
  }
  for (let k = 0; k < n; k++) showOutput(st, list[k]);
  upload(st);
}

/**
 * Records that `node` (and, with `self`, `node` itself: an instanced mesh with tracked
 * instances) has something tracked below it: every ancestor goes into `st.above`, and a tracked
 * one is marked `HAS_TRACKED_BELOW`, so a write to it outside the step is adopted in the frame it
 * is made, at rest or not. Walks the ancestors only; called when a node or mesh is tracked and
 * when a write to a node is adopted (reparenting shows as one).
 */
export function noteTrackedBelow<Node extends object>(
  st: TrackerState<Node>,
  node: Node,
  self: boolean,
): void {
  const platform = st.platform;
  for (let above = self ? node : platform.parentOf(node); above !== null; ) {
    st.above.add(above);
    const slot = st.objects.get(above);
    if (slot !== undefined && !(st.slots.flags[slot] & HAS_TRACKED_BELOW)) {
      st.slots.flags[slot] |= HAS_TRACKED_BELOW;
      st.slots.wakes++;
    }
    above = platform.parentOf(above);
  }
}

export function resetDescendants<Node extends object>(
  st: TrackerState<Node>,
  slot: number,
  mask: ComponentMask,
): void {
  const node = st.slots.nodes[slot] as Node;
  if (st.platform.hasChildren?.(node) === false && !st.meshes.has(node)) return;
  const n = collect(st, node);
  const poses = st.poses;
  const list = st.list;
  for (let k = 0; k < n; k++) {
    const d = list[k];
    if (d === slot) continue;
    // a write of its own since the last check stays (adopted, not overwritten)
    adoptPending(st, d, true);
    const r = d * S;
    copyComponents(poses.previous, r, poses.current, r, mask);
    copyComponents(poses.output, r, poses.current, r, mask);
    if (!st.holding) showOutput(st, d);
  }
}
