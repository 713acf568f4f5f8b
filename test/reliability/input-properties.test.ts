/**
 * Property tests of the input side (issue #18): fuzzed recordings, hostile values at every input
 * and debug entry point, keys that come and go, and the `timing: 'timestamp'` invariants over
 * random simulated displays. 1 000 cases per property, seeded: the seed is in the suite's title
 * (set FIXEDTICK_SEED to run another one; a failure prints the seed and path to replay it).
 */
import { FixedLoop } from '@fixedtick/core';
import { createTimingGraph, TimingHistory } from '@fixedtick/core/debug';
import {
  INPUT_MAX_KEYS,
  InputLatch,
  InputRecording,
  InputRecordingError,
  type InputTiming,
} from '@fixedtick/core/input';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListenerTarget } from '../support/listener-target.ts';
import { RUNS } from './arbitraries.ts';

const SEED = Number(process.env.FIXEDTICK_SEED ?? 18_2026);
const options = { numRuns: RUNS, seed: SEED };
const STEP = 1 / 60;

// ---- hostile values ---------------------------------------------------------------------

const throwing = (): never => {
  throw new Error('hostile');
};
/** A Proxy whose every trap throws. */
const trap = new Proxy(
  {},
  {
    get: throwing,
    has: throwing,
    ownKeys: throwing,
    getOwnPropertyDescriptor: throwing,
    getPrototypeOf: throwing,
  },
);

/**
 * A value made only inside the property: fast-check itself probes the values it generates
 * (`cloneMethod in value`), which a Proxy whose traps throw would not survive.
 */
class Lazy {
  constructor(readonly make: () => unknown) {}
  toString(): string {
    return String(this.make).slice(6);
  }
}
const unwrap = (value: unknown): unknown => (value instanceof Lazy ? value.make() : value);

const generated: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withDate: true,
  }),
  fc.constantFrom<unknown>(
    new Lazy(() => trap),
    new Lazy(() => new Proxy([], { get: throwing })),
    Object.create(null),
    { toString: throwing },
    { [Symbol.toPrimitive]: throwing },
    Object.assign(() => {}, { toString: throwing }),
    Symbol('key'),
    'x'.repeat(1_000_000),
    '',
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e308,
    2 ** 53,
    [],
  ),
);

/** Passes if `call` returns, or throws the library's own error: short and prefixed. */
function libraryErrorOrNothing(call: () => unknown): void {
  try {
    call();
  } catch (error) {
    if (!(error instanceof Error)) throw new Error(`threw a non-Error: ${typeof error}`);
    const message = error.message;
    if (!message.startsWith('fixedtick: ') || message.length > 400) {
      throw new Error(`not the library's error: ${error.name}: ${message.slice(0, 200)}`);
    }
    const kinds = [TypeError, RangeError, InputRecordingError];
    if (!kinds.some((Kind) => error instanceof Kind) && !message.includes('needs a DOM')) {
      throw new Error(`unexpected error class ${error.name}: ${message.slice(0, 200)}`);
    }
  }
}

// ---- recordings ---------------------------------------------------------------------------

const coordinate = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0, Number.MIN_VALUE, -Number.MAX_VALUE, 0.1 + 0.2),
);

/** A valid recording's JSON object, events in order with presses and releases paired. */
const validRecording = fc
  .record({
    fixedDelta: fc.constantFrom(STEP, 0.02, 1 / 64, 1 / 144),
    held: fc.uniqueArray(fc.constantFrom<string>('KeyA', 'KeyB', 'Space', 'ShiftLeft'), {
      maxLength: 3,
    }),
    pointer: fc.tuple(coordinate, coordinate),
    steps: fc.array(
      fc.record({
        gap: fc.nat({ max: 3 }),
        key: fc.constantFrom<string>(
          'KeyA',
          'KeyB',
          'Space',
          'ShiftLeft',
          'Mouse\u00e9',
          '\u{1F600}',
        ),
        move: fc.option(fc.tuple(coordinate, coordinate), { nil: undefined }),
      }),
      { maxLength: 40 },
    ),
    tail: fc.nat({ max: 5 }),
  })
  .map(({ fixedDelta, held, pointer, steps, tail }) => {
    const down = new Set(held);
    const events: unknown[] = [];
    let tick = 0;
    for (const step of steps) {
      tick += step.gap;
      if (step.move) events.push([tick, 'move', ...step.move]);
      const kind = down.has(step.key) ? 'release' : 'press';
      if (kind === 'press') down.add(step.key);
      else down.delete(step.key);
      events.push([tick, kind, step.key]);
    }
    return {
      format: 'fixedtick-input',
      version: 1,
      fixedDelta,
      length: tick + 1 + tail,
      start: { held, pointer },
      events,
    } as Record<string, unknown>;
  });

