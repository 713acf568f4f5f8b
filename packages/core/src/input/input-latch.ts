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
import { describeValue, optionValueError } from './describe-value.ts';
import {
  type BindKeyboardOptions,
  type BindPointerOptions,
  bindKeyboard,
  bindPointer,
  type KeyboardTarget,
  type PointerTarget,
} from './dom-bindings.ts';
import { FrameTimeMap } from './frame-time-map.ts';
import { grown } from './grown.ts';
import { checkKey, INPUT_MAX_KEYS } from './input-limits.ts';
import { readOptions } from './read-options.ts';

/** What an input event did: a key went down or up, or the pointer moved. */
export type InputEventKind = 'press' | 'release' | 'move';

/**
 * Receives each event as it is delivered to the simulation: `(tick, kind, key, x, y)`. `key` is
 * `''` and `x`, `y` are the pointer position for `'move'`; for keys `x` and `y` are 0.
 */
export type InputListener = (
  tick: number,
  kind: InputEventKind,
  key: string,
  x: number,
  y: number,
) => void;

/**
 * What drives a latch instead of live input during a replay (internal to the input module).
 * `deliver` is called once per tick with the tick number relative to the replay's start; it
 * applies that tick's events through `apply`, and returns false once the replay is over.
 * @internal
 */
export interface LatchSource {
  deliver(relativeTick: number, apply: LatchApply): boolean;
}

/** Applies one recorded event to a latch (internal to the input module). @internal */
export type LatchApply = (kind: InputEventKind, key: string, x: number, y: number) => void;

/** The state a replay starts from (internal to the input module). @internal */
export interface LatchStart {
  held: readonly string[];
  pointerX: number;
  pointerY: number;
}

/** Module-internal access to a latch, for `InputRecording`. Not part of the public API. @internal */
export const latchInternals = Symbol('fixedtick.latchInternals');

/** The internal control surface behind {@link latchInternals}. @internal */
export interface LatchInternals {
  /** The next tick whose events are not delivered yet. */
  nextTick(): number;
  /** Keys held in the simulation now, and the pointer position it sees. */
  snapshot(): LatchStart;
  /** Hands the latch to `source` from the next tick on (`undefined` gives it back to live input). */
  drive(source: LatchSource | undefined, start?: LatchStart, onEnd?: () => void): void;
}

/**
 * When a latched event reaches the simulation: see {@link InputLatchOptions.timing}.
 * `'arrival'` is the default.
 */
export type InputTiming = 'arrival' | 'timestamp';

/** Options of {@link InputLatch}. */
export interface InputLatchOptions {
  /**
   * When an event reaches the simulation.
   *
   * - `'arrival'`: the first tick that runs after `press`/`release` is called.
   * - `'timestamp'`: an event that carries a time (`event.timeStamp` through the DOM bindings, or
   *   `press(key, timeMs)` / `release(key, timeMs)`, on the clock of the frame timestamps) goes
   *   to the first tick whose simulated span `(k·fixedDelta, (k+1)·fixedDelta]` ends at or after
   *   that moment, mapped through the loop's frame timestamps: a press at the same real moment
   *   lands on the same tick at 30, 60 or 144 Hz. Never a tick that has already run; a moment
   *   after the last step boundary of the frame `'arrival'` would deliver it in goes to the next
   *   tick, one tick later. Events without a time, and frames run by `advance()` /
   *   `stepOnce()`, keep `'arrival'`.
   *
   * See `docs/input-and-determinism.md` for the rule worked out at 30, 60 and 144 fps.
   * @defaultValue `'arrival'`
   */
  timing?: InputTiming;
}

const PRESS = 0;
const RELEASE = 1;
const KIND_NAMES: readonly InputEventKind[] = ['press', 'release', 'move'];
const NEVER = Number.NEGATIVE_INFINITY;
/** The tick an event without a mapped time waits for: none, it goes to the next tick. */
const NEXT_TICK = Number.NEGATIVE_INFINITY;
const INITIAL_KEYS = 32;
const INITIAL_QUEUE = 64;

