import {
  checkInterpolationMode,
  type InterpolationMode,
  optionError,
  type TrackOptions,
} from '@fixedtick/three';
import { type RefObject, useLayoutEffect } from 'react';
import type { Object3D } from 'three';
import { useFixedTickState } from './fixed-tick-context.ts';

/**
 * Options of {@link useTracked} and `useRapierBody`. `interpolation` may be `undefined` (a prop
 * passed through unset): the object then follows the default mode.
 */
export interface UseTrackedOptions {
  /**
   * How the object is drawn between fixed steps: `'interpolate'`, `'extrapolate'` or `'none'`.
   * @defaultValue `<FixedTick defaultInterpolation>` (`'interpolate'`)
   */
  interpolation?: InterpolationMode | undefined;
}

/**
 * Tracks the object `ref` points to (a mesh, a group, any `Object3D`) with the nearest
 * `<FixedTick>`'s loop while the component is mounted: its local position, rotation and scale
 * become simulation state, moved in `useFixedUpdate` and drawn interpolated between the last two
 * steps. Untracked when the component unmounts (left at its simulation pose).
 *
 * `ref.current` must hold the object when the component mounts. `interpolation` may change from
 * render to render (`'interpolate'`, `'extrapolate'`, `'none'`; without it the object follows
 * `<FixedTick defaultInterpolation>`).
 *
 * The rule: inside `useFixedUpdate`/`usePostSimulation` the object holds its simulation pose;
 * everywhere else it shows its interpolated pose. A pose written to it anywhere else — an event
 * handler, `useUpdate`, a `useFrame` callback, a changed `position` prop — is a teleport, drawn
 * in that frame with no streak.
 */
export function useTracked(ref: RefObject<Object3D | null>, options?: UseTrackedOptions): void {
  const { loop } = useFixedTickState('useTracked');
  const mode = options?.interpolation;
  if (mode !== undefined) checkInterpolationMode(mode, 'interpolation');
  // Track for the component's life (one subscription through Strict Mode's remount)…
  useLayoutEffect(() => {
    const object = ref.current;
    if (object?.isObject3D !== true) {
      throw optionError(
        'ref.current',
        object,
        'a three.js Object3D when the component mounts (the ref of a <mesh>, <group>, …)',
      );
    }
    loop.track(object);
    return () => {
      loop.untrack(object);
    };
  }, [loop, ref]);
  // …and set the mode, right after tracking and then in place whenever it changes (untracking
  // and tracking again would show the simulation pose for a frame).
  useLayoutEffect(() => {
    const object = ref.current;
    if (object != null && loop.isTracked(object)) loop.track(object, modeOption(mode));
  }, [loop, ref, mode]);
}

function modeOption(mode: InterpolationMode | undefined): TrackOptions | undefined {
  return mode === undefined ? undefined : { interpolation: mode };
}
