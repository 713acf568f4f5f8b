/**
 * Fault injection on the core loop: listeners and adapters that throw for thousands of frames,
 * an `onError` that throws, disposal from inside every hook, a page hidden for ten minutes (through
 * the real `rafDriver` on a fake browser host), and clocks that jump by an hour either way.
 * The loop must keep running, keep exact time, and report each fault exactly once.
 */
import { FixedLoop, presets, type RafHost, rafDriver } from '@fixedtick/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_HOOKS } from './loop-model.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fake browser whose rAF callbacks run when the test fires them, at the timestamp it gives. */
function fakeBrowser() {
  let pending: ((t: number) => void) | undefined;
  let requests = 0;
  const doc = new EventTarget() as EventTarget & { hidden: boolean };
  doc.hidden = false;
  const host: RafHost = {
    requestAnimationFrame(cb) {
      pending = cb;
      return ++requests;
    },
    cancelAnimationFrame() {
      pending = undefined;
    },
    document: doc as unknown as RafHost['document'],
  };
  return {
    host,
    fire(t: number): void {
      const cb = pending;
      pending = undefined;
      cb?.(t);
    },
    setHidden(hidden: boolean, event = true): void {
      doc.hidden = hidden;
      if (event) doc.dispatchEvent(new Event('visibilitychange'));
    },
  };
}

describe('fault injection: throwing listeners', () => {
  it('a listener throwing every frame for 10 000 frames: time kept, each throw reported once', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const reports: { error: unknown; source: string }[] = [];
    loop.onError((error, source) => reports.push({ error, source }));
    let thrown = 0;
    let stepsSeen = 0;
    loop.onUpdate(() => {
      thrown++;
      throw new Error(`update ${thrown}`);
    });
    loop.onFixedUpdate(() => {
      thrown++;
      throw new Error(`fixed ${thrown}`);
    });
    loop.onFixedUpdate(() => {
      stepsSeen++;
    });
    for (let i = 0; i < 10_000; i++) loop.advance(1 / 144);
    // 10 000 / 144 s at 60 Hz = 4 166.67 steps: exactly 4 166, none lost to the errors
    expect(loop.tick).toBe(4166);
    expect(stepsSeen).toBe(4166);
    expect(loop.fixedTime).toBeCloseTo(4166 / 60, 9);
    expect(thrown).toBe(10_000 + 4166);
    expect(reports).toHaveLength(thrown);
    expect(new Set(reports.map((r) => r.error)).size).toBe(thrown);
    expect(reports.filter((r) => r.source === 'onUpdate')).toHaveLength(10_000);
    expect(reports.filter((r) => r.source === 'onFixedUpdate')).toHaveLength(4166);
    expect(String(reports[reports.length - 1].error)).toBe(`Error: update ${thrown}`);
  });

  it('an onError listener that throws every time does not break the loop or the other onError listeners', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const loop = new FixedLoop({ tickRate: 60 });
    let caught = 0;
    loop.onError(() => {
      throw new Error('onError is broken too');
    });
    loop.onError(() => {
      caught++;
    });
    loop.onPostSimulation(() => {
      throw new Error('postSimulation');
    });
    let rendered = 0;
    loop.onPostRender(() => {
      rendered++;
    });
    for (let i = 0; i < 10_000; i++) loop.advance(1 / 60);
    expect(loop.tick).toBe(10_000);
    expect(rendered).toBe(10_000);
    expect(caught).toBe(10_000);
    expect(consoleError).toHaveBeenCalledTimes(10_000);
    expect(consoleError.mock.calls[0][0]).toBe('fixedtick: an onError listener threw:');
    expect((consoleError.mock.calls[0][1] as Error).message).toBe('onError is broken too');
  });

  it('an adapter throwing in every phase for 10 000 frames: each throw reported once, with its phase', () => {
    const loop = new FixedLoop({ tickRate: 50 });
    const sources = new Map<string, number>();
    loop.onError((_error, source) => sources.set(source, (sources.get(source) ?? 0) + 1));
    const fail = (): never => {
      throw new Error('adapter');
    };
    loop.addAdapter({
      beginFrame: fail,
      beforeSteps: fail,
      physicsStep: fail,
      afterStep: fail,
      interpolate: fail,
      render: fail,
    });
    for (let i = 0; i < 10_000; i++) loop.advance(1 / 100);
    expect(loop.tick).toBe(5000);
    expect(Object.fromEntries(sources)).toEqual({
      'adapter.beginFrame': 10_000,
      'adapter.beforeSteps': 5000,
      'adapter.physicsStep': 5000,
      'adapter.afterStep': 5000,
      'adapter.interpolate': 10_000,
      'adapter.render': 10_000,
    });
  });

  it("errorPolicy 'throw': the frame completes, then the first error of the frame is rethrown, every frame", () => {
    const loop = new FixedLoop({ errorPolicy: 'throw', tickRate: 60 });
    let reported = 0;
    loop.onError(() => {
      reported++; // reported as well as rethrown (and kept off the console)
    });
    let rendered = 0;
    loop.onFixedUpdate((_dt, tick) => {
      throw new Error(`tick ${tick}`);
    });
    loop.onPostRender(() => {
      rendered++;
    });
    for (let i = 0; i < 100; i++) {
      expect(() => loop.advance(2 / 60)).toThrow(`tick ${2 * i}`);
    }
    expect(loop.tick).toBe(200);
    expect(rendered).toBe(100);
    expect(reported).toBe(200);
  });
});

