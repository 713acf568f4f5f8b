import {
  FixedLoop,
  type FrameCallbackSource,
  frameCallbackDriver,
  type RafHost,
  rafDriver,
  type VisibilityDocument,
} from '@fixedtick/core';
import { describe, expect, it } from 'vitest';

/** A loop that drops no time by itself (no clamps), so what it drops is the driver's doing. */
function unclampedLoop(): FixedLoop {
  return new FixedLoop({
    maxDeltaTime: Number.POSITIVE_INFINITY,
    maxStepsPerFrame: Number.POSITIVE_INFINITY,
  });
}

/**
 * A page hidden for 10 minutes then shown, frames fired by `fire`: no time is fed while hidden,
 * and the first frame after drops the whole gap (no catch-up burst).
 */
function hiddenForTenMinutes(
  loop: FixedLoop,
  doc: EventTarget & { hidden: boolean },
  fire: (t: number) => void,
): void {
  fire(0);
  fire(1000 / 60);
  expect(loop.tick).toBe(1);
  doc.hidden = true;
  doc.dispatchEvent(new Event('visibilitychange'));
  fire(5000); // a throttled background frame feeds no time
  expect(loop.tick).toBe(1);
  doc.hidden = false;
  doc.dispatchEvent(new Event('visibilitychange'));
  fire(600_000);
  expect(loop.tick).toBe(1);
  expect(loop.stats.droppedTime).toBeCloseTo(600 - 1 / 60, 6);
  fire(600_000 + 1000 / 60);
  expect(loop.tick).toBe(2);
}

/** A fake browser: rAF callbacks run when the test says so, at the timestamp it gives. */
function fakeHost() {
  let pending: ((t: number) => void) | undefined;
  const doc = new EventTarget() as EventTarget & { hidden: boolean };
  doc.hidden = false;
  const host: RafHost = {
    requestAnimationFrame(cb) {
      pending = cb;
      return 1;
    },
    cancelAnimationFrame() {
      pending = undefined;
    },
    document: doc as unknown as RafHost['document'],
  };
  return {
    host,
    doc,
    fire(t: number) {
      const cb = pending;
      pending = undefined;
      cb?.(t);
    },
    get scheduled() {
      return pending !== undefined;
    },
  };
}

describe('rafDriver', () => {
  it('feeds rAF timestamps to the loop', () => {
    const fake = fakeHost();
    const loop = new FixedLoop();
    loop.start(rafDriver({ host: fake.host }));
    for (let i = 0; i <= 60; i++) fake.fire((i * 1000) / 60);
    expect(loop.tick).toBe(60);
    expect(loop.running).toBe(true);
    loop.stop();
    expect(fake.scheduled).toBe(false);
    expect(loop.running).toBe(false);
  });

  it('a page hidden for 10 minutes then shown runs no catch-up burst (the gap is dropped)', () => {
    const fake = fakeHost();
    const loop = unclampedLoop();
    loop.start(rafDriver({ host: fake.host }));
    hiddenForTenMinutes(loop, fake.doc, fake.fire);
    loop.stop();
  });

  it('start() outside a browser without a host explains what to use instead', () => {
    const loop = new FixedLoop();
    expect(() => loop.start()).toThrow(/requestAnimationFrame/);
  });
});

/** An engine loop that calls back when the test says so, with or without a timestamp. */
function fakeEngine() {
  let callback: ((t?: number) => void) | undefined;
  const calls: string[] = [];
  const source: FrameCallbackSource = {
    start(onFrame) {
      calls.push('start');
      callback = onFrame;
    },
    stop(onFrame) {
      calls.push(onFrame === callback ? 'stop (same callback)' : 'stop (another callback)');
      callback = undefined;
    },
  };
  const doc = new EventTarget() as EventTarget & { hidden: boolean };
  doc.hidden = false;
  return {
    source,
    calls,
    doc: doc as unknown as VisibilityDocument & typeof doc,
    fire: (t?: number) => callback?.(t),
  };
}

describe('frameCallbackDriver', () => {
  it("feeds the engine's timestamps, or now() when its callback has none", () => {
    const engine = fakeEngine();
    const loop = new FixedLoop();
    loop.start(frameCallbackDriver(engine.source, { document: null }));
    for (let i = 0; i <= 30; i++) engine.fire((i * 1000) / 60);
    expect(loop.tick).toBe(30);
    loop.stop();
    let clock = 0;
    const timeless = fakeEngine();
    const loop2 = new FixedLoop();
    loop2.start(frameCallbackDriver(timeless.source, { now: () => clock, document: null }));
    for (let i = 0; i <= 30; i++) {
      clock = (i * 1000) / 60;
      timeless.fire();
    }
    expect(loop2.tick).toBe(30);
    loop2.stop();
    expect(timeless.calls).toEqual(['start', 'stop (same callback)']);
  });

  it('feeds no time while the document is hidden and drops the gap after; start/stop are idempotent', () => {
    const engine = fakeEngine();
    const loop = unclampedLoop();
    const driver = frameCallbackDriver(engine.source, { document: engine.doc });
    loop.start(driver);
    driver.start(loop); // already running: no second start
    hiddenForTenMinutes(loop, engine.doc, engine.fire);
    loop.stop();
    driver.stop();
    expect(engine.calls).toEqual(['start', 'stop (same callback)']);
    engine.fire(700_000); // a late callback after stop feeds nothing
    expect(loop.tick).toBe(2);
  });

  it('a source that cannot start leaves the driver stopped, so a later start() works', () => {
    const engine = fakeEngine();
    let ready = false;
    const source: FrameCallbackSource = {
      start(onFrame) {
        if (!ready) throw new Error('no render loop yet');
        engine.source.start(onFrame);
      },
      stop: (onFrame) => engine.source.stop(onFrame),
    };
    const loop = new FixedLoop();
    const driver = frameCallbackDriver(source, { document: null });
    expect(() => loop.start(driver)).toThrow('no render loop yet');
    expect(loop.running).toBe(false);
    ready = true;
    loop.start(driver);
    for (let i = 0; i <= 6; i++) engine.fire((i * 1000) / 60);
    expect(loop.tick).toBe(6);
    loop.stop();
    expect(engine.calls).toEqual(['start', 'stop (same callback)']);
  });
});
