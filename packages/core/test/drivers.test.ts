import { FixedLoop, type RafHost, rafDriver } from '@fixedtick/core';
import { describe, expect, it } from 'vitest';

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
    const loop = new FixedLoop({
      maxDeltaTime: Number.POSITIVE_INFINITY,
      maxStepsPerFrame: Number.POSITIVE_INFINITY,
    });
    loop.start(rafDriver({ host: fake.host }));
    fake.fire(0);
    fake.fire(1000 / 60);
    expect(loop.tick).toBe(1);
    fake.doc.hidden = true;
    fake.doc.dispatchEvent(new Event('visibilitychange'));
    fake.fire(5000); // a throttled background frame feeds no time
    expect(loop.tick).toBe(1);
    fake.doc.hidden = false;
    fake.doc.dispatchEvent(new Event('visibilitychange'));
    fake.fire(600_000);
    expect(loop.tick).toBe(1);
    expect(loop.stats.droppedTime).toBeCloseTo(600 - 1 / 60, 6);
    fake.fire(600_000 + 1000 / 60);
    expect(loop.tick).toBe(2);
    loop.stop();
  });

  it('start() outside a browser without a host explains what to use instead', () => {
    const loop = new FixedLoop();
    expect(() => loop.start()).toThrow(/requestAnimationFrame/);
  });
});
