import { FixedLoop } from '@fixedtick/core';
import { InputLatch, InputRecording } from '@fixedtick/core/input';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const STEP = 1 / 60;

/** A loop at 60 Hz, a latch, and a log of which ticks saw which edges of `key`. */
function rig(key = 'Space') {
  const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
  const input = new InputLatch(loop);
  const pressedAt: number[] = [];
  const releasedAt: number[] = [];
  const heldAt: number[] = [];
  loop.onFixedUpdate((_dt, tick) => {
    if (input.pressed(key)) pressedAt.push(tick);
    if (input.released(key)) releasedAt.push(tick);
    if (input.held(key)) heldAt.push(tick);
  });
  return { loop, input, pressedAt, releasedAt, heldAt };
}

describe('InputLatch: pressed is true in exactly one tick per press', () => {
  it('a press in a 0-step frame is seen by exactly one later tick (the first one)', () => {
    const { loop, input, pressedAt } = rig();
    loop.advance(STEP * 0.5); // tick boundary not reached yet
    input.press('Space');
    expect(loop.advance(STEP * 0.25).steps).toBe(0); // the 0-step frame
    expect(pressedAt).toEqual([]);
    expect(loop.advance(STEP * 0.5).steps).toBe(1); // tick 0 runs here
    for (let i = 0; i < 10; i++) loop.advance(STEP);
    expect(loop.tick).toBe(11);
    expect(pressedAt).toEqual([0]);
  });

  it('a press before a 2-step frame is seen by exactly one of its ticks (the first)', () => {
    const { loop, input, pressedAt, heldAt } = rig();
    loop.advance(STEP); // tick 0
    input.press('Space');
    expect(loop.advance(2 * STEP).steps).toBe(2); // ticks 1 and 2
    loop.advance(2 * STEP); // ticks 3 and 4
    expect(pressedAt).toEqual([1]);
    expect(heldAt).toEqual([1, 2, 3, 4]);
  });

  it.each([
    [1 / 144, 'faster than the step (0/1-step frames)'],
    [1 / 30, 'slower than the step (2-step frames)'],
    [1 / 7, 'very slow (8-step frames)'],
  ])('one press per tap at frame time %f s (%s)', (frameTime) => {
    const { loop, input, pressedAt, releasedAt } = rig();
    let taps = 0;
    for (let f = 0; f < 460; f++) {
      if (f < 400 && f % 23 === 5) {
        input.press('Space');
        taps++;
      }
      if (f % 23 === 9) input.release('Space');
      loop.advance(frameTime);
    }
    expect(pressedAt.length).toBe(taps);
    expect(releasedAt.length).toBe(taps);
    expect(new Set(pressedAt).size).toBe(taps);
  });

  it('press and release inside one frame give one pressed and one released', () => {
    const { loop, input, pressedAt, releasedAt, heldAt } = rig();
    loop.advance(STEP); // tick 0
    input.press('Space');
    input.release('Space');
    loop.advance(STEP); // tick 1
    loop.advance(STEP); // tick 2
    loop.advance(STEP); // tick 3
    expect(pressedAt).toEqual([1]);
    expect(releasedAt).toEqual([2]);
    // A tap shorter than a step is still held for one tick.
    expect(heldAt).toEqual([1]);
  });

  it('press and release inside a 0-step frame are still both delivered, one tick each', () => {
    const { loop, input, pressedAt, releasedAt } = rig();
    loop.advance(STEP * 0.2);
    input.press('Space');
    input.release('Space');
    expect(loop.advance(STEP * 0.2).steps).toBe(0);
    loop.advance(4 * STEP);
    expect(pressedAt).toEqual([0]);
    expect(releasedAt).toEqual([1]);
  });

  it('two taps before one long frame are two presses, in successive ticks', () => {
    const { loop, input, pressedAt, releasedAt } = rig();
    input.press('Space');
    input.release('Space');
    input.press('Space');
    input.release('Space');
    expect(loop.advance(6 * STEP).steps).toBe(6);
    expect(pressedAt).toEqual([0, 2]);
    expect(releasedAt).toEqual([1, 3]);
    expect(input.pending).toBe(0);
  });

  it('keyboard auto-repeat (press while held) is not another press', () => {
    const { loop, input, pressedAt } = rig();
    input.press('Space');
    loop.advance(STEP);
    input.press('Space');
    input.press('Space');
    loop.advance(STEP);
    expect(pressedAt).toEqual([0]);
  });

  it('a release of a key that is not down is ignored', () => {
    const { loop, input, releasedAt } = rig();
    input.release('Space');
    loop.advance(3 * STEP);
    expect(releasedAt).toEqual([]);
  });

  it('keys are independent: different keys change in the same tick', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const seen: string[] = [];
    loop.onFixedUpdate((_dt, tick) => {
      for (const k of ['KeyA', 'KeyB']) if (input.pressed(k)) seen.push(`${k}@${tick}`);
    });
    input.press('KeyA');
    input.press('KeyB');
    loop.advance(STEP);
    expect(seen).toEqual(['KeyA@0', 'KeyB@0']);
  });

  it('a press made inside fixedUpdate is delivered in the next tick', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const seen: number[] = [];
    loop.onFixedUpdate((_dt, tick) => {
      if (tick === 1) input.press('KeyE'); // a scripted or network source
      if (input.pressed('KeyE')) seen.push(tick);
    });
    loop.advance(5 * STEP);
    expect(seen).toEqual([2]);
  });

  it('a listener that runs before the latch (same -Infinity priority) still sees the press', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const seen: number[] = [];
    let input: InputLatch | undefined;
    loop.onFixedUpdate(
      (_dt, tick) => {
        if (input?.pressed('Space')) seen.push(tick);
      },
      { priority: Number.NEGATIVE_INFINITY },
    );
    input = new InputLatch(loop);
    loop.advance(STEP);
    input.press('Space');
    loop.advance(3 * STEP);
    expect(seen).toEqual([1]);
  });

  it('outside a step, tick queries answer for the last tick that ran', () => {
    const { loop, input } = rig();
    input.press('Space');
    expect(input.pressed('Space')).toBe(false); // not delivered yet
    loop.advance(STEP); // tick 0 delivers it
    expect(input.pressed('Space')).toBe(true);
    expect(input.held('Space')).toBe(true);
    loop.advance(STEP * 0.5); // no tick: still the answer for tick 0
    expect(input.pressed('Space')).toBe(true);
    loop.advance(STEP); // tick 1
    expect(input.pressed('Space')).toBe(false);
    expect(input.held('Space')).toBe(true);
  });

  it('unknown keys are simply not pressed; bad key names throw a TypeError', () => {
    const { input } = rig();
    expect(input.pressed('KeyZ')).toBe(false);
    expect(input.held('KeyZ')).toBe(false);
    expect(input.pressedThisFrame('KeyZ')).toBe(false);
    expect(() => input.press('')).toThrow(TypeError);
    expect(() => input.press(3 as unknown as string)).toThrow(/non-empty string/);
  });

  it('handles many keys (grows past its initial table)', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const names = Array.from({ length: 100 }, (_, i) => `K${i}`);
    let count = 0;
    loop.onFixedUpdate(() => {
      for (const n of names) if (input.pressed(n)) count++;
    });
    for (const n of names) input.press(n);
    loop.advance(STEP);
    expect(count).toBe(100);
    expect(names.every((n) => input.held(n))).toBe(true);
  });
});

