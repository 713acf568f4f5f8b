import { FixedLoop } from '@fixedtick/core';
import { InputLatch } from '@fixedtick/core/input';
import { describe, expect, it } from 'vitest';

const STEP = 1 / 60;

/**
 * A real EventTarget (Node's) that also keeps the set of listeners currently registered, so a
 * test can check that dispose removed every one of them.
 */
class TrackedTarget extends EventTarget {
  readonly active = new Map<string, Set<unknown>>();
  readonly captured: number[] = [];

  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions | boolean,
  ): void {
    super.addEventListener(type, listener, options);
    if (!this.active.has(type)) this.active.set(type, new Set());
    this.active.get(type)?.add(listener);
  }

  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: EventListenerOptions | boolean,
  ): void {
    super.removeEventListener(type, listener, options);
    this.active.get(type)?.delete(listener);
  }

  get listenerCount(): number {
    let n = 0;
    for (const set of this.active.values()) n += set.size;
    return n;
  }

  setPointerCapture(id: number): void {
    this.captured.push(id);
  }
}

/** What a browser's KeyboardEvent carries that the binding reads. */
class KeyEvent extends Event {
  readonly code: string;
  readonly key: string;
  readonly repeat: boolean;
  constructor(type: string, code: string, init: { repeat?: boolean; key?: string } = {}) {
    super(type, { cancelable: true });
    this.code = code;
    this.key = init.key ?? code;
    this.repeat = init.repeat ?? false;
  }
}

/** What a browser's PointerEvent carries that the binding reads. */
class PointerLikeEvent extends Event {
  readonly buttons: number;
  readonly pointerId = 7;
  readonly isPrimary: boolean;
  readonly offsetX: number;
  readonly offsetY: number;
  constructor(type: string, buttons: number, x = 0, y = 0, isPrimary = true) {
    super(type);
    this.buttons = buttons;
    this.offsetX = x;
    this.offsetY = y;
    this.isPrimary = isPrimary;
  }
}

function rig() {
  const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
  const input = new InputLatch(loop);
  const log: string[] = [];
  input.onInput((tick, kind, key, x, y) =>
    log.push(kind === 'move' ? `${tick}:move:${x},${y}` : `${tick}:${kind}:${key}`),
  );
  return { loop, input, log };
}

describe('bindKeyboard on a real EventTarget', () => {
  it('feeds keydown/keyup by KeyboardEvent.code, ignoring auto-repeat', () => {
    const { loop, input, log } = rig();
    const target = new TrackedTarget();
    input.bindKeyboard(target);
    const jumps: number[] = [];
    loop.onFixedUpdate((_dt, tick) => {
      if (input.pressed('Space')) jumps.push(tick);
    });
    target.dispatchEvent(new KeyEvent('keydown', 'Space', { key: ' ' }));
    target.dispatchEvent(new KeyEvent('keydown', 'Space', { repeat: true }));
    loop.advance(STEP);
    target.dispatchEvent(new KeyEvent('keydown', 'Space', { repeat: true }));
    target.dispatchEvent(new KeyEvent('keyup', 'Space'));
    loop.advance(STEP);
    loop.advance(STEP);
    expect(jumps).toEqual([0]);
    expect(log).toEqual(['0:press:Space', '1:release:Space']);
  });

  it('keys are physical codes: KeyW on any layout; key is the fallback when code is empty', () => {
    const { loop, input } = rig();
    const target = new TrackedTarget();
    input.bindKeyboard(target);
    target.dispatchEvent(new KeyEvent('keydown', 'KeyW', { key: 'z' })); // AZERTY "z" key
    target.dispatchEvent(new KeyEvent('keydown', '', { key: 'Unidentified' }));
    loop.advance(STEP);
    expect(input.held('KeyW')).toBe(true);
    expect(input.held('KeyZ')).toBe(false);
    expect(input.held('Unidentified')).toBe(true);
  });

  it('focus loss (blur) releases every held key', () => {
    const { loop, input } = rig();
    const target = new TrackedTarget();
    input.bindKeyboard(target);
    target.dispatchEvent(new KeyEvent('keydown', 'KeyA'));
    target.dispatchEvent(new KeyEvent('keydown', 'ShiftLeft'));
    loop.advance(STEP);
    expect(input.held('KeyA') && input.held('ShiftLeft')).toBe(true);
    target.dispatchEvent(new Event('blur'));
    loop.advance(STEP);
    expect(input.released('KeyA')).toBe(true);
    expect(input.released('ShiftLeft')).toBe(true);
    expect(input.held('KeyA') || input.held('ShiftLeft')).toBe(false);
  });

  it('preventDefault for the listed codes only', () => {
    const { input } = rig();
    const target = new TrackedTarget();
    input.bindKeyboard(target, { preventDefault: ['Space'] });
    const space = new KeyEvent('keydown', 'Space');
    const tab = new KeyEvent('keydown', 'Tab');
    target.dispatchEvent(space);
    target.dispatchEvent(tab);
    expect(space.defaultPrevented).toBe(true);
    expect(tab.defaultPrevented).toBe(false);
  });

  it('dispose removes every listener it added, and releases the keys it held', () => {
    const { loop, input, log } = rig();
    const target = new TrackedTarget();
    const dispose = input.bindKeyboard(target);
    expect(target.listenerCount).toBe(3); // keydown, keyup, blur
    expect([...target.active.keys()].sort()).toEqual(['blur', 'keydown', 'keyup']);
    target.dispatchEvent(new KeyEvent('keydown', 'KeyD'));
    loop.advance(STEP);
    dispose();
    expect(target.listenerCount).toBe(0);
    loop.advance(STEP);
    expect(input.held('KeyD')).toBe(false);
    // Events after dispose reach nothing.
    target.dispatchEvent(new KeyEvent('keydown', 'KeyQ'));
    loop.advance(STEP);
    expect(input.held('KeyQ')).toBe(false);
    expect(log).toEqual(['0:press:KeyD', '1:release:KeyD']);
    dispose(); // twice is harmless
    expect(target.listenerCount).toBe(0);
  });

  it('latch.dispose removes the listeners of every binding', () => {
    const { input } = rig();
    const keys = new TrackedTarget();
    const canvas = new TrackedTarget();
    input.bindKeyboard(keys);
    input.bindPointer(canvas);
    expect(keys.listenerCount + canvas.listenerCount).toBeGreaterThan(0);
    input.dispose();
    expect(keys.listenerCount).toBe(0);
    expect(canvas.listenerCount).toBe(0);
  });

  it('rejects a target that is not an EventTarget', () => {
    const { input } = rig();
    expect(() => input.bindKeyboard({} as EventTarget)).toThrow(/needs an EventTarget/);
    expect(() => input.bindPointer(null as unknown as EventTarget)).toThrow(TypeError);
  });
});

