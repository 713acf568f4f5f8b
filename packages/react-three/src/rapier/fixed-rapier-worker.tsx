import {
  type NodeWorkerLike,
  type WebWorkerLike,
  WorkerPhysics,
  type WorkerPhysicsOptions,
} from '@fixedtick/three/rapier';
import {
  createContext,
  type ReactNode,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useFixedTickState } from '../fixed-tick-context.ts';

/** The nearest `<FixedRapierWorker>`: its `WorkerPhysics`, `null` until it has mounted. */
const FixedRapierWorkerContext = createContext<{ physics: WorkerPhysics | null } | null>(null);

/** Props of {@link FixedRapierWorker}: the worker to start and `WorkerPhysics`' options. */
export interface FixedRapierWorkerProps extends WorkerPhysicsOptions {
  /**
   * Starts the worker that runs your physics module (a module that calls `runPhysicsWorker`):
   * `() => new Worker(new URL('./physics.worker.ts', import.meta.url), { type: 'module' })`.
   * Called when the component mounts (again after a remount: Strict Mode mounts twice);
   * unmounting ends that worker. Read once: to start another worker, give the component a new
   * `key`.
   */
  worker: () => WebWorkerLike | NodeWorkerLike;
  /** The meshes drawn from the worker's bodies (`useWorkerBody`). */
  children?: ReactNode;
}

/**
 * Puts the Rapier world in a worker for the nearest `<FixedTick>`: a `WorkerPhysics` of
 * `@fixedtick/three/rapier` for as long as it is mounted. The world, its bodies and the
 * fixed-step code that touches them live in your worker module (`runPhysicsWorker` from
 * `@fixedtick/three/rapier/worker`), each body published by a numeric id; the loop's clock, the
 * input latch (`input`), rendering and the meshes stay here, each mesh bound to a body's id with
 * {@link useWorkerBody} and drawn interpolated from the poses the worker publishes — through
 * shared memory on a cross-origin isolated page, else through messages (docs/react-three.md,
 * "Rapier in a worker"). Options are read when it mounts.
 *
 * @example
 * ```tsx
 * const startPhysics = () =>
 *   new Worker(new URL('./physics.worker.ts', import.meta.url), { type: 'module' });
 * <Canvas>
 *   <FixedTick tickRate={60}>
 *     <FixedRapierWorker worker={startPhysics}>
 *       <Crate id={1} />
 *     </FixedRapierWorker>
 *   </FixedTick>
 * </Canvas>
 * ```
 */
export function FixedRapierWorker({ worker, children, ...options }: FixedRapierWorkerProps) {
  const { loop } = useFixedTickState('FixedRapierWorker');
  const [physics, setPhysics] = useState<WorkerPhysics | null>(null);
  // read once, when mounted: an inline arrow or an options object is new on every render
  const settings = useRef({ worker, options });
  // Made when mounted (it adds itself to the loop and starts a worker: not in render, which may
  // run twice); unmounting disposes it, which ends the worker.
  useLayoutEffect(() => {
    const { worker: start, options: chosen } = settings.current;
    const made = new WorkerPhysics(loop, start(), chosen);
    setPhysics(made);
    return () => {
      made.dispose();
      setPhysics(null);
    };
  }, [loop]);
  return <FixedRapierWorkerContext value={{ physics }}>{children}</FixedRapierWorkerContext>;
}

/**
 * The nearest `<FixedRapierWorker>`'s `WorkerPhysics` (`teleport`, `post`, `onMessage`,
 * `transport`, `ready`, …), or `null` before it has mounted: the component renders again when
 * it is there. Throws when there is no `<FixedRapierWorker>` above.
 */
export function useWorkerPhysics(): WorkerPhysics | null {
  return useWorkerPhysicsIn('useWorkerPhysics');
}

/** {@link useWorkerPhysics}, its error naming `hook`. @internal */
export function useWorkerPhysicsIn(hook: string): WorkerPhysics | null {
  const state = useContext(FixedRapierWorkerContext);
  if (state === null) {
    throw new Error(
      `fixedtick: ${hook}() must be called in a component below <FixedRapierWorker> (itself below <FixedTick>)`,
    );
  }
  return state.physics;
}
