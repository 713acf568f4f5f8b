import fc from 'fast-check';
import { Euler, type EulerOrder, Object3D, Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import { restoreRotation, setRotation } from '../src/rotation-sync.ts';

const ORDERS: EulerOrder[] = ['XYZ', 'YXZ', 'ZXY', 'ZYX', 'YZX', 'XZY'];

const unitQuaternion = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => new Quaternion(x, y, z, w).normalize().toArray() as number[]);

describe('setRotation', () => {
  it.each(ORDERS)(
    'gives bit for bit what quaternion.set() gives, order %s (XYZ computed, others delegated)',
    (order) => {
      fc.assert(
        fc.property(unitQuaternion, ([x, y, z, w]) => {
          const viaThree = new Object3D();
          const viaSync = new Object3D();
          viaThree.rotation.order = order;
          viaSync.rotation.order = order;
          viaThree.quaternion.set(x, y, z, w);
          setRotation(viaSync.quaternion, viaSync.rotation, [x, y, z, w], 0);
          expect(viaSync.quaternion.toArray()).toEqual(viaThree.quaternion.toArray());
          expect(viaSync.rotation.toArray()).toEqual(viaThree.rotation.toArray());
        }),
        { numRuns: 300 },
      );
    },
  );

  it('matches three bit for bit (signed zeros and ±π included) for rotations about one axis', () => {
    const angle = fc.double({ min: -10, max: 10, noNaN: true });
    const axis = fc.constantFrom(0, 1, 2);
    const zero = fc.constantFrom(0, -0);
    fc.assert(
      fc.property(angle, axis, zero, zero, zero, (a, k, zx, zy, zz) => {
        const q = [zx, zy, zz, Math.cos(a / 2)];
        q[k] = Math.sin(a / 2);
        const viaThree = new Object3D();
        const viaSync = new Object3D();
        viaThree.quaternion.set(q[0], q[1], q[2], q[3]);
        setRotation(viaSync.quaternion, viaSync.rotation, q, 0);
        const expected = viaThree.rotation.toArray();
        const actual = viaSync.rotation.toArray();
        for (let i = 0; i < 3; i++) expect(Object.is(actual[i], expected[i])).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it.each(ORDERS)('matches three at gimbal lock too, order %s', (order) => {
    for (const angles of [
      [Math.PI / 2, 0, 0],
      [0, Math.PI / 2, 0],
      [0, 0, Math.PI / 2],
      [0.3, -Math.PI / 2, 0.2],
      [Math.PI, Math.PI / 2, -Math.PI],
    ]) {
      const q = new Quaternion().setFromEuler(new Euler(angles[0], angles[1], angles[2], order));
      const viaThree = new Object3D();
      const viaSync = new Object3D();
      viaThree.rotation.order = order;
      viaSync.rotation.order = order;
      viaThree.quaternion.copy(q);
      setRotation(viaSync.quaternion, viaSync.rotation, [9, q.x, q.y, q.z, q.w], 1);
      expect(viaSync.rotation.toArray()).toEqual(viaThree.rotation.toArray());
    }
  });
});

describe('restoreRotation', () => {
  it('puts back a quaternion and the Euler angles three produced for it, without recomputing', () => {
    const object = new Object3D();
    object.rotation.y = 2.5; // past 90°: quaternion → Euler would give (π, π - 2.5, π)
    const q = object.quaternion.toArray();
    const e = object.rotation.toArray();
    object.quaternion.set(0, 0, 0, 1);
    restoreRotation(object.quaternion, object.rotation, q, 0, [0, 2.5, 0], 0);
    expect(object.quaternion.toArray()).toEqual(q);
    expect(object.rotation.toArray()).toEqual(e);
    // the pair is still live: a write to one updates the other
    object.rotation.y = 1;
    expect(object.quaternion.y).toBeCloseTo(Math.sin(0.5), 15);
  });
});