describe('InputLatch: per-frame queries for update code', () => {
  it('pressedThisFrame is true in exactly the frame after the press, whatever the steps', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const frames: [number, boolean, boolean, boolean][] = [];
    loop.onUpdate(() => {
      frames.push([
        loop.frameCount,
        input.pressedThisFrame('Escape'),
        input.releasedThisFrame('Escape'),
        input.heldThisFrame('Escape'),
      ]);
    });
    loop.advance(STEP * 0.25);
    input.press('Escape');
    loop.advance(STEP * 0.25); // 0-step frame: update code still sees it now
    loop.advance(STEP * 0.25);
    input.release('Escape');
    input.press('Escape');
    input.release('Escape');
    loop.advance(STEP * 0.25);
    loop.advance(STEP * 0.25);
    expect(frames).toEqual([
      [1, false, false, false],
      [2, true, false, true],
      [3, false, false, true],
      [4, true, true, false],
      [5, false, false, false],
    ]);
  });
});

describe('InputLatch: events are stamped with their tick', () => {
  it('onInput reports each event with the tick that delivers it', () => {
    const { loop, input } = rig();
    const log: string[] = [];
    input.onInput((tick, kind, key, x, y) => log.push(`${tick}:${kind}:${key}:${x},${y}`));
    loop.advance(STEP); // tick 0
    input.press('Space');
    input.move(10, 20);
    input.release('Space');
    loop.advance(3 * STEP); // ticks 1–3
    expect(log).toEqual(['1:press:Space:0,0', '1:move::10,20', '2:release:Space:0,0']);
  });

  it('the pointer position reaches the simulation at the start of each tick', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const xs: number[] = [];
    loop.onFixedUpdate(() => xs.push(input.pointerX, input.pointerY));
    input.move(1, 2);
    input.move(3, 4); // only the latest counts
    loop.advance(STEP);
    input.move(Number.NaN, 5); // ignored
    loop.advance(STEP);
    expect(xs).toEqual([3, 4, 3, 4]);
  });

  it('releaseAll releases every held key', () => {
    const { loop, input, releasedAt } = rig();
    input.press('Space');
    input.press('KeyW');
    loop.advance(STEP);
    input.releaseAll();
    loop.advance(STEP);
    expect(releasedAt).toEqual([1]);
    expect(input.held('KeyW')).toBe(false);
  });

  it('a throwing onInput listener does not stop delivery; the error goes to onError', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const errors: unknown[] = [];
    loop.onError((e) => errors.push(e));
    input.onInput(() => {
      throw new Error('listener bug');
    });
    const keys: string[] = [];
    input.onInput((_t, _k, key) => keys.push(key));
    input.press('KeyA');
    input.press('KeyB');
    loop.advance(STEP);
    expect(keys).toEqual(['KeyA', 'KeyB']);
    expect(input.held('KeyB')).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('dispose stops delivery and removes the loop hooks', () => {
    const { loop, input, pressedAt } = rig();
    input.dispose();
    input.press('Space');
    loop.advance(2 * STEP);
    expect(pressedAt).toEqual([]);
  });
});