/** JSON text with −0 spelt out, for comparing recordings that carry it. */
const text = (value: unknown) => JSON.stringify(value, (_key, v) => (Object.is(v, -0) ? '-0' : v));

/** A random edit of a recording: a field replaced by a hostile value, removed, or reordered. */
const edit = fc.record({
  where: fc.constantFrom(
    'format',
    'version',
    'fixedDelta',
    'length',
    'start',
    'start.held',
    'start.pointer',
    'events',
    'event',
    'event.0',
    'event.1',
    'event.2',
    'event.3',
    'swap',
    'delete',
  ),
  value: generated,
  index: fc.nat(),
});

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(doc: Record<string, unknown>, edit: Edit): unknown {
  const e = { ...edit, value: unwrap(edit.value) };
  const events = (Array.isArray(doc.events) ? doc.events : []) as unknown[][];
  const start = (typeof doc.start === 'object' && doc.start !== null ? doc.start : {}) as Record<
    string,
    unknown
  >;
  const at = events.length === 0 ? -1 : e.index % events.length;
  switch (e.where) {
    case 'start.held':
      start.held = e.value;
      break;
    case 'start.pointer':
      start.pointer = e.value;
      break;
    case 'event':
      if (at >= 0) events[at] = e.value as unknown[];
      break;
    case 'event.0':
    case 'event.1':
    case 'event.2':
    case 'event.3':
      if (at >= 0 && Array.isArray(events[at])) {
        events[at] = Object.assign([...events[at]], { [e.where.slice(6)]: e.value });
      }
      break;
    case 'swap':
      if (at > 0) [events[at - 1], events[at]] = [events[at], events[at - 1]];
      break;
    case 'delete':
      delete doc[['format', 'version', 'fixedDelta', 'length', 'start', 'events'][e.index % 6]];
      break;
    default:
      doc[e.where] = e.value;
  }
  return doc;
}

// ---- simulated displays -------------------------------------------------------------------

interface Script {
  timeMs: number;
  key: string;
}

/**
 * Plays `script` (each entry toggles its key) on a 60 Hz loop fed frame timestamps at
 * `framesMs`, each event fed just before the first frame at or after its time. Returns the tick
 * each event was delivered in, the ticks already run when it was fed, and the last tick of the
 * first frame with steps from then on (the frame 'arrival' timing delivers it in).
 */
