/**
 * The input latch: key presses that arrive between frames, delivered to fixed steps.
 *
 * Why: fixed steps and display frames do not line up. Code that reads "was Space pressed this
 * frame?" inside `fixedUpdate` loses a press that lands in a frame that runs no step, and sees it
 * twice in a frame that runs two — the bug every Unity user meets as "`GetKeyDown` in
 * `FixedUpdate` sometimes misses". The latch queues presses and releases as they arrive and hands
 * each one to exactly one tick: the first tick that runs after it.
 *
 * Guarantees:
 * - `pressed(key)` is true in exactly one tick per press (the first tick that runs after it);
 *   the same for `released(key)`.
 * - A key changes state at most once per tick. A press and a release that arrive before the same
 *   tick (a tap shorter than a step, or a frame that runs no step) are delivered in two ticks:
 *   `pressed` (and `held`) in the first, `released` in the next. So a tap is always seen, and
 *   `held` is true for at least one tick of every press.
 * - Every event is stamped with the tick it is delivered in (see {@link InputLatch.onInput});
 *   replaying those stamps (`InputRecording`) reproduces the simulation exactly.
 * - With `timing: 'timestamp'`, an event that carries a time goes to the first tick whose
 *   simulated span ends at or after that moment (see {@link InputLatchOptions.timing}): the same
 *   tick at any display rate.
 * - Memory and per-frame work are bounded: at most {@link INPUT_MAX_KEYS} keys at once; a
 *   released key is forgotten when room is needed.
 * - Nothing is allocated per event or per frame in the steady state: events live in typed
 *   arrays, and a key keeps its slot until room is needed.
 *
 * @example
 * ```ts
 * const input = new InputLatch(loop);
 * const unbind = input.bindKeyboard(window);
 * loop.onFixedUpdate(() => { if (input.pressed('Space')) body.v = 600; });
 * loop.onUpdate(() => { if (input.pressedThisFrame('Escape')) menu.toggle(); });
 * ```
 */
import type { FixedLoop } from '../fixed-loop.ts';
import type { Unsubscribe } from '../hook.ts';
import {
  checkTime,
  type InputLatchOptions,
  type InputTiming,
  isLoop,
  readTiming,
} from './delivery-timing.ts';
import { optionValueError } from './describe-value.ts';
import {
  type BindKeyboardOptions,
  type BindPointerOptions,
  bindKeyboard,
  bindPointer,
  type KeyboardTarget,
  type PointerTarget,
} from './dom-bindings.ts';
import { PRESS } from './event-queue.ts';
import { type LatchInternals, latchInternals } from './latch-replay.ts';
import { type InputListener, TickDelivery } from './tick-delivery.ts';

export type { InputLatchOptions, InputTiming } from './delivery-timing.ts';
export type { InputEventKind } from './event-queue.ts';
export {
  type LatchApply,
  type LatchInternals,
  type LatchSource,
  type LatchStart,
  latchInternals,
} from './latch-replay.ts';
export type { InputListener } from './tick-delivery.ts';

let isLatch: (value: unknown) => boolean;

/**
 * True for an {@link InputLatch} of this library: a brand check that no Proxy or look-alike
 * passes, and that never throws. @internal
 */
export function isInputLatch(value: unknown): value is InputLatch {
  return isLatch(value);
}

/**
 * Latches key and pointer input for a {@link FixedLoop}: `press`/`release` from any source
 * (DOM, gamepad polling, network, tests), answered per tick inside `fixedUpdate` (`pressed`,
 * `released`, `held`) and per frame in `update` code (`pressedThisFrame`, …).
 *
 * Keys are strings: `KeyboardEvent.code` values (`'Space'`, `'KeyW'`) from {@link InputLatch.bindKeyboard},
 * `'MouseLeft'`, `'MouseRight'`, `'MouseMiddle'`, `'MouseBack'`, `'MouseForward'` from
 * {@link InputLatch.bindPointer}, or any name you choose (a non-empty string of at most
 * {@link INPUT_MAX_KEY_LENGTH} characters).
 *
 * See the module doc for the guarantees and `docs/input-and-determinism.md` for the why. The
 * parts live beside it: the key table (`key-table.ts`), the event queue (`event-queue.ts`), when
 * events are due (`delivery-timing.ts`), replays (`latch-replay.ts`) and the delivery to ticks
 * that ties them together (`tick-delivery.ts`).
 */
export class InputLatch {
  readonly #loop: FixedLoop;
  readonly #timing: InputTiming;
  /** The keys, the queue, the replay and the delivery to ticks. */
  readonly #state: TickDelivery;
  readonly #bindings = new Set<Unsubscribe>();
  readonly #unsubscribe: Unsubscribe[];

