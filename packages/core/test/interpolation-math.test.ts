import {
  estimateAngularVelocity,
  extrapolate,
  extrapolateRotation,
  lerp,
  SLERP_NLERP_THRESHOLD,
  slerp,
} from '@fixedtick/core/interpolation';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Quaternion (x, y, z, w) of a rotation by `angle` about the unit axis (ax, ay, az). */
function axisAngle(ax: number, ay: number, az: number, angle: number): number[] {
  const s = Math.sin(angle / 2);
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
}

/** Rotation angle between two unit quaternions, in radians (sign-agnostic). */
function angleBetween(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, dot));
}

/** `===`, the comparison teleport detection uses (so `0` and `-0` are the same number). */
function expectExact(actual: number, expected: number): void {
  expect(actual === expected, `${actual} === ${expected}`).toBe(true);
}

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe('lerp endpoint contract', () => {
  it('t = 0 gives a and t = 1 gives b exactly, for any finite a and b', () => {
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        expectExact(lerp(a, b, 0), a);
        expectExact(lerp(a, b, 1), b);
      }),
    );
  });

  it('equal endpoints give that value for every t', () => {
    fc.assert(
      fc.property(finite, unit, (a, t) => {
        expectExact(lerp(a, a, t), a);
      }),
    );
  });

  it.each([
    [0, 10, 0.25, 2.5],
    [0, 10, 0.5, 5],
    [-4, 4, 0.75, 2],
    [0, 10, 1.5, 15],
  ])('lerp(%d, %d, %d) = %d (extrapolates beyond 1)', (a, b, t, expected) => {
    expect(lerp(a, b, t)).toBeCloseTo(expected, 12);
  });
});

describe('slerp endpoint contract', () => {
  const a = axisAngle(0, 1, 0, 0.3);
  const b = axisAngle(0, 1, 0, 1.9);

  it('t = 0 gives a, t = 1 gives b, equal inputs give the input, exactly', () => {
    const out = [0, 0, 0, 0];
    slerp(out, 0, a, 0, b, 0, 0);
    expect(out).toEqual(a);
    slerp(out, 0, a, 0, b, 0, 1);
    expect(out).toEqual(b);
    for (const t of [0.1, 0.5, 0.9]) {
      slerp(out, 0, b, 0, b, 0, t);
      expect(out).toEqual(b);
    }
  });

  it('clamps t to [0, 1]', () => {
    const out = [0, 0, 0, 0];
    slerp(out, 0, a, 0, b, 0, -0.5);
    expect(out).toEqual(a);
    slerp(out, 0, a, 0, b, 0, 1.5);
    expect(out).toEqual(b);
  });

  it('a 90° turn is 45° at t = 0.5 (and 22.5° at t = 0.25)', () => {
    const out = [0, 0, 0, 0];
    slerp(out, 0, [0, 0, 0, 1], 0, axisAngle(0, 0, 1, Math.PI / 2), 0, 0.5);
    for (let k = 0; k < 4; k++) expect(out[k]).toBeCloseTo(axisAngle(0, 0, 1, Math.PI / 4)[k], 14);
    slerp(out, 0, [0, 0, 0, 1], 0, axisAngle(0, 0, 1, Math.PI / 2), 0, 0.25);
    for (let k = 0; k < 4; k++) expect(out[k]).toBeCloseTo(axisAngle(0, 0, 1, Math.PI / 8)[k], 14);
  });

  it('takes the shortest arc when the inputs lie in opposite hemispheres', () => {
    // 10° and 350° about z are 20° apart the short way; -q is the same rotation as q
    const from = axisAngle(0, 0, 1, (10 * Math.PI) / 180);
    const to = axisAngle(0, 0, 1, (-10 * Math.PI) / 180).map((v) => -v);
    const out = [0, 0, 0, 0];
    slerp(out, 0, from, 0, to, 0, 0.5);
    expect(angleBetween(out, [0, 0, 0, 1])).toBeCloseTo(0, 12);
  });

  it('is normalised and moves at constant angular speed (slerp and nlerp ranges)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-4, max: 3, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (angle, t) => {
          const q0 = axisAngle(0.6, 0, 0.8, 0.2);
          const q1 = axisAngle(0.6, 0, 0.8, 0.2 + angle);
          const out = [0, 0, 0, 0];
          slerp(out, 0, q0, 0, q1, 0, t);
          expect(Math.hypot(out[0], out[1], out[2], out[3])).toBeCloseTo(1, 14);
          // nlerp's angle error is at most 1.015e-6 rad where it is used (at the threshold, t ≈ 0.21)
          expect(Math.abs(angleBetween(q0, out) - angle * t)).toBeLessThan(1.02e-6);
        },
      ),
    );
  });

  it('uses nlerp above the threshold of three.js and the reference implementation', () => {
    expect(SLERP_NLERP_THRESHOLD).toBe(0.9995);
  });

  it('reads and writes at offsets, and may write over its input', () => {
    const packed = [9, 9, ...axisAngle(1, 0, 0, 0), ...axisAngle(1, 0, 0, 1)];
    slerp(packed, 2, packed, 2, packed, 6, 0.5);
    const expected = axisAngle(1, 0, 0, 0.5);
    for (let k = 0; k < 4; k++) expect(packed[2 + k]).toBeCloseTo(expected[k], 14);
    expect(packed.slice(0, 2)).toEqual([9, 9]);
  });
});

