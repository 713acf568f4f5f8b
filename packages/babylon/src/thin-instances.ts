/**
 * Thin-instanced physics bodies: one Havok body with one instance per thin instance of a mesh,
 * whose poses live in the mesh's matrix buffer. Havok reads every instance's rotation from that
 * buffer as if it had no scale, so a push composes each instance's simulation pose unscaled into
 * the buffer, teleports the body, and puts back what the buffer held (the tracker knows it).
 * @internal
 */
import { composeMatrix, MATRIX_STRIDE, type Tracker } from '@fixedtick/core/tracking';
import type { BodyLike, NodeLike } from './babylon-shapes.ts';
import type { HavokStepper } from './havok-stepper.ts';

/** A simulation pose with unit scale, for Havok. */
const unscaled = new Float64Array(10);
/** What the buffer held before a push. */
let saved = new Float32Array(0);

/** Teleports every instance of a thin-instanced `body` to its tracked simulation pose. */
export function pushThinInstances(
  stepper: HavokStepper,
  tracker: Tracker<NodeLike>,
  mesh: NodeLike,
  body: BodyLike,
): void {
  const data = mesh._thinInstanceDataStorage?.matrixData;
  if (!data) return;
  if (saved.length < data.length) saved = new Float32Array(data.length);
  saved.set(data);
  const current = tracker.poses.current;
  for (const index of tracker.instancesOf(mesh)) {
    const slot = tracker.slotOf(mesh, index) as number;
    for (let k = 0; k < 7; k++) unscaled[k] = current[slot * 10 + k];
    unscaled[7] = unscaled[8] = unscaled[9] = 1;
    composeMatrix(data, index * MATRIX_STRIDE, unscaled, 0);
  }
  stepper.pushBody(body, mesh);
  data.set(saved.subarray(0, data.length));
}
