/**
 * The tracker's passes over every slot, at the loop's fixed points of a frame (`LoopAdapter`):
 * the write check and restore before the steps, the capture after each step (the last one's
 * left to the interpolation pass, which runs right after it), and the interpolation pass, each
 * a tight loop of its own (docs/performance.md, "The tracker"). Functions over the shared
 * {@link TrackerState}.
 * @internal
 */
import type { FrameContext } from '../frame-context.ts';
import { copyRow, POSITION, ROTATION, SCALE, takeDiffering } from './components.ts';
import { composeMatrices, composeMatrix, sameMatrix } from './instance-matrix.ts';
import {
  beginCheck,
  captureInstance,
  checkInstance,
  refreshMatrices,
  restoreInstance,
  upload,
} from './instance-slots.ts';
import { adoptWrite, capture, leftAtRest, restore, show, written } from './node-slots.ts';
import {
  DRAWN,
  HAS_TRACKED_BELOW,
  INTERPOLATES,
  POSED,
  RESTING,
  RESTORE,
  SETTLED,
  WORLD,
} from './slot-table.ts';
import { M, type MeshEntry, S, type TrackerState } from './tracker-state.ts';

export function beginFrame<Node extends object>(st: TrackerState<Node>): void {
  refreshMatrices(st);
  st.checkPending = true;
  st.capturePending = false;
  st.holding = false;
}

export function beforeSteps<Node extends object>(st: TrackerState<Node>): void {
  const check = st.checkPending;
  st.checkPending = false;
  // an engine that holds the simulation itself may say nothing reads its nodes in the step
  const restore = st.platform.restoresNodes !== false;
  const size = nodeSlots(st);
  for (let from = 0; from < size; from += BLOCK) {
    const to = Math.min(size, from + BLOCK);
    if (check) checkNodes(st, true, from, to);
    // a quiet block, if nothing woke since (its write check included), is all at rest: its
    // nodes hold their simulation poses already
    const quiet = st.quiet[from / BLOCK] === 1 && st.quietAsOf === st.slots.wakes;
    if (restore && !quiet) restoreNodes(st, from, to);
  }
  if (st.meshList.length !== 0) checkInstances(st, check && beginCheck(st), check, true);
  shiftAwake(st);
  st.holding = true;
  upload(st);
}

/**
 * Capture: the pose the step left becomes the current simulation pose. The frame's last step
 * is captured by the interpolation pass instead (nothing reads the poses in between).
 */
export function afterStep<Node extends object>(st: TrackerState<Node>, lastStep: boolean): void {
  if (lastStep) {
    st.capturePending = true;
    return;
  }
  captureNodes(st, 0, nodeSlots(st), ANY_SPACE);
  if (st.meshList.length !== 0) captureInstances(st);
  // the next step starts from this one's pose
  shiftAwake(st);
}

/**
 * The capture of the frame's last step (if it ran one), then the render pose of every slot
 * that is not at rest, for the loop's alpha: the write check; the awake slots in
 * `'interpolate'` mode collected and lerped all in one loop (`interpolateList`), the others
 * one at a time; the writes. Nodes go block by block (docs/performance.md, "The tracker").
 */
export function interpolate<Node extends object>(
  st: TrackerState<Node>,
  frame: FrameContext,
): void {
  const check = st.checkPending;
  const captureLast = st.capturePending;
  st.checkPending = false;
  st.capturePending = false;
  st.holding = false;
  const poses = st.poses;
  poses.setClock(frame);
  if (st.awake.length < poses.size) st.awake = new Int32Array(poses.capacity);
  const size = nodeSlots(st);
  // a capture in world space reads the parent: all of them before any node is written
  if (captureLast && st.slots.worldCount !== 0) captureNodes(st, 0, size, WORLD);
  const blocks = Math.ceil(size / BLOCK);
  if (st.quiet.length < blocks) st.quiet = new Uint8Array(Math.max(blocks, 2 * st.quiet.length));
  const quiet = st.quiet;
  // quiet blocks: without steps only a wake-up gives a node at rest anything to draw
  // (docs/performance.md, "The tracker")
  const skipQuiet = !captureLast && st.quietAsOf === st.slots.wakes;
  st.quietAsOf = st.slots.wakes;
  // in blocks of slots small enough to stay in the cache from the capture to the write
  for (let block = 0; block < blocks; block++) {
    if (skipQuiet && quiet[block] === 1) continue;
    const from = block * BLOCK;
    const to = Math.min(size, from + BLOCK);
    if (captureLast) captureNodes(st, from, to, 0);
    if (check) checkNodes(st, false, from, to);
    const count = collectNodes(st, from, to);
    poses.interpolateList(st.awake, count);
    writeNodes(st, count);
  }
  if (st.meshList.length !== 0) {
    if (captureLast) captureInstances(st);
    if (check) checkInstances(st, beginCheck(st), true, false);
    const count = collectInstances(st);
    poses.interpolateList(st.awake, count);
    writeInstances(st);
  }
  upload(st);
}

