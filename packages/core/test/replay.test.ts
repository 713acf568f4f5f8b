import { FixedLoop } from '@fixedtick/core';
import {
  InputLatch,
  InputRecording,
  InputRecordingError,
  type InputRecordingJSON,
} from '@fixedtick/core/input';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/support/random.ts';

const V0 = 600; // px/s, jump impulse
const G = 1800; // px/s², gravity
const RUN = 240; // px/s, horizontal speed while ArrowRight is held

/**
 * The jump simulation: semi-implicit Euler at the loop's fixed step. Space jumps (once per press,
 * only on the ground), releasing Space early cuts the jump (variable height, reads `released`),
 * ArrowRight runs (reads `held`), and the pointer's x steers a "look" value. Every tick's state is
 * written to a Float64Array so two runs can be compared bit for bit.
 */
function jumpSim(loop: FixedLoop, input: InputLatch, ticks: number) {
  const body = { x: 0, y: 0, v: 0, look: 0, jumps: 0 };
  const trace = new Float64Array(ticks * 4);
  loop.onFixedUpdate((dt, tick) => {
    const grounded = body.y === 0 && body.v === 0;
    if (input.pressed('Space') && grounded) {
      body.v = V0;
      body.jumps++;
    }
    if (input.released('Space') && body.v > 0) body.v *= 0.5;
    if (input.held('ArrowRight')) body.x += RUN * dt;
    body.look += (input.pointerX - body.look) * 0.1;
    body.v -= G * dt;
    body.y += body.v * dt;
    if (body.y <= 0) {
      body.y = 0;
      body.v = 0;
    }
    if (tick < ticks) trace.set([body.x, body.y, body.v, body.look], tick * 4);
  });
  return { body, trace };
}

const TICKS = 60 * 20; // 20 s of simulation

/** Plays 20 s at `fps` with a pseudo-random player, recording; returns trace and recording. */
function playAndRecord(fps: number) {
  const loop = new FixedLoop({ tickRate: 60 });
  const input = new InputLatch(loop);
  const sim = jumpSim(loop, input, TICKS);
  const rec = new InputRecording();
  rec.record(input);
  const rnd = mulberry32(42);
  while (loop.tick < TICKS) {
    const r = rnd();
    if (r < 0.02) input.press('Space');
    else if (r < 0.05) input.release('Space');
    else if (r < 0.06) input.press('ArrowRight');
    else if (r < 0.07) input.release('ArrowRight');
    if (r > 0.9) input.move(Math.floor(rnd() * 800), Math.floor(rnd() * 600));
    if (r > 0.99) {
      // A tap within one frame.
      input.press('Space');
      input.release('Space');
    }
    loop.advance(1 / fps);
  }
  rec.stop();
  return { rec, trace: sim.trace, body: sim.body, loop };
}

/** Replays `json` into a fresh loop driven at `frameTime()` seconds per frame. */
function replay(json: string, frameTime: () => number) {
  const loop = new FixedLoop({ tickRate: 60 });
  const input = new InputLatch(loop);
  const sim = jumpSim(loop, input, TICKS);
  let ended = false;
  InputRecording.fromJSON(json).replay(input, { onEnd: () => (ended = true) });
  // Live input during a replay is ignored: it must not change the result.
  input.press('Space');
  while (loop.tick < TICKS) loop.advance(frameTime());
  return {
    trace: sim.trace,
    body: sim.body,
    input,
    loop,
    get ended() {
      return ended;
    },
  };
}

