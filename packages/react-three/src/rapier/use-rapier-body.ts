import { checkInterpolationMode } from '@fixedtick/three';
import type { RapierRigidBody } from '@fixedtick/three/rapier';
import { type RefObject, useLayoutEffect } from 'react';
import type { Object3D } from 'three';
import type { UseTrackedOptions } from '../use-tracked.ts';
import { boundObject } from './bound-object.ts';
import { useFixedRapierState } from './fixed-rapier.tsx';

/**
 * Binds the mesh `ref` points to to the Rapier `body` while the component is mounted (docs/rapier.md):
 * the body drives the mesh, drawn between its last two steps (`options.interpolation`:
 * `'interpolate'` by default, `'extrapolate'` from Rapier's velocities, `'none'`); unbound when
 * the component unmounts or `body` changes, the mesh left where its body was at the last step.
 * `body` may be `null` until it exists (made in an effect); the body and its colliders stay
 * yours to remove from the world.
 *
 * The rule: the body is the simulation, the mesh its picture — move and read the body with
 * Rapier's API in `useFixedUpdate` / `usePostSimulation`. A pose written to the mesh outside the
 * step (an event handler, a changed `position` prop) moves the body there: a teleport, drawn in
 * that frame with no streak.
 */
export function useRapierBody(
  ref: RefObject<Object3D | null>,
  body: RapierRigidBody | null | undefined,
  options?: UseTrackedOptions,
): void {
  const { bindings } = useFixedRapierState('useRapierBody');
  const mode = options?.interpolation;
  if (mode !== undefined) checkInterpolationMode(mode, 'interpolation');
  // Bound for the component's life (and bound again to a new body)…
  useLayoutEffect(() => {
    if (body == null) return;
    return bindings.bind(boundObject(ref), body, undefined);
  }, [bindings, ref, body]);
  // …and its mode set right after, then in place whenever it changes.
  useLayoutEffect(() => {
    const object = ref.current;
    if (body != null && object != null) {
      bindings.setOptions(object, mode === undefined ? undefined : { interpolation: mode });
    }
  }, [bindings, ref, body, mode]);
}