describe('fault injection: disposal from inside a hook', () => {
  const hooks = FRAME_HOOKS;

  it.each(hooks)(
    'dispose() inside %s: no later listener runs, the loop stays dead and quiet',
    (hook) => {
      const loop = new FixedLoop({ tickRate: 60 });
      const after: string[] = [];
      loop.onError((error) => after.push(`error ${String(error)}`));
      for (const h of hooks) {
        loop[h](() => {
          if (h === hook) loop.dispose();
        });
        loop[h](() => after.push(h), { priority: 1 });
      }
      loop.advance(0.05); // 3 steps
      // the order a frame of 3 steps dispatches in; everything before the disposing hook ran
      const frame = [
        'onFrameStart',
        ...['onFixedUpdate', 'onPostSimulation', 'onFixedUpdate', 'onPostSimulation'],
        ...['onFixedUpdate', 'onPostSimulation'],
        ...['onUpdate', 'onLateUpdate', 'onPreRender', 'onPostRender'],
      ];
      const ran = after.filter((h) => !h.startsWith('error'));
      expect(ran).toEqual(frame.slice(0, frame.indexOf(hook)));
      expect(loop.disposed).toBe(true);
      const info = loop.advance(1);
      expect([info.steps, info.delta, info.dropped]).toEqual([0, 0, 0]);
      expect(() => loop.start()).toThrow('fixedtick: start() on a disposed FixedLoop');
      expect(after.some((h) => h.startsWith('error'))).toBe(false);
    },
  );

  it('dispose() in the second of five steps reports the two steps that ran', () => {
    const loop = new FixedLoop({ tickRate: 100 });
    loop.onFixedUpdate((_dt, tick) => {
      if (tick === 1) loop.dispose();
    });
    const info = loop.advance(0.05);
    expect(info.steps).toBe(2);
    expect(loop.tick).toBe(2);
    expect(loop.stats.steps).toBe(2);
  });
});

