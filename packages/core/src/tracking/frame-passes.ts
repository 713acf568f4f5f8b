/**
 * The tracker's passes over every slot, at the loop's fixed points of a frame (`LoopAdapter`):
 * the write check and restore before the steps, the capture after each step (the last one's
 * left to the interpolation pass, which runs right after it), and the interpolation pass, each
 * a tight loop of its own (docs/performance.md, "The tracker"). Functions over the shared
 * {@link TrackerState}.
 * @internal
 */
import type { FrameContext } from '../frame-context.ts';
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { adoptWrite } from './adopt-writes.ts';
import { copyRow, POSITION, ROTATION, SCALE, takeDiffering } from './components.ts';
import {
  captureInstances,
  checkInstances,
  collectInstances,
  writeInstances,
} from './instance-passes.ts';
import { beginCheck, refreshMatrices, upload } from './instance-slots.ts';
import { capture, leftAtRest } from './node-capture.ts';
import { drawRows, restore } from './node-drawing.ts';
import {
  AT_REST,
  afterDrawn,
  HAS_TRACKED_BELOW,
  INTERPOLATES,
  SETTLING,
  SIMULATED_IN_WORLD,
  STREAMED,
} from './slot-states.ts';
import type { TrackerState } from './tracker-state.ts';
import { writtenComponents } from './write-check.ts';

/** Arms the frame: instance buffers re-read, the write check pending, nodes not holding. */
export function beginFrame<Node extends object>(state: TrackerState<Node>): void {
  refreshMatrices(state);
  state.checkPending = true;
  state.capturePending = false;
  state.holding = false;
}

/**
 * Before the steps of a frame that runs any: per block, the write check and the restore of the
 * simulation pose (quiet blocks skipped); instances; then previous ← current for the steps.
 */
export function beforeSteps<Node extends object>(state: TrackerState<Node>): void {
  const check = state.checkPending;
  state.checkPending = false;
  // an engine that holds the simulation itself may say nothing reads its nodes in the step
  const restore = state.platform.restoresNodes !== false;
  const size = nodeSlots(state);
  for (let from = 0; from < size; from += BLOCK) {
    const to = Math.min(size, from + BLOCK);
    if (check) checkNodes(state, true, from, to);
    // a quiet block, if nothing woke since (its write check included), is all at rest: its
    // nodes hold their simulation poses already
    const quiet = state.quiet[from / BLOCK] === 1 && state.quietAsOf === state.slots.wakes;
    if (restore && !quiet) restoreNodes(state, from, to);
  }
  if (state.meshList.length !== 0) checkInstances(state, check && beginCheck(state), check, true);
  shiftAwake(state);
  state.holding = true;
  upload(state);
}

/**
 * Capture: the pose the step left becomes the current simulation pose. The frame's last step
 * is captured by the interpolation pass instead (nothing reads the poses in between).
 */
export function afterStep<Node extends object>(state: TrackerState<Node>, lastStep: boolean): void {
  if (lastStep) {
    state.capturePending = true;
    return;
  }
  captureNodes(state, 0, nodeSlots(state), ANY_SPACE);
  if (state.meshList.length !== 0) captureInstances(state);
  // the next step starts from this one's pose
  shiftAwake(state);
}

/**
 * The capture of the frame's last step (if it ran one), then the render pose of every slot
 * that is not at rest, for the loop's alpha: the write check; the awake slots in
 * `'interpolate'` mode collected and lerped all in one loop (`interpolateList`), the others
 * one at a time; the writes. Nodes go block by block (docs/performance.md, "The tracker").
 */
export function interpolate<Node extends object>(
  state: TrackerState<Node>,
  frame: FrameContext,
): void {
  const check = state.checkPending;
  const captureLast = state.capturePending;
  state.checkPending = false;
  state.capturePending = false;
  state.holding = false;
  const poses = state.poses;
  // the external streams fill their slots' rows first (pose-stream.ts)
  for (let k = 0; k < state.streams.length; k++) state.streams[k].draw(frame);
  poses.setClock(frame);
  if (state.awake.length < poses.size) state.awake = new Int32Array(poses.capacity);
  const size = nodeSlots(state);
  // a capture in world space reads the parent: all of them before any node is written
  if (captureLast && state.slots.worldCount !== 0) captureNodes(state, 0, size, SIMULATED_IN_WORLD);
  const blocks = Math.ceil(size / BLOCK);
  if (state.quiet.length < blocks)
    state.quiet = new Uint8Array(Math.max(blocks, 2 * state.quiet.length));
  const quiet = state.quiet;
  // quiet blocks: without steps only a wake-up gives a node at rest anything to draw
  // (docs/performance.md, "The tracker")
  const skipQuiet = !captureLast && state.quietAsOf === state.slots.wakes;
  state.quietAsOf = state.slots.wakes;
  // in blocks of slots small enough to stay in the cache from the capture to the write
  for (let block = 0; block < blocks; block++) {
    if (skipQuiet && quiet[block] === 1) continue;
    const from = block * BLOCK;
    const to = Math.min(size, from + BLOCK);
    if (captureLast) captureNodes(state, from, to, 0);
    if (check) checkNodes(state, false, from, to);
    const count = collectNodes(state, from, to);
    poses.interpolateList(state.awake, count);
    writeNodes(state, count);
  }
  if (state.meshList.length !== 0) {
    if (captureLast) captureInstances(state);
    if (check) checkInstances(state, beginCheck(state), true, false);
    const count = collectInstances(state);
    poses.interpolateList(state.awake, count);
    writeInstances(state);
  }
  upload(state);
}

/**
 * The slots the node passes go through: all of them, or none when no node is tracked (only
 * instances, which have passes of their own).
 */
