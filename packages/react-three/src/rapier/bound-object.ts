import { optionError } from '@fixedtick/three';
import type { RefObject } from 'react';
import type { Object3D } from 'three';

/**
 * The object a body hook's `ref` points to when it binds it — `useRapierBody` and
 * `useWorkerBody` — or a clear error naming `ref.current` when that is not a three.js Object3D.
 */
export function boundObject(ref: RefObject<Object3D | null>): Object3D {
  const object = ref.current;
  if (object?.isObject3D !== true) {
    throw optionError(
      'ref.current',
      object,
      'a three.js Object3D when the body is bound (the ref of a <mesh>, <group>, …)',
    );
  }
  return object;
}
