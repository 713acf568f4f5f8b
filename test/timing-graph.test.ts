import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { FixedLoop } from '@fixedtick/core';
import {
  createTimingGraph,
  TIMING_RATE_PERIOD,
  type TimingGraphSource,
  TimingHistory,
} from '@fixedtick/core/debug';
import { ThreeFixedLoop } from '@fixedtick/three';
import { describe, expect, it } from 'vitest';

/** Records every frame of `loop` into `history`, the way the graph does. */
function recordInto(loop: FixedLoop, history: TimingHistory): void {
  let seen = 0;
  loop.onPostRender(() => {
    history.record(loop.lastFrame, loop.stats.anomalies - seen, loop.timeScale);
    seen = loop.stats.anomalies;
  });
}

function newest(history: TimingHistory, field: 'steps' | 'alpha' | 'frameMs', count: number) {
  const out: number[] = [];
  for (let age = count - 1; age >= 0; age--) out.push(history[field][history.indexOf(age)]);
  return out;
}

describe('TimingHistory', () => {
  it('records steps and alpha of a 144 Hz display on 60 Hz physics, frame by frame', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const history = new TimingHistory(24);
    recordInto(loop, history);
    for (let i = 0; i < 6; i++) loop.advance(1 / 144);
    expect(newest(history, 'steps', 6)).toEqual([0, 0, 1, 0, 1, 0]);
    expect(newest(history, 'alpha', 6).map((a) => Number(a.toFixed(2)))).toEqual([
      0.42, 0.83, 0.25, 0.67, 0.08, 0.5,
    ]);
    expect(newest(history, 'frameMs', 1)[0]).toBeCloseTo(1000 / 144, 4);
  });

  it('keeps only the last `capacity` frames, newest at age 0', () => {
    const history = new TimingHistory(4);
    const loop = new FixedLoop({ tickRate: 10 });
    recordInto(loop, history);
    for (const seconds of [0.01, 0.02, 0.03, 0.04, 0.05, 0.06]) loop.advance(seconds);
    expect(history.length).toBe(4);
    expect(newest(history, 'frameMs', 4).map((ms) => Math.round(ms))).toEqual([30, 40, 50, 60]);
    expect(history.indexOf(4)).toBe(-1);
    history.clear();
    expect(history.length).toBe(0);
  });

  it('computes fps, steps/s and dropped ms/s over each quarter second of real time', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const history = new TimingHistory(16);
    recordInto(loop, history);
    // 36 frames of 1/144 s = exactly 0.25 s: 36 frames, 15 steps.
    for (let i = 0; i < 36; i++) loop.advance(1 / 144);
    expect(history.ratesVersion).toBe(1);
    expect(history.rates.fps).toBeCloseTo(144, 6);
    expect(history.rates.stepsPerSecond).toBeCloseTo(60, 6);
    expect(history.rates.droppedMsPerSecond).toBe(0);
    expect(TIMING_RATE_PERIOD).toBe(0.25);
  });

  it('shows a clamped long frame as counted time plus dropped time', () => {
    const loop = new FixedLoop({ tickRate: 60, maxDeltaTime: 0.1 });
    const history = new TimingHistory(8);
    recordInto(loop, history);
    loop.advance(0.5);
    const i = history.indexOf(0);
    expect(history.frameMs[i]).toBeCloseTo(100, 3);
    expect(history.droppedMs[i]).toBeCloseTo(400, 3);
    expect(history.steps[i]).toBe(6);
    // 0.5 s of real time, 400 ms of it dropped: 800 ms/s.
    expect(history.rates.fps).toBeCloseTo(2, 6);
    expect(history.rates.droppedMsPerSecond).toBeCloseTo(800, 3);
  });

  it('marks the frame that sanitised a bad frame time', () => {
    const loop = new FixedLoop();
    const history = new TimingHistory(8);
    recordInto(loop, history);
    loop.advance(1 / 60);
    loop.advance(Number.NaN);
    loop.advance(1 / 60);
    expect(newest(history, 'frameMs', 3).map((ms) => Math.round(ms))).toEqual([17, 0, 17]);
    expect([2, 1, 0].map((age) => history.anomalies[history.indexOf(age)])).toEqual([0, 1, 0]);
  });

  it('keeps the main-thread time given for each frame, and its mean over each rate period', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const history = new TimingHistory(64);
    // frames alternately 2 ms and 4 ms of main-thread work, 36 frames of 1/144 s = one period
    let frame = 0;
    loop.onPostRender(() => {
      history.record(loop.lastFrame, 0, loop.timeScale, frame++ % 2 === 0 ? 2 : 4);
    });
    for (let i = 0; i < 36; i++) loop.advance(1 / 144);
    expect([1, 0].map((age) => history.mainThreadMs[history.indexOf(age)])).toEqual([2, 4]);
    expect(history.rates.mainThreadMs).toBe(3);
    // not measured: 0, as before the option existed
    history.record(loop.lastFrame, 0, loop.timeScale);
    expect(history.mainThreadMs[history.indexOf(0)]).toBe(0);
  });

  it.each([0, -3, 1.5, Number.NaN])('rejects frames = %s with a RangeError naming it', (bad) => {
    expect(() => new TimingHistory(bad)).toThrow(/option "frames".*got/);
  });
});

describe('createTimingGraph outside a browser', () => {
  it('imports without a DOM and says what it needs when created without one', () => {
    expect(typeof document).toBe('undefined');
    expect(() => createTimingGraph(new FixedLoop())).toThrow(/needs a DOM/);
  });

  it.each([
    ['frames', { frames: 0 }],
    ['width', { width: -1 }],
    ['height', { height: Number.NaN }],
    ['maxFrameMs', { maxFrameMs: 0 }],
    ['toggleKey', { toggleKey: '' }],
    ['position', { position: 'middle' as never }],
    ['help', { help: '' }],
    ['help', { help: 42 as never }],
  ])('rejects a bad %s with a RangeError naming it', (name, options) => {
    expect(() => createTimingGraph(new FixedLoop(), options)).toThrow(
      new RegExp(`option "${name}"`),
    );
  });
});

describe('createTimingGraph with the adapters', () => {
  it('takes a ThreeFixedLoop or a BabylonFixedLoop as its source (the FixedLoop API)', () => {
    const three = new ThreeFixedLoop({ tickRate: 60 });
    const engine = new NullEngine();
    const babylon = new BabylonFixedLoop(new Scene(engine), { tickRate: 60 });
    for (const loop of [three, babylon]) {
      const source: TimingGraphSource = loop;
      const history = new TimingHistory(8);
      source.onPostRender(() => history.record(source.lastFrame, 0, source.timeScale));
      loop.advance(1 / 30);
      expect(history.steps[history.indexOf(0)]).toBe(2);
      expect(() => createTimingGraph(source)).toThrow(/needs a DOM/);
      loop.dispose();
    }
    engine.dispose();
  });
});
