/**
 * Bodies removed from the world while still bound: found by a look-up in Rapier's JavaScript body
 * set (no call on them: once gone, a Rapier body traps Rapier's WASM at the first call made on
 * it, after which every `world.step` fails), let go of, and reported once.
 */
import type { Object3D } from 'three';
import type { InstanceBodies, InstanceRef } from './instance-bodies.ts';
import type { MeshBodies } from './mesh-bodies.ts';
import type { RapierPlatform } from './rapier-platform.ts';
import type { RapierRigidBody, RapierWorld } from './rapier-types.ts';

/**
 * Reported through the loop's `onError` (source `adapter.beginFrame`, `adapter.physicsStep` or
 * `adapter.afterStep`) when
 * rigid bodies were removed from the world while meshes were still bound to them
 * (`world.removeRigidBody(body)` before `physics.remove(mesh)`). By then each such mesh is
 * unbound, left where it was last drawn, and the world steps on: once gone, a Rapier body traps
 * Rapier's WASM at the first call made on it, after which every `world.step` fails. Thrown at
 * once instead by the `RapierPhysics` calls made on such a mesh (`teleport`, `remove`).
 */
export class RemovedBodyError extends Error {
  /** The meshes whose bodies were removed, now unbound (an instanced mesh once). */
  readonly objects: readonly Object3D[];
  /** The instances among them (`physics.addInstance`), now unbound. */
  readonly instances: readonly InstanceRef[];

  /**
   * @param objects the meshes whose bodies were removed.
   * @param instances the instances among them.
   */
  constructor(objects: readonly Object3D[], instances: readonly InstanceRef[] = []) {
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
    this.instances = instances;
  }
}

/**
 * Lets go of every mesh and instance whose body is no longer in `world` (`found` is scratch for
 * their slots); the error that reports them, or `undefined` if there were none.
 */
export function letGoOfRemoved(
  world: RapierWorld,
  platform: RapierPlatform,
  meshes: MeshBodies,
  instances: InstanceBodies,
  found: number[],
): RemovedBodyError | undefined {
  const count = platform.staleSlots(world, found);
  if (count === 0) return undefined;
  const objects: Object3D[] = [];
  const gone: InstanceRef[] = [];
  for (let i = 0; i < count; i++) {
    const body = platform.bodyIn(found[i]) as RapierRigidBody;
    const object3d = meshes.objectOf(body);
    if (object3d !== undefined) {
      meshes.letGo(object3d);
      objects.push(object3d);
      continue;
    }
    const instance = instances.letGo(body);
    if (instance === undefined) continue;
    gone.push(instance);
    if (!objects.includes(instance.mesh)) objects.push(instance.mesh);
  }
  return new RemovedBodyError(objects, gone);
}
