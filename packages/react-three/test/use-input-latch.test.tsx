/**
 * useInputLatch on real R3F roots: one latch per <FixedTick>, a press is seen in exactly one
 * tick (also when it lands in a frame that runs no step), and each DOM target is bound once
 * however many components ask, through Strict Mode, until the last of them unmounts.
 */
import {
  FixedTick,
  type InputLatch,
  type UseInputLatchOptions,
  useFixedUpdate,
  useInputLatch,
} from '@fixedtick/react-three';
import { advance } from '@react-three/fiber';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { failOnConsoleErrors, mount } from './r3f-harness.tsx';

failOnConsoleErrors();

/** Node's EventTarget, counting the listeners registered on it now. */
class CountingTarget extends EventTarget {
  listeners = 0;
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    super.addEventListener(...args);
    this.listeners++;
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
    super.removeEventListener(...args);
    this.listeners--;
  }
}

/** A key event as a browser's KeyboardEvent carries it (what the binding reads). */
function key(type: 'keydown' | 'keyup', code: string): Event {
  return Object.assign(new Event(type, { cancelable: true }), { code, key: code, repeat: false });
}

interface Seen {
  latches: InputLatch[];
  /** Ticks in which `pressed('Space')` was true, per component. */
  pressedTicks: number[][];
}

function Jumper({ seen, id, options }: { seen: Seen; id: number; options: UseInputLatchOptions }) {
  const input = useInputLatch(options);
  seen.latches.push(input);
  seen.pressedTicks[id] ??= [];
  useFixedUpdate((_dt, tick) => {
    if (input.pressed('Space')) seen.pressedTicks[id].push(tick);
  });
  return null;
}

function newSeen(): Seen {
  return { latches: [], pressedTicks: [] };
}

/** 144 fps frames from `startMs`: most run no 60 Hz step. */
function frames144(startMs: number, count: number): number {
  for (let i = 0; i < count; i++) advance(startMs + (i * 1000) / 144);
  return startMs + (count * 1000) / 144;
}

describe('useInputLatch', () => {
  it('shares one latch per <FixedTick>, binds the keyboard once, and hands a press to one tick', async () => {
    const keyboard = new CountingTarget();
    const seen = newSeen();
    const tree = (two: boolean) => (
      <FixedTick tickRate={60}>
        <Jumper seen={seen} id={0} options={{ keyboard }} />
        {two && <Jumper seen={seen} id={1} options={{ keyboard }} />}
      </FixedTick>
    );
    const r = await mount(tree(false));
    const oneBinding = keyboard.listeners;
    expect(oneBinding).toBeGreaterThan(0);
    await r.update(tree(true));
    expect(keyboard.listeners).toBe(oneBinding);
    expect(new Set(seen.latches).size).toBe(1);
    const delivered: number[] = [];
    seen.latches[0].onInput((tick, kind) => {
      if (kind === 'press') delivered.push(tick);
    });
    let next = frames144(0, 4); // 0, 6.9, 13.9 ms: no step; 20.8 ms: one
    // a tap between two frames, the next of which runs no step: the latch keeps it
    keyboard.dispatchEvent(key('keydown', 'Space'));
    keyboard.dispatchEvent(key('keyup', 'Space'));
    next = frames144(next, 1);
    expect(seen.latches[0].loop.lastFrame.steps).toBe(0);
    expect(delivered).toEqual([]);
    next = frames144(next, 20);
    expect(delivered).toHaveLength(1);
    expect(seen.pressedTicks).toEqual([delivered, delivered]);
    // one of them unmounts: still bound; the last one: unbound
    await r.update(tree(false));
    expect(keyboard.listeners).toBe(oneBinding);
    await r.unmount();
    expect(keyboard.listeners).toBe(0);
  });

  it('binds once through Strict Mode’s double mount', async () => {
    const keyboard = new CountingTarget();
    const reference = newSeen();
    const plain = await mount(
      <FixedTick>
        <Jumper seen={reference} id={0} options={{ keyboard }} />
      </FixedTick>,
    );
    const oneBinding = keyboard.listeners;
    await plain.unmount();
    const seen = newSeen();
    const tree = (show: boolean) => (
      <StrictMode>
        <FixedTick>{show && <Jumper seen={seen} id={0} options={{ keyboard }} />}</FixedTick>
      </StrictMode>
    );
    const r = await mount(tree(false));
    await r.update(tree(true)); // mounts into a running tree: Strict Mode replays its effects
    expect(keyboard.listeners).toBe(oneBinding);
    frames144(0, 2);
    keyboard.dispatchEvent(key('keydown', 'Space'));
    frames144(1000, 20);
    expect(seen.pressedTicks[0]).toHaveLength(1);
    await r.unmount();
    expect(keyboard.listeners).toBe(0);
  });

  it('makes the shared latch with the first caller’s timing, and rejects a bad one', async () => {
    const seen = newSeen();
    const r = await mount(
      <FixedTick>
        <Jumper seen={seen} id={0} options={{ keyboard: null, timing: 'timestamp' }} />
        <Jumper seen={seen} id={1} options={{ keyboard: null }} />
      </FixedTick>,
    );
    expect(seen.latches.map((l) => l.timing)).toEqual(['timestamp', 'timestamp']);
    await r.unmount();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bad = { keyboard: null, timing: 'soon' } as unknown as UseInputLatchOptions;
    await expect(
      mount(
        <FixedTick>
          <Jumper seen={newSeen()} id={0} options={bad} />
        </FixedTick>,
      ),
    ).rejects.toThrow(/"timing".*"soon"/);
    quiet.mockRestore();
  });

  it('binds a pointer target when given one, no keyboard with keyboard: null, and applies the options', async () => {
    const keyboard = new CountingTarget();
    const pointer = new CountingTarget();
    const seen = newSeen();
    const r = await mount(
      <FixedTick>
        <Jumper seen={seen} id={0} options={{ keyboard: null, pointer }} />
        <Jumper
          seen={seen}
          id={1}
          options={{ keyboard, keyboardOptions: { preventDefault: ['Space'] } }}
        />
      </FixedTick>,
    );
    expect(pointer.listeners).toBeGreaterThan(0);
    const space = key('keydown', 'Space');
    const enter = key('keydown', 'Enter');
    keyboard.dispatchEvent(space);
    keyboard.dispatchEvent(enter);
    expect([space.defaultPrevented, enter.defaultPrevented]).toEqual([true, false]);
    await r.unmount();
    expect([keyboard.listeners, pointer.listeners]).toEqual([0, 0]);
  });
});