/**
 * The slots the node passes go through: all of them, or none when no node is tracked (only
 * instances, which have passes of their own).
 */
function nodeSlots<Node extends object>(st: TrackerState<Node>): number {
  return st.objects.size !== 0 ? st.poses.size : 0;
}

/** `captureNodes` of every node, whatever space it is simulated in. */
const ANY_SPACE = -1;

/**
 * Slots in a block of the pass before the steps and of the interpolation pass: a block's rows
 * stay in the cache from its capture to its write (docs/performance.md, "The tracker").
 */
const BLOCK = 128;

// Each pass below is one loop and nothing after it: V8 compiles a hot loop while it runs (on-stack
// replacement), and code after the loop that has not run yet would throw that code away again
// (docs/performance.md, "The tracker").

/**
 * The write check of the nodes from `from` to `to`: components others wrote since the tracker
 * last left them are adopted as simulation pose (per component). `thorough` before the steps;
 * otherwise right before the interpolation pass writes the nodes, which skips those at rest (it
 * does not write them).
 */
function checkNodes<Node extends object>(
  st: TrackerState<Node>,
  thorough: boolean,
  from: number,
  to: number,
): void {
  const { nodes, index, flags, held } = st.slots;
  const platform = st.platform;
  const compare = platform.compare;
  for (let slot = from; slot < to; slot++) {
    const node = nodes[slot];
    if (node === undefined || index[slot] >= 0) continue;
    // at rest, a frame without steps leaves it alone unless a write to it resets others
    if (!thorough && (flags[slot] & (RESTING | HAS_TRACKED_BELOW)) === RESTING) continue;
    const mask =
      compare !== undefined
        ? compare.call(platform, node, slot, held, slot * S, thorough)
        : written(st, slot, thorough);
    if (mask !== 0) adoptWrite(st, slot, mask);
  }
}

/**
 * The write check of every instance (when `check`: a matrix others wrote is adopted), and with
 * `restore` the simulation matrix put back where code reads instances in the step. An instance
 * moved with `setInstancePose` is checked only if its mesh's matrices were flagged for upload
 * by someone else (`unseen`: some mesh's were, from `beginCheck`; docs/three.md, "Instanced
 * meshes").
 */
function checkInstances<Node extends object>(
  st: TrackerState<Node>,
  unseen: boolean,
  check: boolean,
  restore: boolean,
): void {
  const { nodes, index, flags, heldMatrix } = st.slots;
  const size = st.poses.size;
  for (let slot = 0; slot < size; slot++) {
    // nothing to do for an instance moved with setInstancePose while no mesh is unseen
    if (!unseen && (flags[slot] & (POSED | RESTORE)) === POSED) continue;
    if (nodes[slot] === undefined || index[slot] < 0) continue;
    if (!restore && flags[slot] & RESTING) continue;
    const entry = st.entryOf[slot] as MeshEntry<Node>;
    const matrices = entry.matrices;
    if (matrices === null) continue;
    // (a ledger left to settleLedger compares unequal here; checkInstance settles it first)
    if (
      check &&
      (entry.unseen || !(flags[slot] & POSED)) &&
      !sameMatrix(matrices, index[slot] * M, heldMatrix, slot * M)
    ) {
      checkInstance(st, slot);
    }
    if (restore && flags[slot] & RESTORE) restoreInstance(st, slot);
  }
}

/**
 * Previous ← current for every slot not at rest (a step starts from a copy of the current
 * pose); a slot at rest has previous = current already.
 */
function shiftAwake<Node extends object>(st: TrackerState<Node>): void {
  const flags = st.slots.flags;
  const { size, previous, current } = st.poses;
  for (let slot = 0; slot < size; slot++) {
    if (!(flags[slot] & RESTING)) copyRow(previous, slot * S, current, slot * S);
  }
}

/** The nodes from `from` to `to` not at rest get their simulation pose back before the steps. */
function restoreNodes<Node extends object>(st: TrackerState<Node>, from: number, to: number): void {
  const { nodes, index, flags, held } = st.slots;
  const platform = st.platform;
  const current = st.poses.current;
  for (let slot = from; slot < to; slot++) {
    const node = nodes[slot];
    // at rest the node holds its simulation pose already
    if (node === undefined || index[slot] >= 0 || flags[slot] & RESTING) continue;
    const r = slot * S;
    if (flags[slot] & WORLD) {
      restore(st, slot);
      continue;
    }
    const mask = takeDiffering(held, r, current, r);
    if (mask & POSITION) platform.writePosition(node, slot, current, r);
    if (mask & ROTATION) platform.writeRotation(node, slot, current, r, true);
    if (mask & SCALE) platform.writeScale(node, slot, current, r);
  }
}

/**
 * Capture of the nodes from `from` to `to` simulated in world space (`space` = `WORLD`), in
 * their stored space (0) or either (`ANY_SPACE`): what the step left becomes their current pose.
 */