describe('extrapolation contracts', () => {
  it('extrapolate: zero time or zero velocity gives the position exactly', () => {
    fc.assert(
      fc.property(finite, finite, (p, v) => {
        expectExact(extrapolate(p, v, 0), p);
        expectExact(extrapolate(p, 0, 1.5), p);
      }),
    );
    expect(extrapolate(2, 3, 0.5)).toBe(3.5);
  });

  it('extrapolateRotation: zero time or zero angular velocity gives the rotation exactly', () => {
    const q = axisAngle(0, 1, 0, 0.7);
    const out = [0, 0, 0, 0];
    extrapolateRotation(out, 0, q, 0, 0, 2, 0, 0);
    expect(out).toEqual(q);
    extrapolateRotation(out, 0, q, 0, 0, 0, 0, 0.5);
    expect(out).toEqual(q);
  });

  it('extrapolateRotation of a constant angular velocity gives the continuous rotation', () => {
    const q = axisAngle(0, 1, 0, 0.7);
    const out = [0, 0, 0, 0];
    extrapolateRotation(out, 0, q, 0, 0, 3, 0, 0.25); // 3 rad/s about y for 0.25 s
    const expected = axisAngle(0, 1, 0, 0.7 + 0.75);
    for (let k = 0; k < 4; k++) expect(out[k]).toBeCloseTo(expected[k], 14);
  });

  it('rotates about the world axis: exp(ω t / 2) ⊗ q', () => {
    const q = axisAngle(1, 0, 0, Math.PI / 2); // tipped over about x
    const out = [0, 0, 0, 0];
    extrapolateRotation(out, 0, q, 0, 0, 0, Math.PI, 0.5); // then a quarter turn about world z
    const z = axisAngle(0, 0, 1, Math.PI / 2);
    // z ⊗ q
    const expected = [
      z[3] * q[0] + z[0] * q[3] + z[1] * q[2] - z[2] * q[1],
      z[3] * q[1] - z[0] * q[2] + z[1] * q[3] + z[2] * q[0],
      z[3] * q[2] + z[0] * q[1] - z[1] * q[0] + z[2] * q[3],
      z[3] * q[3] - z[0] * q[0] - z[1] * q[1] - z[2] * q[2],
    ];
    for (let k = 0; k < 4; k++) expect(out[k]).toBeCloseTo(expected[k], 14);
  });

  it('estimateAngularVelocity inverts extrapolateRotation (shortest arc)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        (wx, wy, wz) => {
          const prev = axisAngle(0, 0.6, 0.8, 1.1);
          const curr = [0, 0, 0, 0];
          extrapolateRotation(curr, 0, prev, 0, wx, wy, wz, 1 / 60);
          const w = [0, 0, 0];
          estimateAngularVelocity(w, 0, prev, 0, curr, 0, 1 / 60);
          expect(w[0]).toBeCloseTo(wx, 7);
          expect(w[1]).toBeCloseTo(wy, 7);
          expect(w[2]).toBeCloseTo(wz, 7);
        },
      ),
    );
  });

  it('estimateAngularVelocity of equal rotations is exactly zero', () => {
    const q = axisAngle(0, 1, 0, 0.4);
    const w = [9, 9, 9];
    estimateAngularVelocity(w, 0, q, 0, q, 0, 1 / 60);
    expect(w).toEqual([0, 0, 0]);
  });
});