/** True for a loop the latch can subscribe to (a FixedLoop or an adapter's loop). */
function isLoop(value: unknown): value is FixedLoop {
  try {
    const loop = value as FixedLoop;
    return (
      typeof loop === 'object' &&
      loop !== null &&
      typeof loop.onFixedUpdate === 'function' &&
      typeof loop.onFrameStart === 'function'
    );
  } catch {
    return false; // a Proxy whose traps throw
  }
}

function readTiming(options: unknown): InputTiming {
  const { timing } = readOptions(options, 'InputLatch', ['timing']);
  if (timing === undefined || timing === 'arrival') return 'arrival';
  if (timing === 'timestamp') return timing;
  throw optionValueError('timing', timing, '"arrival" or "timestamp"');
}

/**
 * Throws the library's `RangeError` for a press or release time that is not a finite number or
 * `undefined`. It returns nothing: a double returned (or passed) through a call V8 does not
 * inline is boxed, and events must allocate nothing, so the time travels as the caller's value.
 */
function checkTime(timeMs: unknown): void {
  if (timeMs !== undefined && !(typeof timeMs === 'number' && Number.isFinite(timeMs))) {
    throw optionValueError('timeMs', timeMs, 'a finite number of milliseconds (or undefined)');
  }
}

/** `a` and `b` are the same number, −0 and 0 told apart (so a −0 reaches the simulation). */
function same(a: number, b: number): boolean {
  return a === b && (a !== 0 || 1 / a === 1 / b);
}

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
 * See the module doc for the guarantees and `docs/input-and-determinism.md` for the why.
 */
export class InputLatch {
  readonly #loop: FixedLoop;
  readonly #timing: InputTiming;
  readonly #timeMap: FrameTimeMap | undefined;

  // Key slots. A slot holds one key name ('' when free); slots below #top have been used, so
  // per-frame passes stop there. Released keys give their slot back when room is needed.
  readonly #keys = new Map<string, number>();
  readonly #names: string[] = [];
  #top = 0;
  #used = 0;
  #capacity = INITIAL_KEYS;
  #free = new Int32Array(INITIAL_KEYS);
  #freeCount = 0;

  // Live view: what the sources said, as it arrives.
  #liveDown = new Uint8Array(INITIAL_KEYS);
  #livePressed = new Uint8Array(INITIAL_KEYS);
  #liveReleased = new Uint8Array(INITIAL_KEYS);
  #liveX = 0;
  #liveY = 0;
  // Frame view: the live view as it stood at the start of the frame.
  #frameDown = new Uint8Array(INITIAL_KEYS);
  #framePressed = new Uint8Array(INITIAL_KEYS);
  #frameReleased = new Uint8Array(INITIAL_KEYS);
  // Tick view: what the simulation has been given.
  #held = new Uint8Array(INITIAL_KEYS);
  #pressTick = new Float64Array(INITIAL_KEYS).fill(NEVER);
  #releaseTick = new Float64Array(INITIAL_KEYS).fill(NEVER);
  /** The last tick in which the key changed state or held an event back for a later tick. */
  #busyTick = new Float64Array(INITIAL_KEYS).fill(NEVER);
  /** Events of the key waiting in the queue. */
  #queued = new Int32Array(INITIAL_KEYS);
  #simX = 0;
  #simY = 0;
  #deliveredTick = NEVER;

  // Events waiting for a tick, in arrival order: kind, key slot, time (ms; timestamp timing)
  // and the tick they wait for (NEXT_TICK; NaN while a timed event is not mapped yet).
  #queueKind = new Uint8Array(INITIAL_QUEUE);
  #queueKey = new Int32Array(INITIAL_QUEUE);
  #queueTime = new Float64Array(INITIAL_QUEUE);
  #queueTarget = new Float64Array(INITIAL_QUEUE);
  #queueLength = 0;
  #unmapped = 0;

  #listeners: readonly InputListener[] = [];
  #source: LatchSource | undefined;
  #sourceBase = 0;
  #sourceEnd: (() => void) | undefined;
  #applyTick = 0;
  #listenerError: { error: unknown } | undefined;
  readonly #bindings = new Set<Unsubscribe>();
  readonly #unsubscribe: Unsubscribe[];
  #disposed = false;

