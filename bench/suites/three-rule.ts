/**
 * The adapters' rule (docs/guarantees.md, "Interpolation and the adapters' rule") written by hand for plain `Object3D`s, as the least work it asks:
 * the reference point that tells the tracker's own cost apart from the rule's.
 *
 * The rule: inside the step a tracked object holds its simulation pose, elsewhere its
 * interpolated pose, and a pose written to it outside the step is a teleport. Written with no
 * generality at all (local space only, one interpolation mode, no hierarchy, no instances, no
 * per-component adoption), that is, per body:
 *
 * - before the steps of a frame that runs some: compare the object with what was last left in it
 *   (a write outside the step), then put the simulation pose back (restore) unless at rest;
 * - after each step: read what the step left (capture), or, at rest, compare that it left it as
 *   it was;
 * - each frame, not at rest: in a frame without steps compare the object with what was last left
 *   in it; lerp/slerp; write the render pose.
 *
 * It uses the tracker's own pieces where the rule has no choice to make: its lerp kernel
 * (`PoseBuffer.interpolateList`), its reads and compares of three's vectors (`rowFromVectors`,
 * `vectorsDiffer`) and three's Euler sync without the change callback (`setRotation`,
 * `restoreRotation`). Passes go slot by slot over all bodies, with no blocks.
 */
import type { Object3D } from 'three';
import type { FixedLoop } from '../../packages/core/src/index.ts';
import { PoseBuffer } from '../../packages/core/src/interpolation/pose-buffer.ts';
import { POSE_STRIDE as S } from '../../packages/core/src/interpolation/pose-layout.ts';
import {
  copyRow,
  rowFromVectors,
  sameRow,
  vectorsDiffer,
} from '../../packages/core/src/tracking/components.ts';
import { restoreRotation, setRotation } from '../../packages/three/src/rotation-sync.ts';

/** Tracks `list` under `loop` by the rule, written by hand (see the module doc). */
export function trackByRule(loop: FixedLoop, list: readonly Object3D[]): void {
  const n = list.length;
  const poses = new PoseBuffer(n);
  /** What the rule last left in each object: a difference is a write outside the step. */
  const held = new Float64Array(n * S);
  /** The Euler angles captured with each simulation pose (restored with it). */
  const euler = new Float64Array(n * 3);
  /** 1: the last two simulation poses are equal and the object holds them. */
  const resting = new Uint8Array(n);
  const awake = new Int32Array(n);
  /** Steps run so far in this frame. */
  let steps = 0;

  const read = (i: number, rows: Float64Array): void => {
    const o = list[i];
    rowFromVectors(rows, i * S, o.position, o.quaternion, o.scale);
  };
  const written = (i: number): boolean => {
    const o = list[i];
    return vectorsDiffer(held, i * S, o.position, o.quaternion, o.scale) !== 0;
  };
  const captureEuler = (i: number): void => {
    const e = list[i].rotation;
    euler[i * 3] = e.x;
    euler[i * 3 + 1] = e.y;
    euler[i * 3 + 2] = e.z;
  };
  /** A write outside the step: the object's pose becomes the simulation pose, unsmeared. */
  const adopt = (i: number): void => {
    read(i, held);
    copyRow(poses.current, i * S, held, i * S);
    copyRow(poses.previous, i * S, held, i * S);
    captureEuler(i);
    resting[i] = 0;
  };
  const write = (i: number, rows: Float64Array, simulation: boolean): void => {
    const o = list[i];
    const r = i * S;
    o.position.x = rows[r];
    o.position.y = rows[r + 1];
    o.position.z = rows[r + 2];
    if (simulation) restoreRotation(o.quaternion, o.rotation, rows, r + 3, euler, i * 3);
    else setRotation(o.quaternion, o.rotation, rows, r + 3);
    o.scale.x = rows[r + 7];
    o.scale.y = rows[r + 8];
    o.scale.z = rows[r + 9];
    copyRow(held, r, rows, r);
  };
  const capture = (i: number): void => {
    if (resting[i] === 1 && !written(i)) return;
    read(i, held);
    copyRow(poses.current, i * S, held, i * S);
    captureEuler(i);
    resting[i] = 0;
  };

  for (let i = 0; i < n; i++) {
    poses.add();
    adopt(i);
  }
  loop.addAdapter({
    beforeSteps() {
      for (let i = 0; i < n; i++) {
        if (written(i)) adopt(i);
        if (resting[i] === 0) write(i, poses.current, true);
      }
      poses.shiftAll();
    },
    afterStep(_dt, frame) {
      for (let i = 0; i < n; i++) capture(i);
      // the step after this one starts from this one's pose (none left: the frame draws now)
      steps++;
      if (!frame.lastStep) poses.shiftAll();
    },
    interpolate(frame) {
      const check = steps === 0;
      steps = 0;
      poses.setClock(frame);
      let count = 0;
      for (let i = 0; i < n; i++) {
        if (resting[i] === 1) continue;
        if (check && written(i)) adopt(i);
        awake[count++] = i;
      }
      poses.interpolateList(awake, count);
      const { current, previous, output } = poses;
      for (let k = 0; k < count; k++) {
        const i = awake[k];
        write(i, output, false);
        // settled: the same pose twice, now drawn; at rest until a write or a step moves it
        if (sameRow(current, i * S, previous, i * S)) resting[i] = 1;
      }
    },
  });
}
