import { type RefObject, useLayoutEffect } from 'react';
import type { InstancedMesh, Object3D } from 'three';
import { boundObject } from './bound-object.ts';
import { useWorkerPhysicsIn } from './fixed-rapier-worker.tsx';

/**
 * Draws the worker's body `id` — published in your worker module with `scope.add(id, body)` —
 * into the object `ref` points to while the component is mounted (or, with `index`, into that
 * instance of an `InstancedMesh`): interpolated between the poses the worker publishes, from the
 * first frame that has it. Unbound when the component unmounts or `id` changes; the object
 * stays where it was drawn last. The object should sit in world space (a child of the scene or
 * of an untransformed group): Rapier's poses are world space.
 *
 * Move the body in the worker's step code, or with `useWorkerPhysics().teleport(id, …)` from
 * here (applied at the next tick boundary, drawn with no streak).
 */
export function useWorkerBody(
  ref: RefObject<Object3D | InstancedMesh | null>,
  id: number,
  index?: number,
): void {
  const physics = useWorkerPhysicsIn('useWorkerBody');
  useLayoutEffect(() => {
    if (physics === null) return;
    const object = boundObject(ref);
    physics.bind(id, object, index);
    return () => {
      physics.unbind(id);
      if (index !== undefined && index >= 0) {
        physics.loop.untrackInstance(object as InstancedMesh, index);
      }
    };
  }, [physics, ref, id, index]);
}
