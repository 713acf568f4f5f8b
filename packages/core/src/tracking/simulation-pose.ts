/**
 * The simulation pose of a tracked object, as every adapter returns it from
 * `getSimulationPose`: plain number tuples, engine-agnostic and JSON-friendly. Feed them to your
 * engine's vectors with `vector.fromArray(pose.position)` (three.js) or
 * `Vector3.FromArray(pose.position)` (Babylon.js).
 */
/** A pose: position, rotation quaternion and scale, as number tuples. */
export interface SimulationPose {
  /** Position `[x, y, z]`. */
  position: [number, number, number];
  /** Rotation quaternion `[x, y, z, w]`. */
  rotation: [number, number, number, number];
  /** Scale `[x, y, z]`. */
  scale: [number, number, number];
}

/** A new pose at the identity (origin, no rotation, unit scale). */
export function identityPose(): SimulationPose {
  return { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
}

/** Copies row `r` of `rows` (the pose-buffer layout: position, quaternion, scale) into `pose`; returns `pose`. */
export function poseFromRow(pose: SimulationPose, rows: Float64Array, r: number): SimulationPose {
  const { position, rotation, scale } = pose;
  position[0] = rows[r];
  position[1] = rows[r + 1];
  position[2] = rows[r + 2];
  rotation[0] = rows[r + 3];
  rotation[1] = rows[r + 4];
  rotation[2] = rows[r + 5];
  rotation[3] = rows[r + 6];
  scale[0] = rows[r + 7];
  scale[1] = rows[r + 8];
  scale[2] = rows[r + 9];
  return pose;
}
