import type { Object3D } from 'three';

/**
 * Reported through the loop's `onError` (source `adapter.beginFrame` or `adapter.afterStep`) when
 * rigid bodies were removed from the world while meshes were still bound to them
 * (`world.removeRigidBody(body)` before `physics.remove(mesh)`). By then each such mesh is
 * unbound, left where it was last drawn, and the world steps on: once gone, a Rapier body traps
 * Rapier's WASM at the first call made on it, after which every `world.step` fails. Thrown at
 * once instead by the `RapierPhysics` calls made on such a mesh (`teleport`, `remove`).
 */
export class RemovedBodyError extends Error {
  /** The meshes whose bodies were removed, now unbound. */
  readonly objects: readonly Object3D[];

  /** @param objects the meshes whose bodies were removed. */
  constructor(objects: readonly Object3D[]) {
    const names = objects.map((o) => (o.name ? `"${o.name}"` : `a ${o.type}`));
    const shown =
      names.length > 3
        ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`
        : names.join(', ');
    super(
      `fixedtick: ${objects.length === 1 ? 'a Rapier body was' : `${objects.length} Rapier bodies were`} removed from the world while bound (to ${shown}): unbound, and the world steps on. Call physics.remove(mesh) before world.removeRigidBody(body).`,
    );
    this.name = 'RemovedBodyError';
    this.objects = objects;
  }
}