function captureNodes<Node extends object>(
  st: TrackerState<Node>,
  from: number,
  to: number,
  space: number,
): void {
  const { nodes, index, flags } = st.slots;
  for (let slot = from; slot < to; slot++) {
    if (nodes[slot] === undefined || index[slot] >= 0) continue;
    if (space !== ANY_SPACE && (flags[slot] & WORLD) !== space) continue;
    if (!leftAtRest(st, slot)) capture(st, slot);
  }
}

function captureInstances<Node extends object>(st: TrackerState<Node>): void {
  const { nodes, index } = st.slots;
  const size = st.poses.size;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] !== undefined && index[slot] >= 0) captureInstance(st, slot);
  }
}

/**
 * Lists the awake nodes from `from` to `to` in `'interpolate'` mode in `st.awake` and returns
 * how many; the other awake nodes ('none', 'extrapolate', simulated in world space: rare) are
 * interpolated and written here, one at a time. Marks the block quiet (`st.quiet`) when this
 * pass leaves every node in it at rest. `from` is the first slot of a block.
 */
function collectNodes<Node extends object>(
  st: TrackerState<Node>,
  from: number,
  to: number,
): number {
  const poses = st.poses;
  const { nodes, index, flags } = st.slots;
  const output = poses.output;
  const awake = st.awake;
  let count = 0;
  let left = 0;
  for (let slot = from; slot < to; slot++) {
    if (nodes[slot] === undefined || index[slot] >= 0) continue;
    const f = flags[slot];
    if (f & RESTING) {
      // checked for writes in every frame (checkNodes): its block is never skipped
      if (f & HAS_TRACKED_BELOW) left++;
      continue;
    }
    // a settled node is put to rest by this pass
    if (!(f & SETTLED)) left++;
    if ((f & (INTERPOLATES | WORLD)) === INTERPOLATES) {
      awake[count++] = slot;
      continue;
    }
    poses.interpolateSlotAt(slot);
    show(st, slot, output);
    if (flags[slot] & SETTLED) flags[slot] = (flags[slot] & ~SETTLED) | RESTING;
  }
  st.quiet[from / BLOCK] = left === 0 ? 1 : 0;
  return count;
}

/** Writes the lerped render pose of the first `count` awake slots to their nodes. */
function writeNodes<Node extends object>(st: TrackerState<Node>, count: number): void {
  const { nodes, flags, held } = st.slots;
  const platform = st.platform;
  const output = st.poses.output;
  const awake = st.awake;
  for (let k = 0; k < count; k++) {
    const slot = awake[k];
    const node = nodes[slot];
    // untracked by code that an earlier write of this pass ran (a setter)
    if (node === undefined) continue;
    const r = slot * S;
    const mask = takeDiffering(held, r, output, r);
    if (mask & POSITION) platform.writePosition(node, slot, output, r);
    if (mask & ROTATION) platform.writeRotation(node, slot, output, r, false);
    if (mask & SCALE) platform.writeScale(node, slot, output, r);
    if (flags[slot] & SETTLED) flags[slot] = (flags[slot] & ~SETTLED) | RESTING;
  }
}

/**
 * Lists the awake instances in `'interpolate'` mode in `st.awake` and returns how many; the
 * others are interpolated here, one at a time. All are written by `writeInstances`.
 */
function collectInstances<Node extends object>(st: TrackerState<Node>): number {
  const { nodes, index, flags } = st.slots;
  const poses = st.poses;
  const size = poses.size;
  const awake = st.awake;
  let count = 0;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined || index[slot] < 0 || flags[slot] & RESTING) continue;
    if ((st.entryOf[slot] as MeshEntry<Node>).matrices === null) continue;
    if (flags[slot] & INTERPOLATES) awake[count++] = slot;
    else poses.interpolateSlotAt(slot);
  }
  return count;
}

/**
 * Composes every awake instance's render matrix into its mesh's buffer, and into the ledger
 * unless the instance is moved with `setInstancePose` on a platform with `instancesVersion`:
 * its ledger is then stored only when needed (`DRAWN`, docs/performance.md, "Instances").
 */
function writeInstances<Node extends object>(st: TrackerState<Node>): void {
  const { nodes, index, flags, heldMatrix } = st.slots;
  const { size, output } = st.poses;
  const entryOf = st.entryOf;
  const drawn = st.platform.instancesVersion !== undefined ? POSED : 0;
  for (let slot = 0; slot < size; slot++) {
    const f = flags[slot];
    if (nodes[slot] === undefined || index[slot] < 0 || f & RESTING) continue;
    const entry = entryOf[slot] as MeshEntry<Node>;
    const matrices = entry.matrices;
    if (matrices === null) continue;
    if (f & drawn) {
      composeMatrix(matrices, index[slot] * M, output, slot * S);
      flags[slot] = f & SETTLED ? (f & ~SETTLED) | RESTING | DRAWN : f | DRAWN;
    } else {
      composeMatrices(matrices, index[slot] * M, heldMatrix, slot * M, output, slot * S);
      if (f & SETTLED) flags[slot] = (f & ~SETTLED) | RESTING;
    }
    entry.written = true;
  }
}
