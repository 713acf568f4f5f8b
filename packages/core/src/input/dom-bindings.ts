/**
 * DOM listeners that feed an {@link InputLatch}. Nothing here runs at module load: the DOM is
 * touched only when `bindKeyboard` / `bindPointer` are called, with the target they are given
 * (any `EventTarget`: `window`, a canvas, or Node's own `EventTarget` in tests).
 *
 * A listener never throws, whatever the event: one without a usable key (Chrome's autofill
 * sends `keydown` events with no `key`), with a `code` that is not a string, or whose fields
 * throw when read is ignored, so a stray event cannot break the page's other listeners.
 */
import type { Unsubscribe } from '../hook.ts';
import { describeValue, optionValueError } from './describe-value.ts';
import { isKeyName } from './input-limits.ts';
import { readOptions } from './read-options.ts';

/** The part of an {@link InputLatch} the bindings feed. */
export interface InputSink {
  press(key: string, timeMs?: number): void;
  release(key: string, timeMs?: number): void;
  releaseAll(): void;
  move(x: number, y: number): void;
}

/** Something keyboard events come from: `window`, `document`, a focusable element. */
export type KeyboardTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/** Something pointer events come from: usually the canvas. */
export type PointerTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & {
  /** `Element.setPointerCapture`, used when `capture` is on. */
  setPointerCapture?(pointerId: number): void;
};

/** Options of `bindKeyboard`. */
export interface BindKeyboardOptions {
  /**
   * Call `preventDefault()` on key events: `true` for every key, or a list of
   * `KeyboardEvent.code` values (`['Space', 'ArrowUp']` stops the page from scrolling).
   * @defaultValue false
   */
  preventDefault?: boolean | readonly string[];
  /**
   * Release every held key when the target loses focus (`blur`): the key-up events of keys
   * held while focus moves away never arrive, and a key that stays "held" forever is the
   * classic stuck-key bug.
   * @defaultValue true
   */
  releaseOnBlur?: boolean;
}

/** Options of `bindPointer`. */
export interface BindPointerOptions {
  /**
   * Capture the pointer on `pointerdown` (`setPointerCapture`), so the button-up is seen even
   * if it happens outside the target.
   * @defaultValue true
   */
  capture?: boolean;
}

type KeyLike = Event & { code?: unknown; key?: unknown; repeat?: unknown };
type PointerLike = Event & {
  buttons?: number;
  pointerId?: number;
  isPrimary?: boolean;
  offsetX?: number;
  offsetY?: number;
  clientX?: number;
  clientY?: number;
};

/**
 * Pointer button names by bit of `PointerEvent.buttons` (1 primary, 2 secondary, 4 auxiliary,
 * 8 back, 16 forward). Named rather than numbered because DOM and Unity number the right and
 * middle buttons differently.
 */
export const POINTER_BUTTONS: readonly string[] = [
  'MouseLeft',
  'MouseRight',
  'MouseMiddle',
  'MouseBack',
  'MouseForward',
];
const ALL_BUTTONS = 0b11111;

/** The event's `timeStamp` when it is a finite number (ms, the clock of rAF timestamps). */
function timeOf(event: Event): number | undefined {
  const t = event.timeStamp;
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

function checkFlag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw optionValueError(name, value, 'true or false');
  return value;
}

function checkPrevent(value: unknown): boolean | readonly string[] {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  let codes: string[] | undefined;
  try {
    if (Array.isArray(value) && value.every((code) => typeof code === 'string')) codes = [...value];
  } catch {
    // an array-like Proxy whose traps throw
  }
  if (codes === undefined) {
    throw optionValueError(
      'preventDefault',
      value,
      'true, false or a list of KeyboardEvent.code strings',
    );
  }
  return codes;
}