describe('InputLatch: properties over arbitrary input and frame times', () => {
  type Op = { kind: 'press' | 'release'; key: 'A' | 'B' } | { kind: 'frame'; seconds: number };
  const op = fc.oneof(
    fc.record({
      kind: fc.constantFrom('press' as const, 'release' as const),
      key: fc.constantFrom('A' as const, 'B' as const),
    }),
    fc.record({
      kind: fc.constant('frame' as const),
      seconds: fc.double({ min: 0, max: 0.2, noNaN: true }),
    }),
  );

  /** Runs `ops`, then enough frames to deliver everything; returns the per-tick edge log. */
  function run(ops: Op[]) {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const log: string[] = [];
    const down = { A: false, B: false };
    const accepted = { A: 0, B: 0 };
    loop.onFixedUpdate((_dt, tick) => {
      for (const k of ['A', 'B'] as const) {
        const p = input.pressed(k);
        const r = input.released(k);
        if (p || r)
          log.push(`${tick}:${k}:${p ? 'P' : ''}${r ? 'R' : ''}:${input.held(k) ? 'H' : ''}`);
      }
    });
    for (const o of ops) {
      if (o.kind === 'frame') loop.advance(o.seconds);
      else {
        if (o.kind === 'press' && !down[o.key]) accepted[o.key]++;
        if (o.kind === 'press') down[o.key] = true;
        else down[o.key] = false;
        input[o.kind](o.key);
      }
    }
    while (input.pending > 0) loop.advance(1 / 60);
    loop.advance(1 / 60);
    return { log, accepted };
  }

  it('every accepted press is pressed in exactly one tick; edges alternate; one change per tick', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const { log, accepted } = run(ops);
        for (const k of ['A', 'B'] as const) {
          const edges = log.filter((l) => l.split(':')[1] === k);
          const presses = edges.filter((l) => l.includes(':P')).length;
          expect(presses).toBe(accepted[k]);
          // One change per key per tick, alternating press/release starting with a press.
          let expectDown = false;
          const ticks = new Set<string>();
          for (const e of edges) {
            const [tick, , kind, held] = e.split(':');
            expect(ticks.has(tick)).toBe(false);
            ticks.add(tick);
            expect(kind).toBe(expectDown ? 'R' : 'P');
            expect(held).toBe(expectDown ? '' : 'H');
            expectDown = !expectDown;
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a recording replayed at other frame times gives the same per-tick edges', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(fc.double({ min: 0.001, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 20 }),
        (ops, replayFrames) => {
          const loop = new FixedLoop({ tickRate: 60 });
          const input = new InputLatch(loop);
          const rec = new InputRecording();
          rec.record(input);
          const trace = (l: FixedLoop, i: InputLatch, out: string[]) =>
            l.onFixedUpdate((_dt, tick) => {
              for (const k of ['A', 'B']) {
                out.push(`${tick}${k}${+i.pressed(k)}${+i.released(k)}${+i.held(k)}`);
              }
            });
          const live: string[] = [];
          trace(loop, input, live);
          for (const o of ops) {
            if (o.kind === 'frame') loop.advance(o.seconds);
            else input[o.kind](o.key);
          }
          rec.stop();
          const loop2 = new FixedLoop({ tickRate: 60 });
          const input2 = new InputLatch(loop2);
          const again: string[] = [];
          trace(loop2, input2, again);
          InputRecording.fromJSON(JSON.stringify(rec)).replay(input2);
          let f = 0;
          while (loop2.tick < loop.tick) loop2.advance(replayFrames[f++ % replayFrames.length]);
          expect(again.slice(0, live.length)).toEqual(live);
        },
      ),
      { numRuns: 200 },
    );
  });
});