function playDisplay(script: Script[], framesMs: number[], timing: InputTiming) {
  const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
  const input = new InputLatch(loop, { timing });
  // a key's events are delivered in order: the n-th delivery of a key is its n-th event
  const byKey = new Map<string, number[]>();
  input.onInput((tick, kind, key) => {
    if (kind !== 'move') byKey.set(key, [...(byKey.get(key) ?? []), tick]);
  });
  const down = new Set<string>();
  const ranAtFeed: number[] = [];
  const fedInFrame: number[] = [];
  const frameTicks: [first: number, last: number][] = [];
  let next = 0;
  for (let f = 0; f < framesMs.length; f++) {
    while (next < script.length && script[next].timeMs <= framesMs[f]) {
      const { key, timeMs } = script[next++];
      ranAtFeed.push(loop.tick);
      fedInFrame.push(f);
      if (down.has(key)) input.release(key, timeMs);
      else input.press(key, timeMs);
      if (down.has(key)) down.delete(key);
      else down.add(key);
    }
    const before = loop.tick;
    loop.frame(framesMs[f]);
    frameTicks.push([before, loop.tick - 1]);
  }
  // the last tick of the first frame with steps at or after the frame an event was fed before
  const arrivalLast = fedInFrame.map((f) => {
    for (let g = f; g < frameTicks.length; g++) {
      if (frameTicks[g][1] >= frameTicks[g][0]) return frameTicks[g][1];
    }
    return Number.POSITIVE_INFINITY;
  });
  const count = new Map<string, number>();
  const delivered = script.map(({ key }) => {
    const n = count.get(key) ?? 0;
    count.set(key, n + 1);
    return byKey.get(key)?.[n] ?? Number.NaN;
  });
  return { delivered, ranAtFeed, arrivalLast, input };
}

/** Frame timestamps from 0 to past `untilMs`: a fixed display rate, or random frame times. */
const display = (untilMs: number): fc.Arbitrary<number[]> =>
  fc.oneof(
    fc.constantFrom(24, 30, 59.94, 60, 75, 90, 120, 144, 165, 240).map((hz) => {
      const frames: number[] = [];
      for (let i = 0; (i - 1) * (1000 / hz) <= untilMs; i++) frames.push((i * 1000) / hz);
      return frames;
    }),
    fc
      .array(
        fc.oneof(
          fc.double({ min: 0.5, max: 60, noNaN: true }),
          fc.constantFrom(1000 / 144, 1000 / 60, 1000 / 30, 0),
        ),
        { minLength: 1, maxLength: 64 },
      )
      .map((intervals) => {
        const frames = [0];
        for (let i = 0; frames[frames.length - 1] <= untilMs; i++) {
          frames.push(frames[frames.length - 1] + intervals[i % intervals.length] + 0.5);
        }
        return frames;
      }),
  );

/** Events at distinct random times in (0, 500) ms on three keys. */
const script: fc.Arbitrary<Script[]> = fc
  .uniqueArray(
    fc.record({
      timeMs: fc.oneof(
        fc.double({ min: 0.001, max: 500, noNaN: true }),
        // on tick boundaries and frame timestamps
        fc.integer({ min: 1, max: 29 }).map((k) => (k * 1000) / 60),
        fc.integer({ min: 1, max: 71 }).map((k) => (k * 1000) / 144),
      ),
      key: fc.constantFrom('KeyA', 'KeyB', 'Space'),
    }),
    { maxLength: 24, selector: (e) => e.timeMs },
  )
  .map((events) => events.sort((a, b) => a.timeMs - b.timeMs));