describe('bindPointer on a real EventTarget', () => {
  it('feeds buttons by name and the position, with pointer capture', () => {
    const { loop, input, log } = rig();
    const canvas = new TrackedTarget();
    input.bindPointer(canvas);
    canvas.dispatchEvent(new PointerLikeEvent('pointerdown', 1, 10, 20));
    loop.advance(STEP);
    expect(input.pressed('MouseLeft')).toBe(true);
    expect([input.pointerX, input.pointerY]).toEqual([10, 20]);
    // Chord: the right button joins while left is down (a pointermove with new buttons).
    canvas.dispatchEvent(new PointerLikeEvent('pointermove', 3, 12, 22));
    loop.advance(STEP);
    expect(input.pressed('MouseRight')).toBe(true);
    expect(input.held('MouseLeft')).toBe(true);
    canvas.dispatchEvent(new PointerLikeEvent('pointerup', 0, 12, 22));
    loop.advance(STEP);
    expect(input.released('MouseLeft') && input.released('MouseRight')).toBe(true);
    expect(canvas.captured).toEqual([7]);
    expect(log).toEqual([
      '0:press:MouseLeft',
      '0:move:10,20',
      '1:press:MouseRight',
      '1:move:12,22',
      '2:release:MouseLeft',
      '2:release:MouseRight',
    ]);
  });

  it('ignores non-primary pointers; pointercancel releases the buttons', () => {
    const { loop, input } = rig();
    const canvas = new TrackedTarget();
    input.bindPointer(canvas);
    canvas.dispatchEvent(new PointerLikeEvent('pointerdown', 1, 0, 0, false));
    loop.advance(STEP);
    expect(input.held('MouseLeft')).toBe(false);
    canvas.dispatchEvent(new PointerLikeEvent('pointerdown', 4));
    loop.advance(STEP);
    expect(input.held('MouseMiddle')).toBe(true);
    canvas.dispatchEvent(new PointerLikeEvent('pointercancel', 0));
    loop.advance(STEP);
    expect(input.released('MouseMiddle')).toBe(true);
  });

  it('dispose removes every listener it added and releases held buttons', () => {
    const { loop, input } = rig();
    const canvas = new TrackedTarget();
    const dispose = input.bindPointer(canvas);
    expect([...canvas.active.keys()].sort()).toEqual([
      'blur',
      'pointercancel',
      'pointerdown',
      'pointermove',
      'pointerup',
    ]);
    canvas.dispatchEvent(new PointerLikeEvent('pointerdown', 2));
    loop.advance(STEP);
    expect(input.held('MouseRight')).toBe(true);
    dispose();
    expect(canvas.listenerCount).toBe(0);
    loop.advance(STEP);
    expect(input.held('MouseRight')).toBe(false);
    canvas.dispatchEvent(new PointerLikeEvent('pointerdown', 1));
    loop.advance(STEP);
    expect(input.held('MouseLeft')).toBe(false);
  });
});

describe('the core touches no DOM at module load or construction', () => {
  it('imports and runs an InputLatch where there is no window or document', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    const { loop, input } = rig();
    input.press('KeyX');
    loop.advance(STEP);
    expect(input.pressed('KeyX')).toBe(true);
  });
});
