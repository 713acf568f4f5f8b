/**
 * `new InputLatch(loop, { timing: 'timestamp' })`: an event that carries a time goes to the first
 * tick whose simulated span ends at or after it, mapped through the frame timestamps, so a press
 * at the same real moment lands on the same tick at any display rate. Frames come from simulated displays
 * (`loop.frame(i * 1000 / hz)`), events from a script that presses each key with its time just
 * before the first frame at or after that time — as a browser dispatches an event with its
 * `timeStamp` before the next animation frame.
 */
import { FixedLoop } from '@fixedtick/core';
import { InputLatch, InputRecording, type InputTiming } from '@fixedtick/core/input';
import { describe, expect, it } from 'vitest';

const STEP = 1 / 60;
const RATES = [30, 60, 144] as const;

interface ScriptedEvent {
  timeMs: number;
  kind: 'press' | 'release';
  key: string;
}

/**
 * Runs a 60 Hz loop on a display of `hz` for `untilMs` of real time: each event is fed with its
 * time just before the first frame whose timestamp is at or after it. A body starts moving at
 * 300 px/s in the tick that sees Space pressed; returns the ticks each key was pressed in and
 * the body's x.
 */
function play(hz: number, events: ScriptedEvent[], timing: InputTiming, untilMs = 2000) {
  const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
  const input = new InputLatch(loop, { timing });
  const pressedAt: Record<string, number[]> = {};
  const releasedAt: Record<string, number[]> = {};
  const body = { x: 0, v: 0 };
  const note = (log: Record<string, number[]>, key: string, tick: number) => {
    log[key] = [...(log[key] ?? []), tick];
  };
  loop.onFixedUpdate((dt, tick) => {
    for (const e of events) {
      if (input.pressed(e.key) && e.kind === 'press') note(pressedAt, e.key, tick);
      if (input.released(e.key) && e.kind === 'release') note(releasedAt, e.key, tick);
    }
    if (input.pressed('Space')) body.v = 300;
    body.x += body.v * dt;
  });
  const queue = [...events].sort((a, b) => a.timeMs - b.timeMs);
  let next = 0;
  for (let i = 0; ; i++) {
    const ts = (i * 1000) / hz;
    if (ts > untilMs) break;
    while (next < queue.length && queue[next].timeMs <= ts) {
      const e = queue[next++];
      input[e.kind](e.key, e.timeMs);
    }
    loop.frame(ts);
  }
  const unique = (list: number[] | undefined) => [...new Set(list ?? [])];
  return {
    loop,
    input,
    body,
    pressedAt: (key: string) => unique(pressedAt[key]),
    releasedAt: (key: string) => unique(releasedAt[key]),
  };
}

/**
 * A 60 Hz loop, a timestamp-timed latch, the ticks that saw Space pressed and a log of every key
 * event as `tick:kind:key`.
 */
function spaceRig() {
  const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
  const input = new InputLatch(loop, { timing: 'timestamp' });
  const seen: number[] = [];
  loop.onFixedUpdate((_dt, tick) => {
    if (input.pressed('Space')) seen.push(tick);
  });
  const log: string[] = [];
  input.onInput((tick, kind, key) => {
    if (kind !== 'move') log.push(`${tick}:${kind}:${key}`);
  });
  return { loop, input, seen, log };
}

/** The first tick whose span (k·fixedDelta, (k+1)·fixedDelta] ends at or after `timeMs`. */
const tickOf = (timeMs: number) => Math.ceil(timeMs / 1000 / STEP - 1e-9) - 1;

