/**
 * Issue #18, the input side: each item found from outside the project's own tests (fast-check
 * over the public API, fuzzed recordings, hostile values), pinned by a test named after it.
 */
import { FixedLoop } from '@fixedtick/core';
import { createTimingGraph, TimingHistory } from '@fixedtick/core/debug';
import {
  INPUT_MAX_KEYS,
  InputLatch,
  InputRecording,
  InputRecordingError,
  RECORDING_MAX_EVENTS,
} from '@fixedtick/core/input';
import { describe, expect, it } from 'vitest';
import { ListenerTarget } from '../support/listener-target.ts';

const STEP = 1 / 60;

/** A recording `fromJSON` accepts, to break one field at a time. */
function goodRecording(): Record<string, unknown> {
  return {
    format: 'fixedtick-input',
    version: 1,
    fixedDelta: STEP,
    length: 10,
    start: { held: [], pointer: [0, 0] },
    events: [[1, 'press', 'KeyA']],
  };
}

/** The error `fn` throws. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

/** Objects whose `String()` throws: one with a throwing `toString`, one with no prototype. */
const unprintable = [
  {
    toString(): string {
      throw new Error('no string for you');
    },
  },
  Object.create(null) as object,
];

/** `-0` as text, so `toEqual` on a list of these tells −0 from 0. */
const signed = (v: number) => (Object.is(v, -0) ? '-0' : String(v));

/** The least of a DOM `createTimingGraph` needs: a container, a canvas, a 2D context, a window. */
function fakeGraphDom() {
  const view = Object.assign(new ListenerTarget(), { devicePixelRatio: 1 });
  const ctx = new Proxy({}, { get: () => () => {} });
  const canvas = {
    style: {} as Record<string, string>,
    setAttribute() {},
    getContext: () => ctx,
    remove() {},
  };
  // The graph's help line (a <details> with a few children) gets plain elements.
  const element = () => ({
    style: {} as Record<string, string>,
    append() {},
    appendChild() {},
    remove() {},
  });
  const doc = {
    createElement: (tag: string) => (tag === 'canvas' ? canvas : element()),
    defaultView: view,
    body: {},
  };
  const container = { ownerDocument: doc, appendChild() {} } as unknown as HTMLElement;
  return { view, container, canvas };
}

