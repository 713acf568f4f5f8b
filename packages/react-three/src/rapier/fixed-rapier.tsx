import { checkInterpolationMode } from '@fixedtick/three';
import {
  RapierPhysics,
  type RapierPhysicsOptions,
  type RapierWorld,
} from '@fixedtick/three/rapier';
import { createContext, type ReactNode, useContext, useLayoutEffect, useState } from 'react';
import { useFixedTickState } from '../fixed-tick-context.ts';
import { RapierBindings } from './rapier-bindings.ts';

/** What one `<FixedRapier>` shares with the hooks below it. */
interface FixedRapierState {
  readonly bindings: RapierBindings;
  /** The live `RapierPhysics`; `null` until `<FixedRapier>` has mounted. */
  readonly physics: RapierPhysics | null;
}

const FixedRapierContext = createContext<FixedRapierState | null>(null);

/** Props of {@link FixedRapier}: the Rapier world and `RapierPhysics`' options. */
export interface FixedRapierProps extends RapierPhysicsOptions {
  /** The Rapier `World` to step at the fixed tick (`new RAPIER.World(gravity)`); yours to free. */
  world: RapierWorld;
  /** The components with bodies (`useRapierBody`). */
  children?: ReactNode;
}

/**
 * Steps a Rapier `World` at the fixed tick of the nearest `<FixedTick>`: a `RapierPhysics` of
 * `@fixedtick/three/rapier` for as long as it is mounted, which steps the world once per fixed
 * step with `world.timestep = fixedDelta` (between `useFixedUpdate` and `usePostSimulation`) and
 * draws every mesh bound with {@link useRapierBody} between its body's last two steps.
 * `defaultInterpolation` is live; a new `world` or `events` makes a new `RapierPhysics` (the
 * meshes are bound to it again). The world and its bodies are yours: Fixedtick never calls
 * `world.step()` for you elsewhere, nor frees anything.
 *
 * @example
 * ```tsx
 * await RAPIER.init();
 * const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 * <Canvas>
 *   <FixedTick tickRate={60}>
 *     <FixedRapier world={world}>
 *       <Crate />
 *     </FixedRapier>
 *   </FixedTick>
 * </Canvas>
 * ```
 */
export function FixedRapier({ world, events, defaultInterpolation, children }: FixedRapierProps) {
  const { loop } = useFixedTickState('FixedRapier');
  if (defaultInterpolation !== undefined) {
    checkInterpolationMode(defaultInterpolation, 'defaultInterpolation');
  }
  const [bindings] = useState(() => new RapierBindings());
  const [physics, setPhysics] = useState<RapierPhysics | null>(null);
  // Made when mounted (it adds itself to the loop: not in render, which may run twice).
  useLayoutEffect(() => {
    const made = new RapierPhysics(loop, world, events === undefined ? {} : { events });
    bindings.attach(made);
    setPhysics(made);
    return () => {
      bindings.detach();
      setPhysics(null);
    };
  }, [loop, world, events, bindings]);
  useLayoutEffect(() => {
    if (physics !== null) physics.defaultInterpolation = defaultInterpolation ?? 'interpolate';
  }, [physics, defaultInterpolation]);
  return <FixedRapierContext value={{ bindings, physics }}>{children}</FixedRapierContext>;
}

/** The nearest `<FixedRapier>`'s state, or a clear error naming `hook` when there is none. */
export function useFixedRapierState(hook: string): FixedRapierState {
  const state = useContext(FixedRapierContext);
  if (state === null) {
    throw new Error(
      `fixedtick: ${hook}() must be called in a component below <FixedRapier> (itself below <FixedTick>)`,
    );
  }
  return state;
}

/**
 * The nearest `<FixedRapier>`'s `RapierPhysics` (`teleport`, `onCollision`, `bodyOf`,
 * `sleepingCount`, …), or `null` before it has mounted: the component renders again when it is
 * there.
 */
export function useRapierPhysics(): RapierPhysics | null {
  return useFixedRapierState('useRapierPhysics').physics;
}