/** Feeds `KeyboardEvent.code` keys from `target` into `sink`; returns the remover. */
export function bindKeyboard(
  sink: InputSink,
  target: KeyboardTarget,
  options?: BindKeyboardOptions,
): Unsubscribe {
  checkTarget(target, 'bindKeyboard');
  const o = readOptions(options, 'bindKeyboard', ['preventDefault', 'releaseOnBlur']);
  const prevent = checkPrevent(o.preventDefault);
  const releaseOnBlur = checkFlag('releaseOnBlur', o.releaseOnBlur, true);
  const codeOf = (event: KeyLike): string => {
    // `code` is the physical key (layout-independent: WASD stays WASD on AZERTY). A few virtual
    // keyboards leave it empty; `key` is the best we have then. Anything else is no key.
    const { code, key } = event;
    const name = isKeyName(code) ? code : isKeyName(key) ? key : '';
    if (name !== '' && (prevent === true || (prevent !== false && prevent.includes(name)))) {
      event.preventDefault();
    }
    return name;
  };
  // Keys this binding pressed, released again on dispose so none stays stuck down.
  const down = new Set<string>();
  const onDown = (event: Event): void => {
    try {
      const e = event as KeyLike;
      const code = codeOf(e);
      if (code === '' || e.repeat === true) return;
      sink.press(code, timeOf(event));
      down.add(code);
    } catch {
      // an odd event (see the module doc): ignored
    }
  };
  const onUp = (event: Event): void => {
    try {
      const code = codeOf(event as KeyLike);
      if (code === '') return;
      down.delete(code);
      sink.release(code, timeOf(event));
    } catch {
      // an odd event: ignored
    }
  };
  const onBlur = (): void => {
    down.clear();
    sink.releaseAll();
  };

  target.addEventListener('keydown', onDown);
  target.addEventListener('keyup', onUp);
  if (releaseOnBlur) target.addEventListener('blur', onBlur);
  let bound = true;
  return () => {
    if (!bound) return;
    bound = false;
    target.removeEventListener('keydown', onDown);
    target.removeEventListener('keyup', onUp);
    if (releaseOnBlur) target.removeEventListener('blur', onBlur);
    for (const code of down) sink.release(code);
    down.clear();
  };
}

/**
 * Feeds pointer buttons and position from `target` into `sink`; returns the remover. Only the
 * primary pointer counts (the first finger of a multi-touch). The position is `offsetX/offsetY`
 * (CSS pixels from the target's padding edge) when the event has them, else
 * `clientX/clientY`.
 */
export function bindPointer(
  sink: InputSink,
  target: PointerTarget,
  options?: BindPointerOptions,
): Unsubscribe {
  checkTarget(target, 'bindPointer');
  const capture = checkFlag(
    'capture',
    readOptions(options, 'bindPointer', ['capture']).capture,
    true,
  );
  let buttons = 0;
  const sync = (next: number, timeMs?: number): void => {
    const changed = buttons ^ next;
    buttons = next;
    if (changed === 0) return;
    for (let bit = 0; bit < POINTER_BUTTONS.length; bit++) {
      const mask = 1 << bit;
      if ((changed & mask) === 0) continue;
      if ((next & mask) !== 0) sink.press(POINTER_BUTTONS[bit], timeMs);
      else sink.release(POINTER_BUTTONS[bit], timeMs);
    }
  };
  const position = (e: PointerLike): void => {
    const x = e.offsetX ?? e.clientX;
    const y = e.offsetY ?? e.clientY;
    if (typeof x === 'number' && typeof y === 'number') sink.move(x, y);
  };
  // `pointerdown`/`pointerup` fire only for the first button down and the last one up; chorded
  // buttons show up as `pointermove` with a new `buttons` mask, so every event syncs the mask.
  const onPointer = (event: Event): void => {
    try {
      const e = event as PointerLike;
      if (e.isPrimary === false) return;
      position(e);
      // the five named buttons only; a mask that is not a number leaves them as they are
      if (typeof e.buttons === 'number') sync(e.buttons & ALL_BUTTONS, timeOf(event));
      if (capture && event.type === 'pointerdown' && typeof e.pointerId === 'number') {
        target.setPointerCapture?.(e.pointerId);
      }
    } catch {
      // an odd event, or a pointer already gone when captured (capture is only a nicety): ignored
    }
  };
  const onCancel = (event: Event): void => {
    try {
      if ((event as PointerLike).isPrimary === false) return;
      sync(0, timeOf(event));
    } catch {
      // an odd event: ignored
    }
  };
  const onBlur = (): void => sync(0);

  const types = ['pointerdown', 'pointerup', 'pointermove'] as const;
  for (const type of types) target.addEventListener(type, onPointer);
  target.addEventListener('pointercancel', onCancel);
  target.addEventListener('blur', onBlur);
  let bound = true;
  return () => {
    if (!bound) return;
    bound = false;
    for (const type of types) target.removeEventListener(type, onPointer);
    target.removeEventListener('pointercancel', onCancel);
    target.removeEventListener('blur', onBlur);
    sync(0);
  };
}

function checkTarget(target: unknown, name: string): void {
  let ok = false;
  try {
    const t = target as KeyboardTarget | null | undefined;
    ok =
      t != null &&
      typeof t.addEventListener === 'function' &&
      typeof t.removeEventListener === 'function';
  } catch {
    // a Proxy whose traps throw
  }
  if (!ok)
    throw new TypeError(`fixedtick: ${name} needs an EventTarget, got ${describeValue(target)}`);
}