describe('issue #18, input side', () => {
  it('#18.6: −0 survives a recording’s JSON: the replay sees −0 where the live run did', () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const latch = new InputLatch(loop);
    const live: string[] = [];
    loop.onFixedUpdate(() => live.push(signed(latch.pointerX), signed(latch.pointerY)));
    latch.move(5, 5);
    loop.advance(STEP);
    latch.move(-0, -0);
    loop.advance(STEP);
    const rec = new InputRecording();
    rec.record(latch); // starts with the pointer at (−0, −0)
    loop.advance(STEP);
    latch.move(7, -0);
    loop.advance(STEP);
    latch.move(-0, 8);
    loop.advance(STEP);
    latch.move(0, 8); // 0 after −0 is a move too
    loop.advance(STEP);
    rec.stop();
    expect(live.slice(4)).toEqual(['-0', '-0', '7', '-0', '-0', '8', '0', '8']);

    const json = JSON.stringify(rec);
    expect(json).toContain('"pointer":["-0","-0"]');
    const loop2 = new FixedLoop({ errorPolicy: 'throw' });
    const latch2 = new InputLatch(loop2);
    const again: string[] = [];
    loop2.onFixedUpdate(() => again.push(signed(latch2.pointerX), signed(latch2.pointerY)));
    InputRecording.fromJSON(json).replay(latch2);
    for (let i = 0; i < 4; i++) loop2.advance(STEP);
    expect(again).toEqual(live.slice(4));
    // and the JSON of the loaded recording is the same text
    expect(JSON.stringify(InputRecording.fromJSON(json))).toBe(json);
  });

  it('#18.8: held(42) throws the TypeError docs/errors.md lists, as press(42) does; a key never pressed is not held', () => {
    const latch = new InputLatch(new FixedLoop());
    const message =
      'fixedtick: option "key" must be a key name (a non-empty string of at most 256 characters), got 42';
    expect(thrown(() => latch.press(42 as never))).toEqual(new TypeError(message));
    for (const query of [
      'pressed',
      'released',
      'held',
      'pressedThisFrame',
      'releasedThisFrame',
      'heldThisFrame',
    ] as const) {
      expect(thrown(() => latch[query](42 as never))).toEqual(new TypeError(message));
      expect(() => latch[query]('')).toThrow(TypeError);
      expect(latch[query]('KeyQ')).toBe(false);
    }
  });

  it('#18.9: new InputLatch(undefined) throws a TypeError naming the loop and the value', () => {
    for (const [value, shown] of [
      [undefined, 'undefined'],
      [null, 'null'],
      [{}, '[object Object]'],
      [60, '60'],
    ] as const) {
      expect(thrown(() => new InputLatch(value as never))).toEqual(
        new TypeError(`fixedtick: option "loop" must be a FixedLoop, got ${shown}`),
      );
    }
  });

  it('#18.9: recording.record(x) and replay(x) with something that is not an InputLatch throw a TypeError naming it', () => {
    const latch = new InputLatch(new FixedLoop());
    const rec = new InputRecording();
    for (const value of [undefined, {}, 'latch', new Proxy(latch, {})]) {
      for (const call of [() => rec.record(value as never), () => rec.replay(value as never)]) {
        const error = thrown(call);
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).toMatch(/^fixedtick: option "latch" must be an InputLatch, got /);
      }
    }
    expect(rec.recording).toBe(false);
    expect(latch.replaying).toBe(false);
  });

  it('#18.9: a value whose String() throws gets the library’s error, not its own', () => {
    const latch = new InputLatch(new FixedLoop());
    for (const value of unprintable) {
      const cases: [() => unknown, new (...args: never[]) => Error, RegExp][] = [
        [() => latch.press(value as never), TypeError, /^fixedtick: option "key" .*got \[object /],
        [() => latch.held(value as never), TypeError, /^fixedtick: option "key" /],
        [() => latch.bindKeyboard(value as never), TypeError, /needs an EventTarget, got \[obj/],
        [() => new TimingHistory(value as never), RangeError, /^fixedtick: option "frames" /],
        [
          () => createTimingGraph(new FixedLoop(), { width: value as never }),
          RangeError,
          /^fixedtick: option "width" must be a positive finite number, got \[object /,
        ],
        [
          () => InputRecording.fromJSON({ ...goodRecording(), format: value }),
          InputRecordingError,
          /^fixedtick: bad input recording at format: expected "fixedtick-input", got an object$/,
        ],
      ];
      for (const [call, Kind, message] of cases) {
        const error = thrown(call);
        expect(error).toBeInstanceOf(Kind);
        expect(error.message).toMatch(message);
      }
    }
  });

  it('#18.9: new TimingHistory(1e308) throws the RangeError naming frames, not a raw "Invalid typed array length"', () => {
    expect(thrown(() => new TimingHistory(1e308))).toEqual(
      new RangeError(
        'fixedtick: option "frames" must be a whole number from 1 to 1048576, got 1e+308',
      ),
    );
    expect(new TimingHistory(1 << 20).capacity).toBe(1048576);
  });

  it('#18.10: a sparse events array of length 2^32 − 1 is refused at once, before it is walked', () => {
    const events: unknown[] = [];
    events.length = 2 ** 32 - 1;
    const error = thrown(() => InputRecording.fromJSON({ ...goodRecording(), events }));
    expect(error).toBeInstanceOf(InputRecordingError);
    expect(error.message).toBe(
      'fixedtick: bad input recording at events: more than 1000000 events (got 4294967295)',
    );
    expect((error as InputRecordingError).path).toBe('events');
  });

  it('#18.10: 3 000 000 events are refused by the documented cap; RECORDING_MAX_EVENTS of them load', () => {
    expect(RECORDING_MAX_EVENTS).toBe(1_000_000);
    const move = [0, 'move', 1, 2]; // one array, referenced by every slot: cheap to build
    const big = { ...goodRecording(), length: 1, events: new Array(3_000_000).fill(move) };
    expect(thrown(() => InputRecording.fromJSON(big)).message).toBe(
      'fixedtick: bad input recording at events: more than 1000000 events (got 3000000)',
    );
    big.events.length = RECORDING_MAX_EVENTS;
    expect(InputRecording.fromJSON(big).eventCount).toBe(RECORDING_MAX_EVENTS);
  });

  it('#18.10: a live recording that reaches RECORDING_MAX_EVENTS stops by itself, complete up to the tick that did not fit', () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const latch = new InputLatch(loop);
    const keys = Array.from({ length: 999 }, (_, i) => `K${i}`);
    const rec = new InputRecording();
    rec.record(latch);
    // 999 events a tick: ticks 0–1000 hold 999 999 events, tick 1001 fits one more, not all
    for (let tick = 0; tick < 1003; tick++) {
      for (const key of keys) {
        if (tick % 2 === 0) latch.press(key);
        else latch.release(key);
      }
      loop.advance(STEP);
    }
    expect(rec.full).toBe(true);
    expect(rec.recording).toBe(false);
    expect(rec.length).toBe(1001);
    expect(rec.eventCount).toBe(999_999);
    const again = InputRecording.fromJSON(JSON.stringify(rec));
    expect([again.length, again.eventCount]).toEqual([1001, 999_999]);
  });

  it('#18.10: a 10 MB format string is echoed cut to 64 characters', () => {
    const huge = 'x'.repeat(10 * 2 ** 20);
    const error = thrown(() => InputRecording.fromJSON({ ...goodRecording(), format: huge }));
    expect(error.message).toBe(
      `fixedtick: bad input recording at format: expected "fixedtick-input", got "${'x'.repeat(64)}"… (10485760 characters)`,
    );
    const latch = new InputLatch(new FixedLoop());
    expect(thrown(() => latch.press(huge)).message.length).toBeLessThan(200);
    expect(thrown(() => new InputLatch(new FixedLoop(), { timing: huge as never })).message).toBe(
      `fixedtick: option "timing" must be "arrival" or "timestamp", got "${'x'.repeat(64)}"… (10485760 characters)`,
    );
    expect(thrown(() => new TimingHistory(huge as never)).message).toBe(
      `fixedtick: option "frames" must be a whole number from 1 to 1048576, got "${'x'.repeat(64)}"… (10485760 characters)`,
    );
  });

  it('#18.10: 200 000 distinct keys pressed and released: the latch forgets the released ones', () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const latch = new InputLatch(loop);
    let presses = 0;
    latch.onInput((_tick, kind) => {
      if (kind === 'press') presses++;
    });
    let most = 0;
    for (let batch = 0; batch < 2000; batch++) {
      const keys = Array.from({ length: 100 }, (_, i) => `K${batch * 100 + i}`);
      for (const key of keys) latch.press(key);
      loop.advance(STEP);
      for (const key of keys) latch.release(key);
      loop.advance(STEP);
      most = Math.max(most, latch.keyCount);
    }
    expect(presses).toBe(200_000);
    // two batches in flight at most, in a table that never grew past 256 slots
    expect(most).toBeLessThanOrEqual(256);
    expect(latch.held('K0')).toBe(false);
    // a forgotten key works as a new one
    latch.press('K0');
    loop.advance(STEP);
    expect(latch.pressed('K0')).toBe(true);
    // and the cap holds: INPUT_MAX_KEYS keys down at once, not one more
    for (let i = 1; i < INPUT_MAX_KEYS; i++) latch.press(`held${i}`);
    loop.advance(STEP);
    expect(latch.keyCount).toBe(INPUT_MAX_KEYS);
    expect(thrown(() => latch.press('one-more'))).toEqual(
      new RangeError(
        'fixedtick: an InputLatch tracks at most 1024 keys at once (down, waiting for a tick or changed in the last tick); "one-more" would be one more',
      ),
    );
  });

  it('#18.10: a keydown with no key (Chrome autofill sends these) does not throw from the timing graph’s listener', () => {
    const { view, container } = fakeGraphDom();
    const graph = createTimingGraph(new FixedLoop(), { container, toggleKey: 'g' });
    for (const event of [
      {},
      { key: undefined },
      { key: 7 },
      { key: null, target: null },
      {
        get key(): string {
          throw new Error('odd event');
        },
      },
    ]) {
      expect(() => view.fire('keydown', event)).not.toThrow();
    }
    expect(graph.visible).toBe(true);
    view.fire('keydown', { key: 'G', target: null });
    expect(graph.visible).toBe(false);
    graph.dispose();
  });

  it('#18.10: a keydown whose code is not a string does not throw out of bindKeyboard’s listener', () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const latch = new InputLatch(loop);
    const target = new ListenerTarget();
    latch.bindKeyboard(target, { preventDefault: ['KeyA'] });
    const odd: object[] = [
      { code: 5, preventDefault() {} },
      { code: {}, key: null, preventDefault() {} },
      { code: Symbol('x'), key: 3 },
      { code: 'x'.repeat(300) },
      {
        get code(): string {
          throw new Error('odd event');
        },
      },
    ];
    for (const event of odd) {
      expect(() => target.fire('keydown', event)).not.toThrow();
      expect(() => target.fire('keyup', event)).not.toThrow();
    }
    // a non-string code falls back to `key`, as an empty one does
    target.fire('keydown', { code: 5, key: 'KeyA', preventDefault() {} });
    loop.advance(STEP);
    expect(latch.pressed('KeyA')).toBe(true);
    expect(latch.keyCount).toBe(1);
  });
});
