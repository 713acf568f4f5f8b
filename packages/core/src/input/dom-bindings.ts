/**
 * DOM listeners that feed an {@link InputLatch}. Nothing here runs at module load: the DOM is
 * touched only when `bindKeyboard` / `bindPointer` are called, with the target they are given
 * (any `EventTarget`: `window`, a canvas, or Node's own `EventTarget` in tests).
 */
import type { Unsubscribe } from '../hook.ts';

/** The part of an {@link InputLatch} the bindings feed. */
export interface InputSink {
  press(key: string): void;
  release(key: string): void;
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

type KeyLike = Event & { code?: string; key?: string; repeat?: boolean };
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

/** Feeds `KeyboardEvent.code` keys from `target` into `sink`; returns the remover. */
export function bindKeyboard(
  sink: InputSink,
  target: KeyboardTarget,
  options: BindKeyboardOptions = {},
): Unsubscribe {
  checkTarget(target, 'bindKeyboard');
  const prevent = options.preventDefault ?? false;
  const releaseOnBlur = options.releaseOnBlur ?? true;
  const codeOf = (event: KeyLike): string => {
    // `code` is the physical key (layout-independent: WASD stays WASD on AZERTY). A few virtual
    // keyboards leave it empty; `key` is the best we have then.
    const code = event.code || event.key || '';
    if (code !== '' && (prevent === true || (prevent !== false && prevent.includes(code)))) {
      event.preventDefault();
    }
    return code;
  };
  // Keys this binding pressed, released again on dispose so none stays stuck down.
  const down = new Set<string>();
  const onDown = (event: Event): void => {
    const e = event as KeyLike;
    const code = codeOf(e);
    if (code === '' || e.repeat === true) return;
    down.add(code);
    sink.press(code);
  };
  const onUp = (event: Event): void => {
    const code = codeOf(event as KeyLike);
    if (code === '') return;
    down.delete(code);
    sink.release(code);
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
  options: BindPointerOptions = {},
): Unsubscribe {
  checkTarget(target, 'bindPointer');
  const capture = options.capture ?? true;
  let buttons = 0;
  const sync = (next: number): void => {
    const changed = buttons ^ next;
    buttons = next;
    if (changed === 0) return;
    for (let bit = 0; bit < POINTER_BUTTONS.length; bit++) {
      const mask = 1 << bit;
      if ((changed & mask) === 0) continue;
      if ((next & mask) !== 0) sink.press(POINTER_BUTTONS[bit]);
      else sink.release(POINTER_BUTTONS[bit]);
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
    const e = event as PointerLike;
    if (e.isPrimary === false) return;
    position(e);
    if (typeof e.buttons === 'number') sync(e.buttons);
    if (capture && event.type === 'pointerdown' && typeof e.pointerId === 'number') {
      try {
        target.setPointerCapture?.(e.pointerId);
      } catch {
        // The pointer may already be gone (a synthetic event); capture is only a nicety.
      }
    }
  };
  const onCancel = (event: Event): void => {
    if ((event as PointerLike).isPrimary === false) return;
    sync(0);
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
  const t = target as KeyboardTarget | null | undefined;
  if (
    t == null ||
    typeof t.addEventListener !== 'function' ||
    typeof t.removeEventListener !== 'function'
  ) {
    throw new TypeError(`fixedtick: ${name} needs an EventTarget, got ${String(target)}`);
  }
}
