/**
 * An object (or instance) let go of by a stream goes back to its own simulation poses, which
 * the stream never moved: it would jump there. Teleporting it to the pose it is drawn at keeps
 * it where the last frame showed it.
 */
import type { Tracker } from '@fixedtick/core/tracking';
import { type InstancedMesh, Matrix4, type Object3D, Quaternion, Vector3 } from 'three';

const matrix = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();

/** Makes the drawn pose of `node` (or of its instance `index`) its simulation pose. @internal */
export function holdDrawnPose(tracker: Tracker<Object3D>, node: Object3D, index: number): void {
  if (index < 0) {
    if (tracker.isTracked(node)) tracker.teleport(node, node.position, node.quaternion);
    return;
  }
  const mesh = node as InstancedMesh;
  if (tracker.slotOf(mesh, index) === undefined) return;
  mesh.getMatrixAt(index, matrix);
  matrix.decompose(position, rotation, scale);
  tracker.teleportInstance(mesh, index, position, rotation);
}