function nodeSlots<Node extends object>(state: TrackerState<Node>): number {
  return state.objects.size !== 0 ? state.poses.size : 0;
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
  state: TrackerState<Node>,
  thorough: boolean,
  from: number,
  to: number,
): void {
  const { nodes, index, flags, held } = state.slots;
  const platform = state.platform;
  const compare = platform.compare;
  for (let slot = from; slot < to; slot++) {
    const node = nodes[slot];
    if (node === undefined || index[slot] >= 0) continue;
    // at rest, a frame without steps leaves it alone unless a write to it resets others
    if (!thorough && (flags[slot] & (AT_REST | HAS_TRACKED_BELOW)) === AT_REST) continue;
    const mask =
      compare !== undefined
        ? compare.call(platform, node, slot, held, slot * POSE_STRIDE, thorough)
        : writtenComponents(state, slot, thorough);
    if (mask !== 0) adoptWrite(state, slot, mask);
  }
}

/**
 * Previous ← current for every slot not at rest (a step starts from a copy of the current
 * pose); a slot at rest has previous = current already.
 */
function shiftAwake<Node extends object>(state: TrackerState<Node>): void {
  const flags = state.slots.flags;
  const { size, previous, current } = state.poses;
  for (let slot = 0; slot < size; slot++) {
    if (!(flags[slot] & AT_REST))
      copyRow(previous, slot * POSE_STRIDE, current, slot * POSE_STRIDE);
  }
}

/** The nodes from `from` to `to` not at rest get their simulation pose back before the steps. */
function restoreNodes<Node extends object>(
  state: TrackerState<Node>,
  from: number,
  to: number,
): void {
  const { nodes, index, flags, held } = state.slots;
  const platform = state.platform;
  const current = state.poses.current;
  for (let slot = from; slot < to; slot++) {
    const node = nodes[slot];
    // at rest the node holds its simulation pose already
    if (node === undefined || index[slot] >= 0 || flags[slot] & AT_REST) continue;
    const r = slot * POSE_STRIDE;
    if (flags[slot] & SIMULATED_IN_WORLD) {
      restore(state, slot);
      continue;
    }
    const mask = takeDiffering(held, r, current, r);
    if (mask & POSITION) platform.writePosition(node, slot, current, r);
    if (mask & ROTATION) platform.writeRotation(node, slot, current, r, true);
    if (mask & SCALE) platform.writeScale(node, slot, current, r);
  }
}

/**
 * Capture of the nodes from `from` to `to` simulated in world space (`space` = `SIMULATED_IN_WORLD`), in
 * their stored space (0) or either (`ANY_SPACE`): what the step left becomes their current pose.
 */
function captureNodes<Node extends object>(
  state: TrackerState<Node>,
  from: number,
  to: number,
  space: number,
): void {
  const { nodes, index, flags } = state.slots;
  for (let slot = from; slot < to; slot++) {
    if (nodes[slot] === undefined || index[slot] >= 0) continue;
    if (space !== ANY_SPACE && (flags[slot] & SIMULATED_IN_WORLD) !== space) continue;
    if (flags[slot] & STREAMED) continue;
    if (!leftAtRest(state, slot)) capture(state, slot);
  }
}

/**
 * Lists the awake nodes from `from` to `to` in `'interpolate'` mode in `state.awake` and returns
 * how many; the other awake nodes ('none', 'extrapolate', simulated in world space: rare) are
 * interpolated and written here, one at a time. Marks the block quiet (`state.quiet`) when this
 * pass leaves every node in it at rest. `from` is the first slot of a block.
 */
function collectNodes<Node extends object>(
  state: TrackerState<Node>,
  from: number,
  to: number,
): number {
  const poses = state.poses;
  const { nodes, index, flags } = state.slots;
  const output = poses.output;
  const awake = state.awake;
  let count = 0;
  let left = 0;
  for (let slot = from; slot < to; slot++) {
    if (nodes[slot] === undefined || index[slot] >= 0) continue;
    const f = flags[slot];
    if (f & AT_REST) {
      // checked for writes in every frame (checkNodes): its block is never skipped
      if (f & HAS_TRACKED_BELOW) left++;
      continue;
    }
    // a settling node is put to rest by this pass (a streamed one never is)
    if ((f & (SETTLING | STREAMED)) !== SETTLING) left++;
    if ((f & (INTERPOLATES | SIMULATED_IN_WORLD | STREAMED)) === INTERPOLATES) {
      awake[count++] = slot;
      continue;
    }
    // the rare ones: 'none', 'extrapolate', simulated in world space, drawn from a stream
    if (f & STREAMED) {
      drawRows(state, slot, output);
      continue;
    }
    poses.interpolateSlotAt(slot);
    drawRows(state, slot, output);
    flags[slot] = afterDrawn(flags[slot]);
  }
  state.quiet[from / BLOCK] = left === 0 ? 1 : 0;
  return count;
}

/** Writes the lerped render pose of the first `count` awake slots to their nodes. */
function writeNodes<Node extends object>(state: TrackerState<Node>, count: number): void {
  const { nodes, flags, held } = state.slots;
  const platform = state.platform;
  const output = state.poses.output;
  const awake = state.awake;
  for (let k = 0; k < count; k++) {
    const slot = awake[k];
    const node = nodes[slot];
    // untracked by code that an earlier write of this pass ran (a setter)
    if (node === undefined) continue;
    const r = slot * POSE_STRIDE;
    const mask = takeDiffering(held, r, output, r);
    if (mask & POSITION) platform.writePosition(node, slot, output, r);
    if (mask & ROTATION) platform.writeRotation(node, slot, output, r, false);
    if (mask & SCALE) platform.writeScale(node, slot, output, r);
    flags[slot] = afterDrawn(flags[slot]);
  }
}
