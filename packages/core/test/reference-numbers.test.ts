/**
 * docs/guarantees.md: the reference numbers from the project's source articles, computed by the real loop.
 */
import { decay, FixedLoop, semiImplicitEuler } from '@fixedtick/core';
import { describe, expect, it } from 'vitest';

/** Peak height of a jump (v0 = 600 px/s up, g = 1800 px/s²) stepped once per frame of `1/fps`. */
function perFramePeak(fps: number): number {
  const body = { x: 0, v: 600 };
  let peak = 0;
  for (let frame = 0; frame < fps * 2; frame++) {
    semiImplicitEuler(body, -1800, 1 / fps);
    peak = Math.max(peak, body.x);
  }
  return peak;
}

/** The same jump stepped by a 60 Hz FixedLoop fed frames of `1/fps`. */
function fixedPeak(fps: number): number {
  const loop = new FixedLoop({ tickRate: 60 });
  const body = { x: 0, v: 600 };
  let peak = 0;
  loop.onFixedUpdate((dt) => {
    semiImplicitEuler(body, -1800, dt);
    peak = Math.max(peak, body.x);
  });
  for (let frame = 0; frame < fps * 2; frame++) loop.advance(1 / fps);
  return peak;
}

describe('jump peak (v0 600 px/s, g 1800 px/s², semi-implicit Euler)', () => {
  it.each([
    [30, '90.0'],
    [60, '95.0'],
    [144, '97.9'],
  ])('stepping once per frame at %i fps peaks at %s px', (fps, expected) => {
    expect(perFramePeak(fps).toFixed(1)).toBe(expected);
  });

  it.each([30, 60, 144, 240])('fixed 60 Hz steps peak at 95.0 px at %i fps', (fps) => {
    expect(fixedPeak(fps).toFixed(1)).toBe('95.0');
  });
});

describe('60 Hz physics on a 144 Hz display', () => {
  it('runs steps 0,0,1,0,1,0,… with alphas .42 .83 .25 .67 .08 .50 and 5 steps per 12 frames', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const rows: [number, string][] = [];
    for (let i = 0; i < 12; i++) {
      const info = loop.advance(1 / 144);
      rows.push([info.steps, info.alpha.toFixed(2)]);
    }
    expect(rows.slice(0, 6)).toEqual([
      [0, '0.42'],
      [0, '0.83'],
      [1, '0.25'],
      [0, '0.67'],
      [1, '0.08'],
      [0, '0.50'],
    ]);
    expect(rows.reduce((sum, [steps]) => sum + steps, 0)).toBe(5);
  });

  it('every 12 frames run exactly 5 steps, for 100 windows', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    for (let window = 1; window <= 100; window++) {
      for (let i = 0; i < 12; i++) loop.advance(1 / 144);
      expect(loop.tick).toBe(window * 5);
    }
  });

  it('144 frames of x += 300·dt simulate x = 300 and render x = 295 (one step behind)', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    let previous = 0;
    let current = 0;
    let rendered = Number.NaN;
    loop.onFixedUpdate((dt) => {
      previous = current;
      current += 300 * dt;
    });
    loop.onUpdate((_delta, alpha) => {
      rendered = previous + (current - previous) * alpha;
    });
    for (let i = 0; i < 144; i++) loop.advance(1 / 144);
    expect(current).toBeCloseTo(300, 9);
    expect(rendered).toBeCloseTo(295, 9);
  });
});

describe('no drift', () => {
  it.each([30, 60, 144])(
    '120 Hz physics fed 2 s of %i fps frames runs exactly 240 steps',
    (fps) => {
      const loop = new FixedLoop({ tickRate: 120, maxStepsPerFrame: Number.POSITIVE_INFINITY });
      for (let i = 0; i < 2 * fps; i++) loop.advance(1 / fps);
      expect(loop.tick).toBe(240);
    },
  );

  it('naive float accumulation loses a step at 144 fps (why the tolerance exists)', () => {
    let accumulator = 0;
    let steps = 0;
    for (let i = 0; i < 288; i++) {
      accumulator += 1 / 144;
      while (accumulator >= 1 / 120) {
        accumulator -= 1 / 120;
        steps++;
      }
    }
    expect(steps).toBe(239);
  });

  it('one simulated hour at 144 fps runs exactly 216 000 steps with fixedTime === tick * fixedDelta', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    for (let i = 0; i < 144 * 3600; i++) loop.advance(1 / 144);
    expect(loop.tick).toBe(216_000);
    expect(loop.fixedTime).toBe(loop.tick * loop.fixedDelta);
    expect(loop.stats.droppedTime).toBe(0);
  });

  it.each([30, 60, 144])(
    'constant thrust 10 m/s² for 2 s at 120 Hz gives x = 20.083333 m at %i fps',
    (fps) => {
      const loop = new FixedLoop({ tickRate: 120 });
      const body = { x: 0, v: 0 };
      loop.onFixedUpdate((dt) => {
        semiImplicitEuler(body, 10, dt);
      });
      for (let i = 0; i < 2 * fps; i++) loop.advance(1 / fps);
      expect(body.x.toFixed(6)).toBe('20.083333');
    },
  );
});

describe('drag', () => {
  it.each([30, 60, 144])('decay(v, 6, dt) from 100 for 1 s gives 0.2479 at %i fps', (fps) => {
    const loop = new FixedLoop();
    let v = 100;
    loop.onUpdate((dt) => {
      v = decay(v, 6, dt);
    });
    for (let i = 0; i < fps; i++) loop.advance(1 / fps);
    expect(v.toFixed(4)).toBe('0.2479');
  });

  it.each([
    [30, '4.239116'],
    [60, '0.179701'],
    [144, '0.000026'],
  ])('v *= 0.9 per frame at %i fps gives %s (frame-rate dependent)', (fps, expected) => {
    const loop = new FixedLoop();
    let v = 100;
    loop.onUpdate(() => {
      v *= 0.9;
    });
    for (let i = 0; i < fps; i++) loop.advance(1 / fps);
    expect(v.toFixed(6)).toBe(expected);
  });
});