const bits = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('InputRecording: record at one frame rate, replay at another, same simulation', () => {
  it('recorded at 144 fps, replayed at 30 fps: the same state at every tick, bit for bit', () => {
    const live = playAndRecord(144);
    expect(live.body.jumps).toBeGreaterThan(5); // the run actually did something
    expect(live.rec.length).toBe(live.loop.tick);
    const json = JSON.stringify(live.rec);
    const again = replay(json, () => 1 / 30);
    expect(again.loop.lastFrame.steps).toBe(2); // really 2-step frames
    expect(Buffer.compare(bits(again.trace), bits(live.trace))).toBe(0);
    expect(again.body).toEqual(live.body);
  });

  it('recorded at 30 fps, replayed at jittery frame times: bit for bit', () => {
    const live = playAndRecord(30);
    const rnd = mulberry32(7);
    const again = replay(JSON.stringify(live.rec), () => 0.001 + rnd() * 0.05);
    expect(Buffer.compare(bits(again.trace), bits(live.trace))).toBe(0);
  });

  it('the replay ends after its last tick and hands the latch back to live input', () => {
    const live = playAndRecord(60);
    const again = replay(JSON.stringify(live.rec), () => 1 / 60);
    again.loop.advance(1 / 60); // the tick after the recording
    expect(again.ended).toBe(true);
    expect(again.input.replaying).toBe(false);
    // Live input works again.
    let seen = false;
    again.loop.onFixedUpdate(() => {
      if (again.input.pressed('KeyJ')) seen = true;
    });
    again.input.press('KeyJ');
    again.loop.advance(1 / 60);
    expect(seen).toBe(true);
  });

  it('recording a replay gives the same recording (events and ticks are what was delivered)', () => {
    const live = playAndRecord(144);
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const copy = new InputRecording();
    InputRecording.fromJSON(JSON.stringify(live.rec)).replay(input);
    copy.record(input);
    while (loop.tick < live.rec.length) loop.advance(1 / 30);
    copy.stop();
    expect(copy.toJSON()).toEqual(live.rec.toJSON());
  });

  it('the function replay returns stops it early and gives the latch back to live input', () => {
    const live = playAndRecord(60);
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    let ended = 0;
    const stop = InputRecording.fromJSON(live.rec.toJSON()).replay(input, {
      onEnd: () => ended++,
    });
    loop.advance(1 / 60);
    expect(input.replaying).toBe(true);
    stop();
    stop();
    expect(input.replaying).toBe(false);
    expect(ended).toBe(1);
    input.press('KeyK');
    loop.advance(1 / 60);
    expect(input.pressed('KeyK')).toBe(true);
  });

  it('a recording survives JSON: toJSON(fromJSON(x)) is x', () => {
    const live = playAndRecord(144);
    const json = live.rec.toJSON();
    expect(json.format).toBe('fixedtick-input');
    expect(json.version).toBe(1);
    expect(json.fixedDelta).toBe(1 / 60);
    expect(json.events.length).toBe(live.rec.eventCount);
    expect(InputRecording.fromJSON(JSON.stringify(json)).toJSON()).toEqual(json);
    // Events are stamped with the tick relative to the recording's start, sorted.
    const ticks = json.events.map((e) => e[0]);
    expect([...ticks].sort((a, b) => a - b)).toEqual(ticks);
  });

  it('a recording started mid-run keeps the held keys and replays from its own tick 0', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    const ticks = (n: number, l: FixedLoop) => {
      for (let i = 0; i < n; i++) l.advance(1 / 60);
    };
    input.press('ArrowRight');
    ticks(10, loop);
    const rec = new InputRecording();
    rec.record(input);
    ticks(5, loop);
    input.press('Space');
    ticks(5, loop);
    rec.stop();
    const json = rec.toJSON();
    expect(json.start.held).toEqual(['ArrowRight']);
    expect(json.length).toBe(10);
    expect(json.events).toEqual([[5, 'press', 'Space']]);

    const loop2 = new FixedLoop({ tickRate: 60 });
    const input2 = new InputLatch(loop2);
    ticks(100, loop2); // another clock: the replay starts at its next tick
    const seen: string[] = [];
    loop2.onFixedUpdate((_dt, tick) => {
      if (input2.pressed('Space')) seen.push(`Space@${tick}`);
      if (tick === 100 && input2.held('ArrowRight')) seen.push('ArrowRight held@100');
    });
    InputRecording.fromJSON(json).replay(input2);
    ticks(10, loop2);
    expect(seen).toEqual(['ArrowRight held@100', 'Space@105']);
  });
});

