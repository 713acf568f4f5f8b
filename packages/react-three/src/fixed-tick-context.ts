import type { ThreeFixedLoop } from '@fixedtick/three';
import { createContext, useContext } from 'react';

/**
 * What one `<FixedTick>` shares with the hooks below it: its loop, and what the hooks add to it
 * lazily (the shared input latch), so a hook that is never used costs nothing.
 */
export interface FixedTickState {
  /** The one loop of this `<FixedTick>`, for its whole life. */
  readonly loop: ThreeFixedLoop;
  /** Per-hook extras, keyed by the module that owns them (`useInputLatch`'s shared latch). */
  readonly extras: Map<symbol, unknown>;
}

/** The nearest `<FixedTick>`'s state; `null` outside one. */
export const FixedTickContext = createContext<FixedTickState | null>(null);

/**
 * The nearest `<FixedTick>`'s state, or a clear error naming `hook` when there is none (a hook
 * used outside `<FixedTick>`, or `<FixedTick>` outside `<Canvas>`).
 */
export function useFixedTickState(hook: string): FixedTickState {
  const state = useContext(FixedTickContext);
  if (state === null) {
    throw new Error(
      `fixedtick: ${hook}() must be called in a component below <FixedTick> (itself inside <Canvas>)`,
    );
  }
  return state;
}