  /**
   * @param loop the loop whose ticks receive the input (a `FixedLoop` or an adapter's loop).
   * @param options see {@link InputLatchOptions}.
   * @throws TypeError when `loop` is not a loop; RangeError for a bad option (naming it).
   */
  constructor(loop: FixedLoop, options?: InputLatchOptions) {
    if (!isLoop(loop)) {
      throw optionValueError('loop', loop, 'a FixedLoop', TypeError);
    }
    this.#timing = readTiming(options);
    this.#timeMap = this.#timing === 'timestamp' ? new FrameTimeMap(loop) : undefined;
    this.#loop = loop;
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
    let k = this.#keys.get(key);
    if (k === undefined) checkKey(key);
    if (this.#source !== undefined || this.#disposed) return;
    if (k === undefined) k = this.#intern(key);
    else if (this.#liveDown[k] === 1) return;
    this.#liveDown[k] = 1;
    this.#livePressed[k] = 1;
    this.#enqueue(PRESS, k, timeMs);
  }

  /**
   * `key` went up, at `timeMs` if given (see {@link press}). Ignored if it is not down, or while
   * a replay drives the latch.
   */
  release(key: string, timeMs?: number): void {
    checkTime(timeMs);
    const k = this.#keys.get(key);
    if (k === undefined) checkKey(key);
    if (this.#source !== undefined || this.#disposed || k === undefined) return;
    if (this.#liveDown[k] === 1) this.#release(k, timeMs);
  }

  /** Releases every key that is down (focus loss: the key-up events will never come). */
  releaseAll(): void {
    if (this.#source !== undefined || this.#disposed) return;
    for (let k = 0; k < this.#top; k++) {
      if (this.#liveDown[k] === 1) this.#release(k, undefined);
    }
  }

  /**
   * The pointer is at (`x`, `y`). Only the latest position matters: each tick sees the position
   * as it stood when the tick began ({@link pointerX}). Values that are not finite numbers are
   * ignored.
   */
  move(x: number, y: number): void {
    if (this.#source !== undefined || this.#disposed) return;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    this.#liveX = x;
    this.#liveY = y;
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
    const tick = this.#currentTick();
    const k = this.#slotOf(key);
    return k >= 0 && this.#pressTick[k] === tick;
  }

  /** True in exactly one tick per release of `key`: the first tick after it that the key was down. */
  released(key: string): boolean {
    const tick = this.#currentTick();
    const k = this.#slotOf(key);
    return k >= 0 && this.#releaseTick[k] === tick;
  }

  /** True while `key` is down as far as the simulation knows (from its `pressed` tick on). */
  held(key: string): boolean {
    this.#currentTick();
    const k = this.#slotOf(key);
    return k >= 0 && this.#held[k] === 1;
  }

  /** Pointer x as the simulation sees it (latched at the start of each tick). */
  get pointerX(): number {
    this.#currentTick();
    return this.#simX;
  }

  /** Pointer y as the simulation sees it (latched at the start of each tick). */
  get pointerY(): number {
    this.#currentTick();
    return this.#simY;
  }

  // ---- frame queries (update, lateUpdate, preRender) --------------------------------------

  /**
   * True during the one frame that follows a press of `key` (Unity's `GetKeyDown` in `Update`):
   * for menus, cameras and effects in `update` code. Not for the simulation — use
   * {@link pressed} there.
   */
  pressedThisFrame(key: string): boolean {
    const k = this.#slotOf(key);
    return k >= 0 && this.#framePressed[k] === 1;
  }

  /** True during the one frame that follows a release of `key`. */
  releasedThisFrame(key: string): boolean {
    const k = this.#slotOf(key);
    return k >= 0 && this.#frameReleased[k] === 1;
  }

  /** True if `key` was down when this frame began. */
  heldThisFrame(key: string): boolean {
    const k = this.#slotOf(key);
    return k >= 0 && this.#frameDown[k] === 1;
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
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Events waiting for a tick. */
  get pending(): number {
    return this.#queueLength;
  }

  /**
   * Keys the latch keeps a slot for: down, waiting for a tick, or changed lately. A released
   * key keeps its slot until room is needed for another, so this stays small whatever keys come
   * and go, and never exceeds {@link INPUT_MAX_KEYS}.
   */
  get keyCount(): number {
    return this.#used;
  }

  /** True while an `InputRecording` replay drives the latch (live input is ignored). */
  get replaying(): boolean {
    return this.#source !== undefined;
  }

  /** Removes the latch's loop hooks and every DOM binding, and stops a replay. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const off of this.#unsubscribe) off();
    for (const off of [...this.#bindings]) off();
    this.#source = undefined;
    this.#sourceEnd = undefined;
  }

  /** Internal access for `InputRecording`. @internal */
  get [latchInternals](): LatchInternals {
    return {
      nextTick: () => this.#nextTick(),
      snapshot: () => {
        this.#currentTick();
        const held: string[] = [];
        for (let k = 0; k < this.#top; k++) {
          if (this.#held[k] === 1) held.push(this.#names[k]);
        }
        return { held, pointerX: this.#simX, pointerY: this.#simY };
      },
      drive: (source, start, onEnd) => this.#drive(source, start, onEnd),
    };
  }

  static {
    isLatch = (value) => typeof value === 'object' && value !== null && #loop in value;
  }

  // ---- internals ---------------------------------------------------------------------------

  // Tiny for the same reason as #onFrame.
  readonly #onTick = (_fixedDelta: number, tick: number): void => this.#deliver(tick);

  // Tiny, so that V8 inlines it into the loop's frame: the loop passes doubles (delta, alpha)
  // to its listeners, and a call that is not inlined boxes them (an allocation per frame).
  readonly #onFrame = (): void => this.#frameStart();

  #frameStart(): void {
    const n = this.#top;
    for (let k = 0; k < n; k++) {
      this.#frameDown[k] = this.#liveDown[k];
      this.#framePressed[k] = this.#livePressed[k];
      this.#frameReleased[k] = this.#liveReleased[k];
      this.#livePressed[k] = 0;
      this.#liveReleased[k] = 0;
    }
    const timeMap = this.#timeMap;
    if (timeMap !== undefined) {
      timeMap.beginFrame();
      if (this.#unmapped > 0) this.#mapPending();
    }
  }

  /** The tick queries answer for: the step running now, else the last one that ran. */
  #currentTick(): number {
    const loop = this.#loop;
    if (loop.inFixedStep) {
      // A listener ahead of ours (same -Infinity priority, subscribed earlier) asks first.
      this.#deliver(loop.tick);
      return loop.tick;
    }
    return loop.tick - 1;
  }

  /** The slot of `key`, or -1 for a key the latch does not hold (throwing for a non-key). */
  #slotOf(key: string): number {
    const k = this.#keys.get(key);
    if (k !== undefined) return k;
    checkKey(key);
    return -1;
  }

  #nextTick(): number {
    const loop = this.#loop;
    return loop.inFixedStep && this.#deliveredTick === loop.tick ? loop.tick + 1 : loop.tick;
  }

  #deliver(tick: number): void {
    if (tick === this.#deliveredTick || this.#disposed) return;
    this.#deliveredTick = tick;
    this.#applyTick = tick;
    const source = this.#source;
    if (source !== undefined) {
      if (!source.deliver(tick - this.#sourceBase, this.#applyRecorded)) this.#endReplay();
    } else {
      this.#deliverLive(tick);
    }
    const failure = this.#listenerError;
    if (failure !== undefined) {
      this.#listenerError = undefined;
      throw failure.error;
    }
  }

  /** Gives each timed event that arrived since the last mapping its tick (timestamp timing). */
  #mapPending(): void {
    (this.#timeMap as FrameTimeMap).map(this.#queueTime, this.#queueTarget, this.#queueLength);
    this.#unmapped = 0;
  }

  #deliverLive(tick: number): void {
    // Timed events that arrived during this frame take its mapping.
    if (this.#unmapped > 0) this.#mapPending();
    const kinds = this.#queueKind;
    const keys = this.#queueKey;
    const times = this.#queueTime;
    const targets = this.#queueTarget;
    const busy = this.#busyTick;
    const n = this.#queueLength;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      if (busy[k] === tick || targets[i] > tick) {
        // This key already changed in this tick, or the event belongs to a later tick: keep it,
        // in order, and hold the key's later events back with it.
        busy[k] = tick;
        kinds[kept] = kinds[i];
        keys[kept] = k;
        times[kept] = times[i];
        targets[kept] = targets[i];
        kept++;
      } else {
        this.#queued[k]--;
        this.#apply(kinds[i], k, tick);
      }
    }
    this.#queueLength = kept;
    if (!same(this.#liveX, this.#simX) || !same(this.#liveY, this.#simY)) {
      this.#simX = this.#liveX;
      this.#simY = this.#liveY;
      this.#emit(tick, 'move', '', this.#simX, this.#simY);
    }
  }

  #apply(kind: number, k: number, tick: number): void {
    this.#busyTick[k] = tick;
    if (kind === PRESS) {
      this.#held[k] = 1;
      this.#pressTick[k] = tick;
    } else {
      this.#held[k] = 0;
      this.#releaseTick[k] = tick;
    }
    this.#emit(tick, KIND_NAMES[kind], this.#names[k], 0, 0);
  }

  readonly #applyRecorded: LatchApply = (kind, key, x, y) => {
    const tick = this.#applyTick;
    if (kind === 'move') {
      this.#simX = x;
      this.#simY = y;
      this.#liveX = x;
      this.#liveY = y;
      this.#emit(tick, 'move', '', x, y);
      return;
    }
    const k = this.#keys.get(key) ?? this.#intern(key);
    const code = kind === 'press' ? PRESS : RELEASE;
    // The per-frame view follows the replay, so update code reacts as it did when recording.
    this.#liveDown[k] = code === PRESS ? 1 : 0;
    if (code === PRESS) this.#livePressed[k] = 1;
    else this.#liveReleased[k] = 1;
    this.#apply(code, k, tick);
  };

  #emit(tick: number, kind: InputEventKind, key: string, x: number, y: number): void {
    const list = this.#listeners;
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](tick, kind, key, x, y);
      } catch (error) {
        if (this.#listenerError === undefined) this.#listenerError = { error };
      }
    }
  }

  #drive(source: LatchSource | undefined, start?: LatchStart, onEnd?: () => void): void {
    if (source === undefined) {
      this.#endReplay();
      return;
    }
    this.#sourceEnd?.();
    this.#source = source;
    this.#sourceEnd = onEnd;
    this.#sourceBase = this.#nextTick();
    this.#queueLength = 0;
    this.#unmapped = 0;
    const n = this.#top;
    for (let k = 0; k < n; k++) {
      this.#held[k] = 0;
      this.#liveDown[k] = 0;
      this.#queued[k] = 0;
      this.#pressTick[k] = NEVER;
      this.#releaseTick[k] = NEVER;
      this.#busyTick[k] = NEVER;
    }
    if (start !== undefined) {
      for (const key of start.held) {
        const k = this.#keys.get(key) ?? this.#intern(key);
        this.#held[k] = 1;
        this.#liveDown[k] = 1;
      }
      this.#simX = this.#liveX = start.pointerX;
      this.#simY = this.#liveY = start.pointerY;
    }
  }

  #endReplay(): void {
    if (this.#source === undefined) return;
    const onEnd = this.#sourceEnd;
    this.#source = undefined;
    this.#sourceEnd = undefined;
    // Live input resumes from the state the replay left.
    this.#liveDown.set(this.#held.subarray(0, this.#top));
    onEnd?.();
  }

  #track(dispose: Unsubscribe): Unsubscribe {
    const off = (): void => {
      if (!this.#bindings.delete(off)) return;
      dispose();
    };
    this.#bindings.add(off);
    return off;
  }

  #release(k: number, timeMs: number | undefined): void {
    this.#liveDown[k] = 0;
    this.#liveReleased[k] = 1;
    this.#enqueue(RELEASE, k, timeMs);
  }

  #enqueue(kind: number, k: number, timeMs: number | undefined): void {
    const n = this.#queueLength;
    if (n === this.#queueKind.length) this.#growQueue();
    this.#queueKind[n] = kind;
    this.#queueKey[n] = k;
    if (this.#timeMap !== undefined && timeMs !== undefined) {
      this.#queueTime[n] = timeMs;
      this.#queueTarget[n] = Number.NaN;
      this.#unmapped++;
    } else {
      this.#queueTarget[n] = NEXT_TICK;
    }
    this.#queued[k]++;
    this.#queueLength = n + 1;
  }

  #growQueue(): void {
    const size = this.#queueKind.length * 2;
    this.#queueKind = grown(this.#queueKind, size);
    this.#queueKey = grown(this.#queueKey, size);
    this.#queueTime = grown(this.#queueTime, size);
    this.#queueTarget = grown(this.#queueTarget, size);
  }