  /**
   * @param loop the loop whose ticks receive the input (a `FixedLoop` or an adapter's loop).
   * @param options see {@link InputLatchOptions}.
   * @throws TypeError when `loop` is not a loop; RangeError for a bad option (naming it).
   */
  constructor(loop: FixedLoop, options?: InputLatchOptions) {
    if (!isLoop(loop)) {
      throw optionValueError('loop', loop, 'a FixedLoop', TypeError);
    }
    const { timing, timeMap } = readTiming(options, loop);
    this.#timing = timing;
    this.#loop = loop;
    this.#state = new TickDelivery(loop, timeMap);
    this.#unsubscribe = [
      // First in every tick and frame, so every other listener sees the latched state.
      loop.onFixedUpdate(this.#onTick, { priority: Number.NEGATIVE_INFINITY }),
      loop.onFrameStart(this.#onFrame, { priority: Number.NEGATIVE_INFINITY }),
    ];
  }

  /** The loop this latch delivers to. */
  get loop(): FixedLoop {
    return this.#loop;
  }

  /** When events reach the simulation: see {@link InputLatchOptions.timing}. */
  get timing(): InputTiming {
    return this.#timing;
  }

  // ---- sources ---------------------------------------------------------------------------

  /**
   * `key` went down, at `timeMs` if given (milliseconds on the clock of the loop's frame
   * timestamps; used with `timing: 'timestamp'`, else ignored). Ignored if the key is already
   * down (keyboard auto-repeat, two sources for one key) or while a replay drives the latch.
   * @throws TypeError for a bad key name, RangeError for a time that is not a finite number or
   * when {@link INPUT_MAX_KEYS} keys are tracked already.
   */
  press(key: string, timeMs?: number): void {
    checkTime(timeMs);
    const state = this.#state;
    const keys = state.keys;
    let k = keys.slots.get(key);
    if (k === undefined) keys.slotOf(key); // throws for a non-key
    if (state.replay.source !== undefined || state.disposed) return;
    if (k === undefined) k = keys.intern(key, this.#loop.tick);
    else if (keys.liveDown[k] === 1) return;
    keys.liveDown[k] = 1;
    keys.livePressed[k] = 1;
    state.enqueue(PRESS, k, timeMs);
  }

  /**
   * `key` went up, at `timeMs` if given (see {@link press}). Ignored if it is not down, or while
   * a replay drives the latch.
   */
  release(key: string, timeMs?: number): void {
    checkTime(timeMs);
    const state = this.#state;
    const k = state.keys.slots.get(key);
    if (k === undefined) state.keys.slotOf(key); // throws for a non-key
    if (state.replay.source !== undefined || state.disposed || k === undefined) return;
    if (state.keys.liveDown[k] === 1) state.release(k, timeMs);
  }

  /** Releases every key that is down (focus loss: the key-up events will never come). */
  releaseAll(): void {
    const state = this.#state;
    if (state.replay.source !== undefined || state.disposed) return;
    for (let k = 0; k < state.keys.top; k++) {
      if (state.keys.liveDown[k] === 1) state.release(k, undefined);
    }
  }

  /**
   * The pointer is at (`x`, `y`). Only the latest position matters: each tick sees the position
   * as it stood when the tick began ({@link pointerX}). Values that are not finite numbers are
   * ignored.
   */
  move(x: number, y: number): void {
    const state = this.#state;
    if (state.replay.source !== undefined || state.disposed) return;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    state.liveX = x;
    state.liveY = y;
  }

  /**
   * Feeds `KeyboardEvent.code` keys from `target` (usually `window`): keydown/keyup with their
   * `timeStamp`, auto-repeat ignored, and every held key released when `target` loses focus
   * (`blur`). Returns the function that removes every listener it added. Touches the DOM only
   * when called.
   */
  bindKeyboard(target: KeyboardTarget, options?: BindKeyboardOptions): Unsubscribe {
    return this.#track(bindKeyboard(this, target, options));
  }

  /**
   * Feeds pointer buttons (`'MouseLeft'`, `'MouseRight'`, `'MouseMiddle'`, `'MouseBack'`,
   * `'MouseForward'`) with their `timeStamp`, and the pointer position, from `target` (usually
   * the canvas). Returns the function that removes every listener it added.
   */
  bindPointer(target: PointerTarget, options?: BindPointerOptions): Unsubscribe {
    return this.#track(bindPointer(this, target, options));
  }

  // ---- tick queries (fixedUpdate) ----------------------------------------------------------

  /**
   * True in exactly one tick per press of `key`: the first tick that runs after it (with
   * `timing: 'timestamp'`, the tick of its time). Call it from `fixedUpdate` (or
   * `postSimulation`); outside a step it answers for the last tick that ran — in `update` code
   * use {@link pressedThisFrame}. A key never pressed is not pressed; a value that cannot be a
   * key (`42`, `''`) throws the `TypeError` that `press` would.
   */
  pressed(key: string): boolean {
    const tick = this.#state.currentTick();
    const k = this.#state.keys.slotOf(key);
    return k >= 0 && this.#state.keys.pressTick[k] === tick;
  }

  /** True in exactly one tick per release of `key`: the first tick after it that the key was down. */
  released(key: string): boolean {
    const tick = this.#state.currentTick();
    const k = this.#state.keys.slotOf(key);
    return k >= 0 && this.#state.keys.releaseTick[k] === tick;
  }

  /** True while `key` is down as far as the simulation knows (from its `pressed` tick on). */
  held(key: string): boolean {
    this.#state.currentTick();
    const k = this.#state.keys.slotOf(key);
    return k >= 0 && this.#state.keys.held[k] === 1;
  }

  /** Pointer x as the simulation sees it (latched at the start of each tick). */
  get pointerX(): number {
    this.#state.currentTick();
    return this.#state.simX;
  }

  /** Pointer y as the simulation sees it (latched at the start of each tick). */
  get pointerY(): number {
    this.#state.currentTick();
    return this.#state.simY;
  }

  // ---- frame queries (update, lateUpdate, preRender) --------------------------------------

  /**
   * True during the one frame that follows a press of `key` (Unity's `GetKeyDown` in `Update`):
   * for menus, cameras and effects in `update` code. Not for the simulation — use
   * {@link pressed} there.
   */
  pressedThisFrame(key: string): boolean {
    const k = this.#state.keys.slotOf(key);
    return k >= 0 && this.#state.keys.framePressed[k] === 1;
  }

  /** True during the one frame that follows a release of `key`. */
  releasedThisFrame(key: string): boolean {
    const k = this.#state.keys.slotOf(key);
    return k >= 0 && this.#state.keys.frameReleased[k] === 1;
  }

  /** True if `key` was down when this frame began. */
  heldThisFrame(key: string): boolean {
    const k = this.#state.keys.slotOf(key);
    return k >= 0 && this.#state.keys.frameDown[k] === 1;
  }

  // ---- observation and lifecycle -----------------------------------------------------------

  /**
   * Calls `listener(tick, kind, key, x, y)` for each event as it is delivered to the
   * simulation, stamped with its tick (recording, sending inputs to a server). A listener that
   * throws does not stop delivery; the first error is rethrown after the tick's events are in.
   * @throws TypeError when `listener` is not a function.
   */
  onInput(listener: InputListener): Unsubscribe {
    if (typeof listener !== 'function') {
      throw new TypeError(`fixedtick: onInput expects a function, got ${typeof listener}`);
    }
    const state = this.#state;
    state.listeners = [...state.listeners, listener];
    return () => {
      state.listeners = state.listeners.filter((l) => l !== listener);
    };
  }

  /** Events waiting for a tick. */
  get pending(): number {
    return this.#state.queue.length;
  }

  /**
   * Keys the latch keeps a slot for: down, waiting for a tick, or changed lately. A released
   * key keeps its slot until room is needed for another, so this stays small whatever keys come
   * and go, and never exceeds {@link INPUT_MAX_KEYS}.
   */
  get keyCount(): number {
    return this.#state.keys.used;
  }

  /** True while an `InputRecording` replay drives the latch (live input is ignored). */
  get replaying(): boolean {
    return this.#state.replay.source !== undefined;
  }

  /** Removes the latch's loop hooks and every DOM binding, and stops a replay. */
  dispose(): void {
    const state = this.#state;
    if (state.disposed) return;
    state.disposed = true;
    for (const off of this.#unsubscribe) off();
    for (const off of [...this.#bindings]) off();
    state.replay.drop();
  }

  /** Internal access for `InputRecording`. @internal */
  get [latchInternals](): LatchInternals {
    const state = this.#state;
    return {
      nextTick: () => state.nextTick(),
      snapshot: () => {
        state.currentTick();
        const keys = state.keys;
        const held: string[] = [];
        for (let k = 0; k < keys.top; k++) {
          if (keys.held[k] === 1) held.push(keys.names[k]);
        }
        return { held, pointerX: state.simX, pointerY: state.simY };
      },
      drive: (source, start, onEnd) => state.drive(source, start, onEnd),
    };
  }

  static {
    isLatch = (value) => typeof value === 'object' && value !== null && #loop in value;
  }

  // ---- internals ---------------------------------------------------------------------------

  // Tiny for the same reason as #onFrame.
  readonly #onTick = (_fixedDelta: number, tick: number): void => this.#state.deliver(tick);

  // Tiny, so that V8 inlines it into the loop's frame: the loop passes doubles (delta, alpha)
  // to its listeners, and a call that is not inlined boxes them (an allocation per frame).
  readonly #onFrame = (): void => this.#state.frameStart();

  #track(dispose: Unsubscribe): Unsubscribe {
    const off = (): void => {
      if (!this.#bindings.delete(off)) return;
      dispose();
    };
    this.#bindings.add(off);
    return off;
  }
}
