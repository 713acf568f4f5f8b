import {
  damp,
  decay,
  explicitEuler,
  integrate,
  rk4,
  semiImplicitEuler,
  verlet,
} from '@fixedtick/core';
import { describe, expect, it } from 'vitest';

describe('integrators', () => {
  it('semiImplicitEuler updates velocity first, then position', () => {
    expect(semiImplicitEuler({ x: 0, v: 10 }, 2, 0.5)).toEqual({ x: 5.5, v: 11 });
  });

  it('explicitEuler updates position first, then velocity', () => {
    expect(explicitEuler({ x: 0, v: 10 }, 2, 0.5)).toEqual({ x: 5, v: 11 });
  });

  it('vector forms update arrays in place, per component', () => {
    const state = { x: new Float64Array([0, 1]), v: new Float64Array([1, 2]) };
    const same = semiImplicitEuler(state, [2, -2], 0.5);
    expect(same).toBe(state);
    expect([...state.x]).toEqual([1, 1.5]);
    expect([...state.v]).toEqual([2, 1]);
    explicitEuler(state, 0, 1);
    expect([...state.x]).toEqual([3, 2.5]);
  });

  it('verlet is exact for constant acceleration (the jump peaks at 100 px at any step)', () => {
    for (const hz of [30, 60, 144]) {
      const state = { x: 0, v: 600 };
      let peak = 0;
      for (let i = 0; i < hz; i++) {
        verlet(state, -1800, 1 / hz);
        peak = Math.max(peak, state.x);
      }
      // x(t) = 600t − 900t², max 100 at t = 1/3 — sampled on the step grid
      const tPeak = Math.round(hz / 3) / hz;
      expect(peak).toBeCloseTo(600 * tPeak - 900 * tPeak * tPeak, 9);
    }
  });

  it('verlet takes a position-dependent force (spring) and conserves energy well', () => {
    const spring = (x: number) => -x;
    const state = { x: 1, v: 0 };
    for (let i = 0; i < 1000; i++) verlet(state, spring, 0.01, i * 0.01);
    expect(state.x).toBeCloseTo(Math.cos(10), 3);
    expect(0.5 * state.v ** 2 + 0.5 * state.x ** 2).toBeCloseTo(0.5, 4);
  });

  it('rk4 follows a spring to 1e-8 over 10 s', () => {
    const state = { x: 1, v: 0 };
    for (let i = 0; i < 1000; i++) rk4(state, (x) => -x, 0.01, i * 0.01);
    expect(state.x).toBeCloseTo(Math.cos(10), 8);
    expect(state.v).toBeCloseTo(-Math.sin(10), 8);
  });

  it('the integrate namespace holds all four', () => {
    expect(Object.keys(integrate).sort()).toEqual([
      'explicitEuler',
      'rk4',
      'semiImplicitEuler',
      'verlet',
    ]);
  });
});

describe('damp and decay', () => {
  it.each([30, 60, 144])('damp reaches the same value after 1 s at %i fps', (fps) => {
    let x = 0;
    for (let i = 0; i < fps; i++) x = damp(x, 10, 4, 1 / fps);
    expect(x).toBeCloseTo(10 - 10 * Math.exp(-4), 9);
  });

  it('damp endpoints: dt = 0 keeps current, dt → ∞ reaches target', () => {
    expect(damp(3, 10, 5, 0)).toBe(3);
    expect(damp(3, 10, 5, 1e6)).toBe(10);
  });

  it('decay is exp(-rate·dt)', () => {
    expect(decay(100, 6, 1)).toBeCloseTo(100 * Math.exp(-6), 12);
    expect(decay(5, 1, 0)).toBe(5);
  });
});
