/**
 * The states of a tracker slot and their transitions, in one place (the diagram is in this
 * folder's README.md). A slot's state is a set of flags in `SlotTable.flags`:
 *
 * - motion: awake (no flag) → `SETTLING` (a capture found previous = current) → `AT_REST` (the
 *   next interpolation pass drew it: previous = current = output, and the node holds them). A
 *   step that moves it, an adopted write, a reset, a mode change or a claim wakes it again.
 * - what it is: `FOLLOWS_DEFAULT`, `INTERPOLATES` / `EXTRAPOLATES` (its mode),
 *   `SIMULATED_IN_WORLD`, `HAS_TRACKED_BELOW`, `RESTORES_MATRIX` (an instance).
 * - where its poses come from: a step (no flag) or an external stream (`STREAMED`).
 * - what is pending: `RESET_AFTER_STEP`, `POSE_GIVEN_IN_STEP`, `POSED_BY_SET_INSTANCE_POSE`,
 *   `LEDGER_NOT_STORED`.
 *
 * The transitions of the motion states are the functions below; every pass goes through them.
 * @internal
 */

/**
 * Previous = current = output, and the node holds them: every pass skips the slot (a body at
 * rest, a static prop) until a step moves it or a write to it is adopted.
 */
export const AT_REST = 1;
/** Previous = current after the last capture: the next interpolation pass makes it AT_REST. */
export const SETTLING = 2;
/** Tracked without a mode: follows the tracker's `defaultInterpolation`, also when it changes. */
export const FOLLOWS_DEFAULT = 4;
/** Simulated in world space, stored in local space (the platform converts). */
export const SIMULATED_IN_WORLD = 8;
/**
 * Reset its interpolation when the step under way ends (Godot's `reset_physics_interpolation`
 * "temporarily disables interpolation until the physics tick is complete").
 */
export const RESET_AFTER_STEP = 16;
/** An instance whose simulation matrix is put back before the steps (code reads it there). */
export const RESTORES_MATRIX = 32;
/** In `'extrapolate'` mode. */
export const EXTRAPOLATES = 64;
/** An instance whose pose for the step under way was given (`setInstancePose`), not written as a matrix. */
export const POSE_GIVEN_IN_STEP = 128;
/**
 * In `'interpolate'` mode: the frame pass lerps it together with the others in one loop
 * (`interpolateList`) instead of one slot at a time.
 */
export const INTERPOLATES = 256;
/**
 * An instance whose last step gave its pose with `setInstancePose`: on a platform with
 * `instancesVersion`, the per-frame write check skips it while no one else has flagged the
 * mesh's matrices for upload (docs/three.md, "Instanced meshes").
 */
export const POSED_BY_SET_INSTANCE_POSE = 512;
/**
 * An instance whose matrix the interpolation pass composed from its output row without storing
 * the ledger (`heldMatrix`) too: its ledger is that composition, stored by `settleLedger` before
 * anything reads the ledger or changes the row (docs/performance.md, "Instances").
 */
export const LEDGER_NOT_STORED = 1024;
/**
 * A node with tracked descendants (or tracked instances): a write to it outside the step resets
 * them in the frame it is made, so it is checked for writes in every frame, at rest or not.
 */
export const HAS_TRACKED_BELOW = 2048;
/**
 * Drawn from an external stream (pose-stream.ts): the stream fills its rows each frame, so no
 * capture reads its node and the interpolation pass only writes its output. Never at rest.
 */
export const STREAMED = 4096;

/** The flags of a slot after a capture found it `moved` or not: awake, or settling. */
export function afterCapture(flags: number, moved: boolean): number {
  if (moved) return flags & ~(AT_REST | SETTLING);
  return flags & AT_REST ? flags : flags | SETTLING;
}

/** The flags of a slot the interpolation pass has drawn: a settling slot comes to rest. */
export function afterDrawn(flags: number): number {
  return flags & SETTLING ? (flags & ~SETTLING) | AT_REST : flags;
}

/** The flags of a slot whose interpolation was just reset: settling (drawn once, then at rest). */
export function afterReset(flags: number): number {
  return (flags & ~AT_REST) | SETTLING;
}