describe(`input properties (fast-check seed ${SEED}, ${RUNS} runs each)`, () => {
  it('a fuzzed recording either loads and round-trips exactly (−0 included) or throws an InputRecordingError', () => {
    fc.assert(
      fc.property(validRecording, fc.array(edit, { maxLength: 3 }), (doc, edits) => {
        const original = text(doc);
        // an untouched recording loads, and its JSON is the JSON it was made from
        const loaded = InputRecording.fromJSON(JSON.parse(original));
        expect(text(loaded)).toBe(original);
        expect(JSON.stringify(InputRecording.fromJSON(JSON.stringify(loaded)))).toBe(
          JSON.stringify(loaded),
        );
        let broken: unknown = structuredClone(doc);
        for (const e of edits) {
          try {
            broken = applyEdit(broken as Record<string, unknown>, e);
          } catch {
            // the edit reads a hostile value an earlier edit put there: leave it as it is
          }
        }
        for (const input of [broken, (() => safeStringify(broken))()]) {
          let again: InputRecording | undefined;
          try {
            again = InputRecording.fromJSON(input);
          } catch (error) {
            expect(error).toBeInstanceOf(InputRecordingError);
            expect((error as Error).message.length).toBeLessThan(400);
            continue;
          }
          const json = JSON.stringify(again);
          expect(JSON.stringify(InputRecording.fromJSON(json))).toBe(json);
        }
      }),
      options,
    );
  });

  it('every input and debug entry point given a hostile value returns or throws the library’s error', () => {
    const loop = new FixedLoop();
    const latch = new InputLatch(loop);
    const recording = new InputRecording();
    const target = new ListenerTarget();
    latch.bindKeyboard(target);
    latch.bindPointer(target);
    const calls: ((v: unknown) => unknown)[] = [
      (v) => new InputLatch(v as never),
      (v) => new InputLatch(loop, v as never),
      (v) => latch.press(v as never),
      (v) => latch.press('KeyA', v as never),
      (v) => latch.release(v as never, 5),
      (v) => latch.release('KeyA', v as never),
      (v) => latch.move(v as never, v as never),
      (v) => latch.pressed(v as never),
      (v) => latch.released(v as never),
      (v) => latch.held(v as never),
      (v) => latch.pressedThisFrame(v as never),
      (v) => latch.releasedThisFrame(v as never),
      (v) => latch.heldThisFrame(v as never),
      (v) => latch.onInput(v as never)(),
      (v) => latch.bindKeyboard(v as never)(),
      (v) => latch.bindKeyboard(new ListenerTarget(), v as never)(),
      (v) => latch.bindPointer(v as never)(),
      (v) => latch.bindPointer(new ListenerTarget(), v as never)(),
      (v) => InputRecording.fromJSON(v),
      (v) => recording.record(v as never)(),
      (v) => recording.replay(v as never)(),
      (v) => recording.replay(latch, v as never)(),
      (v) => new TimingHistory(v as never),
      (v) => createTimingGraph(v as never),
      (v) => createTimingGraph(loop, v as never),
      // the bindings' listeners, with odd events: they never throw at all
      (v) => {
        for (const listener of target.listeners.values()) listener(v as Event);
      },
      (v) => {
        for (const listener of target.listeners.values()) {
          listener({ code: v, key: v, buttons: v, isPrimary: v, timeStamp: v } as never);
        }
      },
    ];
    fc.assert(
      fc.property(fc.nat({ max: calls.length - 1 }), generated, (which, generatedValue) => {
        const value = unwrap(generatedValue);
        try {
          if (which >= calls.length - 2) calls[which](value);
          else libraryErrorOrNothing(() => calls[which](value));
        } catch (error) {
          throw new Error(`call ${which} (${String(calls[which]).slice(0, 80)}): ${error}`);
        }
        loop.advance(STEP);
      }),
      options,
    );
    expect(latch.keyCount).toBeLessThanOrEqual(INPUT_MAX_KEYS);
  });

  it('keys that come and go: every accepted press is seen in exactly one tick, frame queries follow, keyCount stays bounded', () => {
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ key: fc.nat({ max: 400 }), press: fc.boolean() }) },
      { weight: 2, arbitrary: fc.double({ min: 0, max: 0.08, noNaN: true }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
        const latch = new InputLatch(loop);
        const down = new Set<number>();
        const accepted = new Map<number, number>();
        const seen = new Map<number, number>();
        const pressedSinceFrame = new Set<number>();
        let lastFrame = new Set<number>();
        latch.onInput((_tick, kind, key) => {
          if (kind === 'press')
            seen.set(Number(key.slice(1)), (seen.get(Number(key.slice(1))) ?? 0) + 1);
        });
        loop.onUpdate(() => {
          for (const k of lastFrame) {
            if (!latch.pressedThisFrame(`K${k}`)) throw new Error(`K${k} not pressed this frame`);
          }
        });
        loop.onFrameStart(() => {
          lastFrame = new Set(pressedSinceFrame);
          pressedSinceFrame.clear();
        });
        for (const o of ops) {
          if (typeof o === 'number') {
            loop.advance(o);
            expect(latch.keyCount).toBeLessThanOrEqual(INPUT_MAX_KEYS);
          } else if (o.press) {
            if (!down.has(o.key)) {
              accepted.set(o.key, (accepted.get(o.key) ?? 0) + 1);
              pressedSinceFrame.add(o.key);
            }
            down.add(o.key);
            latch.press(`K${o.key}`);
          } else {
            down.delete(o.key);
            latch.release(`K${o.key}`);
          }
        }
        while (latch.pending > 0) loop.advance(STEP);
        loop.advance(STEP);
        expect(seen).toEqual(accepted);
        for (let k = 0; k <= 400; k++) expect(latch.held(`K${k}`)).toBe(down.has(k));
      }),
      options,
    );
  });

  it("with timing 'timestamp', events never go to a tick that has run, at most one tick past the 'arrival' frame, on the same tick at every display", () => {
    fc.assert(
      fc.property(script, display(600), display(600), (events, framesA, framesB) => {
        const a = playDisplay(events, framesA, 'timestamp');
        const b = playDisplay(events, framesB, 'timestamp');
        expect(a.delivered.every(Number.isInteger)).toBe(true);
        for (const run of [a, b]) {
          for (let i = 0; i < events.length; i++) {
            expect(run.delivered[i]).toBeGreaterThanOrEqual(run.ranAtFeed[i]);
          }
        }
        // the same tick at every display
        expect(b.delivered).toEqual(a.delivered);
        // exactly: the first tick that ends at or after its moment, unless that tick has run
        // or the key's previous event is delivered there or later (a key changes once a tick);
        // and so at most one tick past the last tick of the frame 'arrival' delivers it in
        for (const run of [a, b]) {
          const previous = new Map<string, number>();
          for (let i = 0; i < events.length; i++) {
            const { key, timeMs } = events[i];
            const own = Math.ceil(timeMs / 1000 / STEP - 1e-9) - 1;
            const after = (previous.get(key) ?? Number.NEGATIVE_INFINITY) + 1;
            expect(run.delivered[i]).toBe(Math.max(own, run.ranAtFeed[i], after));
            expect(run.delivered[i]).toBeLessThanOrEqual(Math.max(run.arrivalLast[i] + 1, after));
            previous.set(key, run.delivered[i]);
          }
        }
      }),
      options,
    );
  });

  it("with timing 'timestamp', a recording made on one display replays bit for bit on another", () => {
    fc.assert(
      fc.property(script, display(600), display(600), (events, framesA, framesB) => {
        const trace = (l: FixedLoop, i: InputLatch) => {
          const out: string[] = [];
          l.onFixedUpdate((_dt, tick) => {
            for (const k of ['KeyA', 'KeyB', 'Space']) {
              if (i.pressed(k) || i.released(k)) out.push(`${tick}${k}${+i.held(k)}`);
            }
          });
          return out;
        };
        const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
        const input = new InputLatch(loop, { timing: 'timestamp' });
        const live = trace(loop, input);
        const rec = new InputRecording();
        rec.record(input);
        let next = 0;
        const down = new Set<string>();
        for (const ts of framesA) {
          while (next < events.length && events[next].timeMs <= ts) {
            const { key, timeMs } = events[next++];
            if (down.has(key)) input.release(key, timeMs);
            else input.press(key, timeMs);
            if (!down.delete(key)) down.add(key);
          }
          loop.frame(ts);
        }
        rec.stop();
        const loop2 = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
        const input2 = new InputLatch(loop2, { timing: 'timestamp' });
        const again = trace(loop2, input2);
        InputRecording.fromJSON(JSON.stringify(rec)).replay(input2);
        for (const ts of framesB) {
          if (loop2.tick >= loop.tick) break;
          loop2.frame(ts);
        }
        while (loop2.tick < loop.tick) loop2.advance(STEP);
        expect(again.filter((e) => Number.parseInt(e, 10) < loop.tick)).toEqual(live);
      }),
      options,
    );
  });
});

/** `JSON.stringify`, or the value itself when it cannot be stringified (a BigInt, a cycle). */
function safeStringify(value: unknown): unknown {
  try {
    return JSON.stringify(value) ?? value;
  } catch {
    return value;
  }
}
