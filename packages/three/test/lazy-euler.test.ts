import { ThreeFixedLoop } from '@fixedtick/three';
import fc from 'fast-check';
import { Euler, type EulerOrder, Object3D, Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import { eulerOf } from '../src/lazy-euler.ts';

const ORDERS: EulerOrder[] = ['XYZ', 'YXZ', 'ZXY', 'ZYX', 'YZX', 'XZY'];

const unitQuaternion = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => new Quaternion(x, y, z, w).normalize());

/** The Euler angles three itself derives for `q` in `order`. */
function threeEuler(q: Quaternion, order: EulerOrder): number[] {
  const o = new Object3D();
  o.rotation.order = order;
  o.quaternion.copy(q);
  return [o.rotation.x, o.rotation.y, o.rotation.z];
}

function ours(q: Quaternion, order: EulerOrder): number[] {
  const out = new Float64Array(3);
  eulerOf(q as unknown as Parameters<typeof eulerOf>[0], order, out, 0);
  return [...out];
}

describe('eulerOf: three’s own angles', () => {
  it.each(ORDERS)('bit for bit what three derives, order %s', (order) => {
    fc.assert(
      fc.property(unitQuaternion, (q) => {
        expect(ours(q, order)).toEqual(threeEuler(q, order));
      }),
      { numRuns: 300 },
    );
  });

  it('signed zeros and ±π included, for rotations about one axis', () => {
    const angle = fc.double({ min: -10, max: 10, noNaN: true });
    const axis = fc.constantFrom(0, 1, 2);
    const zero = fc.constantFrom(0, -0);
    fc.assert(
      fc.property(angle, axis, zero, zero, zero, (a, k, zx, zy, zz) => {
        const c: number[] = [zx, zy, zz];
        c[k] = Math.sin(a / 2);
        const q = new Quaternion(c[0], c[1], c[2], Math.cos(a / 2));
        const expected = threeEuler(q, 'XYZ');
        const actual = ours(q, 'XYZ');
        for (let i = 0; i < 3; i++) expect(Object.is(actual[i], expected[i])).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it.each(ORDERS)('at gimbal lock too, order %s', (order) => {
    for (const angles of [
      [Math.PI / 2, 0, 0],
      [0, Math.PI / 2, 0],
      [0, 0, Math.PI / 2],
      [0.3, -Math.PI / 2, 0.2],
      [Math.PI, Math.PI / 2, -Math.PI],
    ]) {
      const q = new Quaternion().setFromEuler(new Euler(angles[0], angles[1], angles[2], order));
      expect(ours(q, order)).toEqual(threeEuler(q, order));
    }
  });
});

describe('a tracked object’s Euler angles, worked out when read', () => {
  /** A tracked object spun about y (and x, for orders to matter) by fixedUpdate. */
  function spinning(order: EulerOrder): { loop: ThreeFixedLoop; body: Object3D } {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const body = new Object3D();
    body.rotation.order = order;
    loop.track(body);
    loop.onFixedUpdate((dt) => {
      body.rotation.y += 2 * dt;
      body.rotation.x += 0.5 * dt;
    });
    for (let i = 0; i < 37; i++) loop.advance(1 / 144);
    return { loop, body };
  }

  it.each(ORDERS)('outside the step rotation describes the drawn quaternion, order %s', (order) => {
    const { body } = spinning(order);
    const drawn = new Euler().setFromQuaternion(body.quaternion, order);
    expect(body.rotation.toArray()).toEqual(drawn.toArray());
    expect([body.rotation.x, body.rotation.y, body.rotation.z]).toEqual([
      drawn.x,
      drawn.y,
      drawn.z,
    ]);
  });

  it('setting one angle outside the step keeps the others the drawn rotation’s, and is a teleport of the rotation', () => {
    const { loop, body } = spinning('XYZ');
    const drawn = new Euler().setFromQuaternion(body.quaternion);
    body.rotation.z = 0.25;
    expect(body.rotation.x).toBe(drawn.x);
    expect(body.rotation.y).toBe(drawn.y);
    const expected = new Quaternion().setFromEuler(new Euler(drawn.x, drawn.y, 0.25));
    expect(body.quaternion.toArray()).toEqual(expected.toArray());
    loop.advance(0);
    expect(loop.getSimulationPose(body).rotation).toEqual(expected.toArray());
  });

  it('untrack gives rotation plain fields again, holding the angles the step left', () => {
    const { loop, body } = spinning('XYZ');
    expect(Object.getOwnPropertyDescriptor(body.rotation, '_y')?.get).toBeTypeOf('function');
    loop.untrack(body);
    const descriptor = Object.getOwnPropertyDescriptor(body.rotation, '_y');
    expect(descriptor?.get).toBeUndefined();
    expect(descriptor?.writable).toBe(true);
    // left at its simulation pose, with the angles fixedUpdate integrated (not re-derived)
    let x = 0;
    let y = 0;
    for (let tick = 0; tick < loop.tick; tick++) {
      y += 2 * (1 / 60);
      x += 0.5 * (1 / 60);
    }
    expect([body.rotation.x, body.rotation.y, body.rotation.z]).toEqual([x, y, 0]);
    const other = new Object3D();
    expect(Object.keys(body.rotation).sort()).toEqual(Object.keys(other.rotation).sort());
  });
});