describe("InputLatch timing: 'timestamp'", () => {
  it('a press at real time 1.000 s moves a body to the same x at 30, 60 and 144 Hz simulated displays', () => {
    const press: ScriptedEvent[] = [{ timeMs: 1000, kind: 'press', key: 'Space' }];
    const runs = RATES.map((hz) => play(hz, press, 'timestamp'));
    // the tick that ends at 1.000 s (it runs in the frame at 1.000 s), at every rate
    for (const run of runs) expect(run.pressedAt('Space')).toEqual([59]);
    const [x30, x60, x144] = runs.map((run) => run.body.x);
    expect(x30).toBeGreaterThan(290); // (2 s − 1 s) × 300 px/s, minus the frames not yet run
    expect(x60).toBe(x30);
    expect(x144).toBe(x30);
    // 'arrival' gives the first tick of the frame at 1.000 s: 58 at 30 Hz (that frame runs
    // ticks 58 and 59), 59 at 60 and 144 Hz — and so another x at 30 Hz
    const arrival = RATES.map((hz) => play(hz, press, 'arrival'));
    expect(arrival.map((run) => run.pressedAt('Space')[0])).toEqual([58, 59, 59]);
    expect(arrival[0].body.x).not.toBe(arrival[1].body.x);
    expect(arrival[2].body.x).toBe(arrival[1].body.x);
  });

  it.each([1020, 1005, 1010.4, 1033.2, 1049.9, 1017, 1071.5, 1050, 1016.5])(
    'a press at %f ms lands on the first tick that ends at or after it at 30, 60 and 144 Hz',
    (timeMs) => {
      const press: ScriptedEvent[] = [{ timeMs, kind: 'press', key: 'Space' }];
      const xs = RATES.map((hz) => {
        const run = play(hz, press, 'timestamp');
        expect(run.pressedAt('Space'), `${hz} Hz`).toEqual([tickOf(timeMs)]);
        return run.body.x;
      });
      expect(new Set(xs).size).toBe(1);
    },
  );

  it("without it ('arrival'), a press at 1.02 s lands on tick 60 at 30 and 144 Hz but 61 at 60 Hz", () => {
    const press: ScriptedEvent[] = [{ timeMs: 1020, kind: 'press', key: 'Space' }];
    const ticks = RATES.map((hz) => play(hz, press, 'arrival').pressedAt('Space')[0]);
    // the first tick of the first frame at or after 1.02 s: 1033.3 ms runs ticks 60 and 61 at
    // 30 Hz, 1033.3 ms runs tick 61 at 60 Hz, 1020.8 ms runs tick 60 at 144 Hz
    expect(ticks).toEqual([60, 61, 60]);
    const xs = RATES.map((hz) => play(hz, press, 'arrival').body.x);
    expect(xs[0]).not.toBe(xs[1]);
    expect(xs[2]).toBe(xs[0]);
  });

  it('presses and releases of several keys land on the same ticks at 30, 60, 144, 59.94 and 240 Hz', () => {
    const events: ScriptedEvent[] = [];
    for (let i = 0; i < 40; i++) {
      const t = 100 + i * 37.3;
      events.push({ timeMs: t, kind: 'press', key: i % 2 ? 'KeyA' : 'KeyB' });
      events.push({ timeMs: t + 5 + (i % 7) * 9.1, kind: 'release', key: i % 2 ? 'KeyA' : 'KeyB' });
    }
    const runs = [30, 60, 144, 59.94, 240].map((hz) => play(hz, events, 'timestamp', 2000));
    for (const key of ['KeyA', 'KeyB']) {
      const first = runs[0];
      expect(first.pressedAt(key).length).toBe(20);
      for (const run of runs.slice(1)) {
        expect(run.pressedAt(key)).toEqual(first.pressedAt(key));
        expect(run.releasedAt(key)).toEqual(first.releasedAt(key));
      }
    }
  });

  it('in the last part of a frame, after its last step, an event waits for its own tick', () => {
    // 144 Hz: the frame at 1020.83 ms runs tick 60 (it ends at 1016.67 ms); a press at 1020 ms
    // lies in tick 61, which runs at 1034.72 ms — 'arrival' gives it tick 60, a tick early
    const run = play(144, [{ timeMs: 1020, kind: 'press', key: 'Space' }], 'timestamp');
    expect(run.pressedAt('Space')).toEqual([61]);
  });

  it('never delivers to a tick that has already run: a time before the last frame counts as that frame', () => {
    const { loop, input, seen } = spaceRig();
    for (let i = 0; i <= 60; i++) loop.frame((i * 1000) / 60); // ticks 0–59 ran
    input.press('Space', 200); // 0.2 s: tick 12, long gone
    loop.frame(1000 + 1000 / 60);
    expect(seen).toEqual([60]);
  });

  it("a time after the frame's timestamp counts as the frame's: its last tick, never later", () => {
    const { loop, input, seen } = spaceRig();
    loop.frame(0);
    loop.frame(1000 / 30); // ticks 0, 1
    input.press('Space', 1e9); // a clock far ahead
    loop.frame(2000 / 30); // ticks 2, 3: the time maps to the end of this frame, tick 3
    loop.frame(3000 / 30);
    expect(seen).toEqual([3]);
  });

  it('events without a time, and frames run by advance(), keep arrival timing', () => {
    const { loop, input, log } = spaceRig();
    loop.frame(0);
    loop.frame(1000 / 30); // ticks 0, 1
    input.press('KeyA'); // no time: the next tick
    input.press('KeyB', 2000 / 30); // the end of the next frame…
    loop.advance(1 / 30); // …but this frame has no timestamp: the next tick too (ticks 2, 3)
    // the first timed frame after an advance() is not mapped (and counts the 66.7 ms since the
    // last timestamp: ticks 4–7)
    loop.frame(3000 / 30);
    input.press('KeyC', 3000 / 30 + 10);
    loop.frame(4000 / 30); // mapped: 10 ms into a frame whose first tick is 8
    expect(log).toEqual(['2:press:KeyA', '2:press:KeyB', '8:press:KeyC']);
  });

  it('follows game time through time scale, clamps and a hidden-page gap', () => {
    const ticksAt = (hz: number) => {
      const loop = new FixedLoop({ tickRate: 60, timeScale: 0.5, errorPolicy: 'throw' });
      const input = new InputLatch(loop, { timing: 'timestamp' });
      const log: number[] = [];
      input.onInput((tick) => log.push(tick));
      let i = 0;
      const frame = (ms: number) => loop.frame(ms);
      for (; (i * 1000) / hz < 1500; i++) frame((i * 1000) / hz);
      // at half speed a press at 1.5 s of real time is at 0.75 s of game time
      input.press('KeyA', 1500);
      for (; (i * 1000) / hz <= 2000; i++) frame((i * 1000) / hz);
      // a page hidden for 10 s: the gap is dropped, an event in it goes to the first tick after
      input.press('KeyB', 5000);
      loop.frameAfterGap(12000);
      loop.frame(12000 + 1000 / hz);
      // a 1 s frame clamped to 0.25 s (0.125 s of game time): real time maps onto what ran
      input.press('KeyC', 12500 + 1000 / hz);
      loop.frame(13000 + 1000 / hz);
      loop.frame(13000 + 2000 / hz);
      return { log, tick: loop.tick };
    };
    const runs = RATES.map(ticksAt);
    expect(runs[0].log[0]).toBe(tickOf(750)); // tick 44, which ends at 0.75 s
    for (const run of runs) {
      expect(run.log[0]).toBe(44);
      expect(run.log[1]).toBe(60); // the first tick after the gap (1 s of game time ran)
    }
    // at 60 Hz the clamped frame starts 1/120 s of game time into tick 60 (the 1/60 s frame
    // before it, at half speed) and half of its real time is half of its 0.125 s of game time
    expect(runs[1].log[2]).toBe(60 + Math.floor((STEP / 2 + 0.0625) / STEP)); // tick 64
  });

  it("a key's events stay in order: a release without a time waits for the timed press before it", () => {
    const { loop, input, log } = spaceRig();
    loop.frame(0);
    loop.frame(1000 / 144);
    loop.frame(2000 / 144);
    input.press('Space', 2000 / 144 + 6); // 19.9 ms: tick 1 (the frame below runs tick 0)
    input.release('Space'); // no time: after the press, whatever arrival would say
    input.press('KeyA'); // another key is not held back
    for (const f of [3, 5, 6, 8]) loop.frame((f * 1000) / 144); // ticks 0, 1, –, 2
    expect(log).toEqual(['0:press:KeyA', '1:press:Space', '2:release:Space']);
  });

  it('feeds event.timeStamp through bindKeyboard and bindPointer', () => {
    class TimedEvent extends Event {
      readonly code: string;
      readonly buttons: number;
      readonly time: number;
      constructor(type: string, code: string, timeMs: number, buttons = 0) {
        super(type);
        this.code = code;
        this.buttons = buttons;
        this.time = timeMs;
      }
      override get timeStamp(): number {
        return this.time;
      }
    }
    const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const input = new InputLatch(loop, { timing: 'timestamp' });
    const log: string[] = [];
    input.onInput((tick, kind, key) => {
      if (kind !== 'move') log.push(`${tick}:${kind}:${key}`);
    });
    const keys = new EventTarget();
    const canvas = new EventTarget();
    input.bindKeyboard(keys);
    input.bindPointer(canvas);
    loop.frame(0);
    loop.frame(100); // ticks 0–5
    keys.dispatchEvent(new TimedEvent('keydown', 'KeyW', 150)); // tick 8 ends at 150 ms
    canvas.dispatchEvent(new TimedEvent('pointerdown', '', 120, 1)); // tick 7
    loop.frame(200); // ticks 6–11
    expect(log).toEqual(['7:press:MouseLeft', '8:press:KeyW']);
  });

  it('a recording made with timestamp timing at 144 Hz replays bit for bit at 30 fps', () => {
    const events: ScriptedEvent[] = [];
    for (let i = 0; i < 30; i++) {
      events.push({ timeMs: 50 + i * 61.7, kind: 'press', key: 'Space' });
      events.push({ timeMs: 80 + i * 61.7, kind: 'release', key: 'Space' });
    }
    const loop = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const input = new InputLatch(loop, { timing: 'timestamp' });
    const trace: number[] = [];
    const body = { x: 0, v: 0 };
    const sim = (l: FixedLoop, i: InputLatch, out: number[]) =>
      l.onFixedUpdate((dt) => {
        if (i.pressed('Space')) body.v += 100;
        if (i.released('Space')) body.v *= 0.5;
        body.x += body.v * dt;
        out.push(body.x);
      });
    sim(loop, input, trace);
    const rec = new InputRecording();
    rec.record(input);
    let next = 0;
    for (let f = 0; (f * 1000) / 144 <= 2000; f++) {
      const ts = (f * 1000) / 144;
      while (next < events.length && events[next].timeMs <= ts) {
        input[events[next].kind]('Space', events[next].timeMs);
        next++;
      }
      loop.frame(ts);
    }
    rec.stop();
    body.x = 0;
    body.v = 0;
    const loop2 = new FixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const input2 = new InputLatch(loop2); // the replay needs no timing of its own
    const again: number[] = [];
    sim(loop2, input2, again);
    InputRecording.fromJSON(JSON.stringify(rec)).replay(input2);
    while (loop2.tick < loop.tick) loop2.advance(1 / 30);
    expect(again.slice(0, trace.length)).toEqual(trace);
    expect(trace.length).toBe(rec.length);
  });

  it("reads 'arrival' by default and rejects other timings and bad times", () => {
    const loop = new FixedLoop();
    expect(new InputLatch(loop).timing).toBe('arrival');
    expect(new InputLatch(loop, {}).timing).toBe('arrival');
    expect(new InputLatch(loop, { timing: 'timestamp' }).timing).toBe('timestamp');
    expect(() => new InputLatch(loop, { timing: 'stamp' as never })).toThrow(
      'fixedtick: option "timing" must be "arrival" or "timestamp", got "stamp"',
    );
    expect(() => new InputLatch(loop, { timeing: 'timestamp' } as never)).toThrow(
      'fixedtick: unknown InputLatch option "timeing" (known: timing)',
    );
    const input = new InputLatch(loop);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '5', null]) {
      expect(() => input.press('KeyA', bad as never)).toThrow(
        /^fixedtick: option "timeMs" must be a finite number of milliseconds \(or undefined\), got /,
      );
    }
    expect(input.pending).toBe(0);
  });
});