describe('fault injection: hidden page and jumping clocks', () => {
  const cases = [
    ['defaults', {}],
    ['unity', presets.unity],
    ['godot', presets.godot],
    ['roblox', presets.roblox],
    ['fiedler', presets.fiedler],
    ['bevy', presets.bevy],
    ['no clamps but the step cap', { maxDeltaTime: Number.POSITIVE_INFINITY }],
  ] as const;

  it.each(cases)('%s: a page hidden for 10 minutes then shown runs no burst', (_name, options) => {
    const browser = fakeBrowser();
    const loop = new FixedLoop({ ...options });
    const perFrame: number[] = [];
    loop.onPostRender(() => perFrame.push(loop.stats.lastSteps));
    loop.start(rafDriver({ host: browser.host }));
    let t = 1000;
    for (let i = 0; i < 60; i++) {
      t += 1000 / 60;
      browser.fire(t);
    }
    const before = loop.tick;
    const droppedBefore = loop.stats.droppedTime;
    browser.setHidden(true);
    // background tabs get at most a throttled frame now and then: they must feed no time
    for (let s = 1; s <= 600; s += 60) browser.fire(t + s * 1000);
    expect(loop.tick).toBe(before);
    t += 600_000;
    browser.setHidden(false);
    perFrame.length = 0;
    browser.fire(t);
    expect(perFrame).toEqual([0]);
    // the whole 10 minutes since the last visible frame are dropped, scaled to game time
    expect(loop.stats.droppedTime - droppedBefore).toBeCloseTo(600, 6);
    const resumed = loop.fixedTime;
    // then ordinary 60 fps again: one second of frames is one second of steps, no burst
    for (let i = 0; i < 60; i++) {
      t += 1000 / 60;
      browser.fire(t);
    }
    expect(Math.max(...perFrame)).toBeLessThanOrEqual(2);
    expect(Math.abs(loop.fixedTime - resumed - 1)).toBeLessThanOrEqual(loop.fixedDelta);
    expect(loop.alpha).toBeGreaterThanOrEqual(0);
    expect(loop.alpha).toBeLessThanOrEqual(1);
    loop.stop();
  });

  it('hidden and shown again with no frame between: the visibilitychange event alone drops the gap', () => {
    const browser = fakeBrowser();
    const loop = new FixedLoop(presets.godot);
    loop.start(rafDriver({ host: browser.host }));
    browser.fire(0);
    browser.fire(1000 / 60);
    browser.setHidden(true);
    browser.setHidden(false);
    browser.fire(600_000);
    expect(loop.stats.lastSteps).toBe(0);
    expect(loop.tick).toBe(1);
    loop.stop();
  });

  it('a timestampMs that jumps back by an hour: an anomaly, no step, no NaN, then time goes on', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const anomalies: [string, number][] = [];
    loop.onAnomaly((kind, value) => anomalies.push([kind, value]));
    const t0 = 5_000_000;
    for (let i = 0; i <= 60; i++) loop.frame(t0 + (i * 1000) / 60);
    expect(loop.tick).toBe(60);
    const back = t0 + 1000 - 3_600_000;
    const info = loop.frame(back);
    expect([info.steps, info.delta, info.dropped]).toEqual([0, 0, 0]);
    expect(anomalies).toEqual([['backwards', back]]);
    expect(loop.stats.anomalies).toBe(1);
    // the new clock is the origin now: one more second of frames is 60 more steps
    for (let i = 1; i <= 60; i++) loop.frame(back + (i * 1000) / 60);
    expect(loop.tick).toBe(120);
    expect(loop.fixedTime).toBeCloseTo(2, 12);
    for (const v of [loop.time, loop.fixedTime, loop.alpha, loop.accumulator, loop.unscaledTime]) {
      expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('a timestampMs that jumps forward by an hour: clamped, the hour is dropped, not simulated', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    loop.frame(0);
    loop.frame(1000 / 60);
    const info = loop.frame(1000 / 60 + 3_600_000);
    // maxDeltaTime keeps 0.25 s (15 steps), maxStepsPerFrame runs 8 of them
    expect(info.steps).toBe(8);
    expect(info.dropped).toBeCloseTo(3600 - 0.25 + 7 / 60, 9);
    expect(loop.tick).toBe(9);
    expect(loop.advance(1 / 60).steps).toBe(1);
  });
});
