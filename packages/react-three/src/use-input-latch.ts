import {
  type BindKeyboardOptions,
  type BindPointerOptions,
  InputLatch,
  type InputTiming,
  type KeyboardTarget,
  type PointerTarget,
  type Unsubscribe,
} from '@fixedtick/three';
import { useEffect, useRef } from 'react';
import { type FixedTickState, useFixedTickState } from './fixed-tick-context.ts';

/** Options of {@link useInputLatch}: which DOM targets feed the latch while the component lives. */
export interface UseInputLatchOptions {
  /**
   * When a latched event reaches the simulation (`InputLatch`'s `timing`): `'arrival'`, the first
   * tick after it arrives; `'timestamp'`, the tick of its time, the same at every display rate.
   * The latch is shared, so this applies when it is made: the first component to call
   * `useInputLatch` under a `<FixedTick>` sets it.
   * @defaultValue `'arrival'`
   */
  timing?: InputTiming | undefined;
  /**
   * Where key events come from; `null` for none (feed the latch yourself: `press`, `release`).
   * @defaultValue `window` (none outside a browser)
   */
  keyboard?: KeyboardTarget | null | undefined;
  /** Options of the keyboard binding (`preventDefault: ['Space']`, `releaseOnBlur`). */
  keyboardOptions?: BindKeyboardOptions | undefined;
  /**
   * Where pointer events come from (`useThree((s) => s.gl.domElement)` for the canvas); `null`
   * for none.
   * @defaultValue `null`
   */
  pointer?: PointerTarget | null | undefined;
  /** Options of the pointer binding (`capture`). */
  pointerOptions?: BindPointerOptions | undefined;
}

/** Bindings of one kind, by target, with the number of components using each. */
type Bindings = Map<object, { users: number; unbind: Unsubscribe }>;

/** One `<FixedTick>`'s latch and its DOM bindings. */
interface SharedInput {
  readonly latch: InputLatch;
  readonly keyboard: Bindings;
  readonly pointer: Bindings;
}

const SHARED_INPUT = Symbol('fixedtick.react-three.input');

/** The latch of `state`'s loop, made on first use (in render: idempotent, one per loop). */
function sharedInput(state: FixedTickState, timing: InputTiming | undefined): SharedInput {
  let shared = state.extras.get(SHARED_INPUT) as SharedInput | undefined;
  if (shared === undefined) {
    const latch = new InputLatch(state.loop, timing === undefined ? undefined : { timing });
    shared = { latch, keyboard: new Map(), pointer: new Map() };
    state.extras.set(SHARED_INPUT, shared);
  }
  return shared;
}

/**
 * Binds `target` once for all the components that ask for it (the first one's options apply);
 * the returned release unbinds it when the last of them lets go.
 */
function bindShared(bindings: Bindings, target: object, bind: () => Unsubscribe): Unsubscribe {
  let binding = bindings.get(target);
  if (binding === undefined) {
    binding = { users: 0, unbind: bind() };
    bindings.set(target, binding);
  }
  binding.users++;
  const held = binding;
  return () => {
    if (--held.users > 0) return;
    bindings.delete(target);
    held.unbind();
  };
}

/**
 * The input latch of the nearest `<FixedTick>`: key presses and releases that arrive between
 * frames, handed to fixed steps so that `pressed(key)` is true in exactly one tick per press
 * (a press in a frame that runs no step is not lost; one in a frame with two steps is not seen
 * twice). Read `pressed` / `released` / `held` in `useFixedUpdate`, `pressedThisFrame` in
 * `useUpdate`.
 *
 * Every component under one `<FixedTick>` gets the same latch, and each DOM target is bound to it
 * once however many components ask (so a key is never counted twice); it is unbound when the last
 * of them unmounts. By default the keyboard of `window`.
 *
 * @example
 * ```tsx
 * const input = useInputLatch({ keyboardOptions: { preventDefault: ['Space'] } });
 * useFixedUpdate(() => { if (input.pressed('Space')) body.vy = 600; });
 * ```
 */
export function useInputLatch(options?: UseInputLatchOptions): InputLatch {
  const shared = sharedInput(useFixedTickState('useInputLatch'), options?.timing);
  const keyboard = options?.keyboard === undefined ? defaultKeyboard() : options.keyboard;
  const pointer = options?.pointer ?? null;
  // The binding options are read when a target is bound; a new object per render rebinds nothing.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  useEffect(() => {
    if (keyboard === null) return;
    return bindShared(shared.keyboard, keyboard, () =>
      shared.latch.bindKeyboard(keyboard, latest.current?.keyboardOptions),
    );
  }, [shared, keyboard]);
  useEffect(() => {
    if (pointer === null) return;
    return bindShared(shared.pointer, pointer, () =>
      shared.latch.bindPointer(pointer, latest.current?.pointerOptions),
    );
  }, [shared, pointer]);
  return shared.latch;
}

function defaultKeyboard(): KeyboardTarget | null {
  const global = globalThis as { window?: KeyboardTarget };
  return global.window ?? null;
}
