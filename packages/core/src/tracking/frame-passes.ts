/**
 * The tracker's passes over every slot, at the loop's fixed points of a frame (`LoopAdapter`):
 * the write check and restore before the steps, the capture after each step (the last one fused
 * with the interpolation pass: one visit of each node instead of two), and the interpolation
 * pass. Functions over the shared {@link TrackerState}.
 * @internal
 */
import type { FixedLoop } from '../fixed-loop.ts';
import {
  captureInstance,
  checkInstance,
  interpolateInstance,
  refreshMatrices,
  restoreInstance,
  upload,
} from './instance-slots.ts';
import { adopt, capture, restore, show, written } from './node-slots.ts';
import { RESTING, RESTORE, SETTLED } from './slot-table.ts';
import type { TrackerState } from './tracker-state.ts';

export function beginFrame<Node extends object>(st: TrackerState<Node>): void {
  refreshMatrices(st);
  st.checkPending = true;
  st.capturePending = false;
  st.holding = false;
  st.stepsRun = 0;
}

export function beforeSteps<Node extends object>(st: TrackerState<Node>): void {
  const check = st.checkPending;
  st.checkPending = false;
  // an engine that holds the simulation itself may say nothing reads its nodes in the step
  const restoreNodes = st.platform.restoresNodes !== false;
  const { nodes, index, flags } = st.slots;
  const size = st.poses.size;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined) continue;
    if (index[slot] >= 0) {
      if (check) checkInstance(st, slot);
      if (flags[slot] & RESTORE) restoreInstance(st, slot);
      continue;
    }
    if (check) {
      const mask = written(st, slot);
      if (mask !== 0) adopt(st, slot, mask);
    }
    if (restoreNodes) restore(st, slot);
  }
  st.holding = true;
  upload(st);
}

/**
 * Capture: the pose the step left becomes the current simulation pose. The frame's last step
 * is captured by the interpolation pass instead (nothing runs in between), fused with it: one
 * visit of each node instead of two.
 */
export function afterStep<Node extends object>(st: TrackerState<Node>, loop: FixedLoop): void {
  if (++st.stepsRun >= loop.lastFrame.steps) {
    st.capturePending = true;
    return;
  }
  captureAll(st);
}

export function captureAll<Node extends object>(st: TrackerState<Node>): void {
  const { nodes, index } = st.slots;
  const size = st.poses.size;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined) continue;
    if (index[slot] >= 0) captureInstance(st, slot);
    else capture(st, slot);
  }
}

/**
 * The capture of the frame's last step (if it ran one), then the render pose of every node
 * that is not at rest, for the loop's alpha. Nodes and instances go in passes of their own, so
 * that the node pass stays small enough for V8 to inline its per-slot steps
 * (docs/performance.md, "The tracker").
 */
export function interpolate<Node extends object>(st: TrackerState<Node>, loop: FixedLoop): void {
  const check = st.checkPending;
  const captureLast = st.capturePending;
  st.checkPending = false;
  st.capturePending = false;
  st.holding = false;
  st.poses.setClock(loop);
  interpolateNodes(st, check, captureLast);
  if (st.meshList.length !== 0) interpolateInstances(st, check, captureLast);
  upload(st);
}

function interpolateNodes<Node extends object>(
  st: TrackerState<Node>,
  check: boolean,
  captureLast: boolean,
): void {
  const poses = st.poses;
  const { nodes, index, flags } = st.slots;
  const size = poses.size;
  const output = poses.output;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined || index[slot] >= 0) continue;
    if (captureLast) capture(st, slot);
    const f = flags[slot];
    if (f & RESTING) continue;
    if (check) {
      const mask = written(st, slot, false);
      if (mask !== 0) adopt(st, slot, mask);
    }
    poses.interpolateSlotAt(slot);
    show(st, slot, output);
    if (flags[slot] & SETTLED) flags[slot] = (flags[slot] & ~SETTLED) | RESTING;
  }
}

function interpolateInstances<Node extends object>(
  st: TrackerState<Node>,
  check: boolean,
  captureLast: boolean,
): void {
  const { nodes, index, flags } = st.slots;
  const size = st.poses.size;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined || index[slot] < 0) continue;
    if (captureLast) captureInstance(st, slot);
    if (flags[slot] & RESTING) continue;
    interpolateInstance(st, slot, check);
    if (flags[slot] & SETTLED) flags[slot] = (flags[slot] & ~SETTLED) | RESTING;
  }
}