describe('InputRecording: a malformed recording is rejected and leaves the latch unchanged', () => {
  const good: InputRecordingJSON = {
    format: 'fixedtick-input',
    version: 1,
    fixedDelta: 1 / 60,
    length: 10,
    start: { held: [], pointer: [0, 0] },
    events: [
      [1, 'press', 'Space'],
      [2, 'release', 'Space'],
      [3, 'move', 4, 5],
    ],
  };
  const variant = (patch: (j: Record<string, unknown>) => void): string => {
    const j = structuredClone(good) as unknown as Record<string, unknown>;
    patch(j);
    return JSON.stringify(j);
  };

  it.each([
    ['not JSON', '{"format": "fixedtick-input", ', '', /not JSON/],
    ['wrong version', variant((j) => (j.version = 2)), 'version', /reads version 1, got 2/],
    [
      'unsorted ticks',
      variant(
        (j) =>
          (j.events = [
            [3, 'press', 'Space'],
            [1, 'release', 'Space'],
          ]),
      ),
      'events[1][0]',
      /tick 1 comes after tick 3/,
    ],
    [
      'unknown event kind',
      variant((j) => (j.events = [[1, 'jump', 'Space']])),
      'events[0][1]',
      /unknown event kind "jump"/,
    ],
    [
      'wrong format tag',
      variant((j) => (j.format = 'other')),
      'format',
      /expected "fixedtick-input"/,
    ],
    ['tick past the end', variant((j) => (j.length = 2)), 'events[1][0]', /not below length 2/],
    [
      'release of a key not held',
      variant((j) => (j.events = [[1, 'release', 'KeyA']])),
      'events[0]',
      /release of "KeyA" while it is not held/,
    ],
    ['a bad number', variant((j) => (j.events = [[1, 'move', 'x', 5]])), 'events[0][2]', /finite/],
    ['not an object', '[1, 2]', '', /expected an object/],
  ])('%s: a clear error saying where', (_name, text, path, message) => {
    const loop = new FixedLoop({ tickRate: 60 });
    const input = new InputLatch(loop);
    input.press('KeyW');
    loop.advance(1 / 60);
    input.press('KeyS'); // pending: not delivered yet
    const before = [input.held('KeyW'), input.pressed('KeyW'), input.held('KeyS'), input.pending];

    let error: unknown;
    try {
      InputRecording.fromJSON(text).replay(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputRecordingError);
    expect((error as InputRecordingError).path).toBe(path);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/^fixedtick: bad input recording/);

    // The latch is as it was: same state, live input still delivered.
    expect([input.held('KeyW'), input.pressed('KeyW'), input.held('KeyS'), input.pending]).toEqual(
      before,
    );
    expect(input.replaying).toBe(false);
    loop.advance(1 / 60);
    expect(input.pressed('KeyS')).toBe(true);
  });

  it('a recording made at another step is refused by replay, leaving the latch unchanged', () => {
    const loop = new FixedLoop({ tickRate: 50 });
    const input = new InputLatch(loop);
    input.press('KeyW');
    const rec = InputRecording.fromJSON(good);
    expect(() => rec.replay(input)).toThrow(/fixedDelta 0.016666666666666666 s.*0.02 s/);
    expect(input.replaying).toBe(false);
    expect(input.pending).toBe(1);
  });

  it('the message names the place: events[1][0]', () => {
    expect(() =>
      InputRecording.fromJSON(
        variant(
          (j) =>
            (j.events = [
              [3, 'press', 'Space'],
              [1, 'release', 'Space'],
            ]),
        ),
      ),
    ).toThrow('fixedtick: bad input recording at events[1][0]: tick 1 comes after tick 3');
  });
});