  /** A slot for `key` (a valid key name the latch does not hold yet). */
  #intern(key: string): number {
    if (this.#freeCount === 0 && this.#top === this.#capacity) this.#makeRoom(key);
    const k = this.#freeCount > 0 ? this.#free[--this.#freeCount] : this.#top++;
    this.#keys.set(key, k);
    this.#names[k] = key;
    this.#used++;
    return k;
  }

  /**
   * Every slot is taken: forget the keys that no query can answer true for any more, and grow
   * the table if that freed less than a quarter of it (so a game's own keys settle into their
   * slots and are not forgotten and re-learnt over and over).
   */
  #makeRoom(key: string): void {
    const freed = this.#forgetReleased();
    if (freed * 4 >= this.#capacity) return;
    if (this.#capacity < INPUT_MAX_KEYS) this.#grow();
    else if (freed === 0) {
      throw new RangeError(
        `fixedtick: an InputLatch tracks at most ${INPUT_MAX_KEYS} keys at once (down, waiting for a tick or changed in the last tick); ${describeValue(key)} would be one more`,
      );
    }
  }

  /** Frees the slot of every key that is up, has no event waiting and changed two ticks ago or more. */
  #forgetReleased(): number {
    // Tick queries answer for the running tick or the last one that ran: loop.tick - 1 or later.
    const oldest = this.#loop.tick - 1;
    let freed = 0;
    for (let k = 0; k < this.#top; k++) {
      const name = this.#names[k];
      if (
        name === '' ||
        this.#queued[k] !== 0 ||
        this.#busyTick[k] >= oldest ||
        (this.#liveDown[k] | this.#livePressed[k] | this.#liveReleased[k] | this.#held[k]) !== 0 ||
        (this.#frameDown[k] | this.#framePressed[k] | this.#frameReleased[k]) !== 0
      ) {
        continue;
      }
      this.#keys.delete(name);
      this.#names[k] = '';
      this.#pressTick[k] = NEVER;
      this.#releaseTick[k] = NEVER;
      this.#busyTick[k] = NEVER;
      this.#free[this.#freeCount++] = k;
      this.#used--;
      freed++;
    }
    return freed;
  }

  #grow(): void {
    const size = this.#capacity * 2;
    this.#liveDown = grown(this.#liveDown, size);
    this.#livePressed = grown(this.#livePressed, size);
    this.#liveReleased = grown(this.#liveReleased, size);
    this.#frameDown = grown(this.#frameDown, size);
    this.#framePressed = grown(this.#framePressed, size);
    this.#frameReleased = grown(this.#frameReleased, size);
    this.#held = grown(this.#held, size);
    this.#pressTick = grown(this.#pressTick, size, NEVER);
    this.#releaseTick = grown(this.#releaseTick, size, NEVER);
    this.#busyTick = grown(this.#busyTick, size, NEVER);
    this.#queued = grown(this.#queued, size);
    this.#free = grown(this.#free, size);
    this.#capacity = size;
  }
}
