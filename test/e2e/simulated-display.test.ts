/**
 * The simulated display the examples (and so the e2e tests) rely on: the timestamps it feeds are
 * exactly those of a display at the chosen rate, paced to real time below the browser's rate.
 * Plain Node, no browser: browser frames are a table of rAF timestamps.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedDisplay } from '../../examples/shared/simulated-display.ts';

/** rAF timestamps of a 60 Hz screen: 1000 / 60 ms apart, from 1000 ms. */
function browserFrames(count: number, hz = 60): number[] {
  return Array.from({ length: count }, (_, i) => 1000 + (i * 1000) / hz);
}

/** Feeds `frames` to `display`; returns the timestamps it produced (NaN = frame skipped). */
function feed(display: SimulatedDisplay, frames: readonly number[]): number[] {
  return frames.map((ms) => display.next(ms));
}

describe('SimulatedDisplay', () => {
  it.each([
    { rate: 30, fed: 30, skipped: 30 },
    { rate: 60, fed: 60, skipped: 0 },
    { rate: 144, fed: 60, skipped: 0 },
  ])(
    'at $rate fps on a 60 Hz screen it feeds $fed of 60 frames, 1000/$rate ms apart',
    ({ rate, fed, skipped }) => {
      const display = new SimulatedDisplay(rate);
      const out = feed(display, browserFrames(61)).slice(1); // the first frame sets the origin
      const kept = out.filter((t) => !Number.isNaN(t));
      expect(kept).toHaveLength(fed);
      expect(out.length - kept.length).toBe(skipped);
      for (let i = 0; i < kept.length; i++) {
        // From the frame index, not summed: exact to the last bit of the product.
        expect(kept[i]).toBe(1000 + ((i + 1) * 1000) / rate);
      }
    },
  );

  it('real time feeds the browser timestamps unchanged', () => {
    const display = new SimulatedDisplay('real');
    const frames = browserFrames(10);
    expect(feed(display, frames)).toEqual(frames);
  });

  it('switching rates keeps time moving forward, with no 0 s frame and no jump', () => {
    const display = new SimulatedDisplay(144);
    const out = feed(display, browserFrames(20));
    display.rate = 'real';
    const later = feed(
      display,
      browserFrames(5).map((ms) => ms + 20_000 / 60),
    );
    display.rate = 30;
    const last = feed(
      display,
      browserFrames(4).map((ms) => ms + 25_000 / 60),
    );
    const all = [...out, ...later, ...last].filter((t) => !Number.isNaN(t));
    for (let i = 1; i < all.length; i++) {
      const step = all[i] - all[i - 1];
      expect(step).toBeGreaterThan(1000 / 144 - 1e-9);
      expect(step).toBeLessThan(1000 / 30 + 1e-9);
    }
  });

  it('reports the game speed: 144 fps on a 60 Hz screen plays at 60/144', () => {
    const display = new SimulatedDisplay(144);
    feed(display, browserFrames(300));
    expect(display.speed).toBeCloseTo(60 / 144, 3);
  });
});
