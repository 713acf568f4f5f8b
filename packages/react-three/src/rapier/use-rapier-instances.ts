import { checkInterpolationMode, optionError } from '@fixedtick/three';
import type { RapierRigidBody } from '@fixedtick/three/rapier';
import { type RefObject, useLayoutEffect } from 'react';
import type { InstancedMesh } from 'three';
import type { UseTrackedOptions } from '../use-tracked.ts';
import { useFixedRapierState } from './fixed-rapier.tsx';

/**
 * Binds instance `i` of the `InstancedMesh` `ref` points to to `bodies[i]` while the component
 * is mounted (`RapierPhysics.addInstance`, docs/rapier.md "Instanced bodies"): each body drives
 * its instance, drawn between its last two steps; a `null` entry leaves that instance unbound.
 * Unbound when the component unmounts or `bodies` (or the mode) changes, each instance left where
 * its body was at the last step. The bodies stay yours to remove from the world. The mesh must
 * sit untransformed in the world, as Rapier simulates in world space.
 *
 * @example
 * ```tsx
 * function Balls({ bodies }: { bodies: RAPIER.RigidBody[] }) {
 *   const ref = useRef<InstancedMesh>(null);
 *   useRapierInstances(ref, bodies);
 *   return <instancedMesh ref={ref} args={[undefined, undefined, bodies.length]} />;
 * }
 * ```
 */
export function useRapierInstances(
  ref: RefObject<InstancedMesh | null>,
  bodies: readonly (RapierRigidBody | null | undefined)[] | null | undefined,
  options?: UseTrackedOptions,
): void {
  const { bindings } = useFixedRapierState('useRapierInstances');
  const mode = options?.interpolation;
  if (mode !== undefined) checkInterpolationMode(mode, 'interpolation');
  useLayoutEffect(() => {
    if (bodies == null) return;
    const mesh = ref.current;
    if (mesh?.isInstancedMesh !== true) {
      throw optionError(
        'ref.current',
        mesh,
        'a three.js InstancedMesh when the bodies are bound (the ref of an <instancedMesh>)',
      );
    }
    const options = mode === undefined ? undefined : { interpolation: mode };
    const releases: (() => void)[] = [];
    bodies.forEach((body, index) => {
      if (body != null) releases.push(bindings.bindInstance(mesh, index, body, options));
    });
    return () => {
      for (const release of releases) release();
    };
  }, [bindings, ref, bodies, mode]);
}
