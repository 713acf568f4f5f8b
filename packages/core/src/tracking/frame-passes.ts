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
    restore(st, slot);
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
 * that is not at rest, for the loop's alpha.
 */
export function interpolate<Node extends object>(st: TrackerState<Node>, loop: FixedLoop): void {
  const check = st.checkPending;
  const captureLast = st.capturePending;
  st.checkPending = false;
  st.capturePending = false;
  st.holding = false;
  const poses = st.poses;
  poses.setClock(loop);
  const { nodes, index, flags } = st.slots;
  const size = poses.size;
  const output = poses.output;
  for (let slot = 0; slot < size; slot++) {
    if (nodes[slot] === undefined) continue;
    if (captureLast) {
      if (index[slot] >= 0) captureInstance(st, slot);
      else capture(st, slot);
    }
    if (flags[slot] & RESTING) continue;
    if (index[slot] >= 0) {
      interpolateInstance(st, slot, check);
    } else {
      if (check) {
        const mask = written(st, slot);
        if (mask !== 0) adopt(st, slot, mask);
      }
      poses.interpolateSlotAt(slot);
      show(st, slot, output);
    }
    const f = flags[slot];
    if (f & SETTLED) flags[slot] = (f & ~SETTLED) | RESTING;
  }
  upload(st);
}
