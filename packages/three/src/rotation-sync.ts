/**
 * Writing an `Object3D`'s rotation without paying twice for it.
 *
 * three keeps `object.rotation` (Euler) in sync with `object.quaternion` through a change
 * callback: every `quaternion.set()` builds a full rotation matrix and runs `asin`/`atan2` on it.
 * The adapter writes each tracked quaternion once or twice per frame, so for 10 000 objects that
 * callback is most of its cost. These helpers write both fields directly instead, computing the
 * Euler angles with three's own formulas (the same matrix entries as
 * `Matrix4.makeRotationFromQuaternion`, the same branches as `Euler.setFromRotationMatrix`), so
 * the result is bit-identical to what the callback would have produced — a test guards that for
 * every rotation order.
 *
 * The one thing skipped is the callback call itself: code that replaces an `Object3D`'s
 * `quaternion._onChange` callback (a private three.js API) is not notified of the adapter's
 * writes.
 */
import type { NumericArray } from '@fixedtick/core';
import type { Euler, Quaternion } from 'three';

/** The fields behind three's `Quaternion` accessors. */
interface QuaternionFields {
  _x: number;
  _y: number;
  _z: number;
  _w: number;
}

/** The fields behind three's `Euler` accessors. */
interface EulerFields {
  _x: number;
  _y: number;
  _z: number;
  _order: string;
}

/** Above this `|sin|` of the middle angle three treats the rotation as gimbal-locked. */
const GIMBAL = 0.9999999;

function clamp(value: number): number {
  return Math.max(-1, Math.min(1, value));
}

/**
 * Sets `quaternion` to `from[at..at+3]` (`x y z w`) and `rotation` to the Euler angles three would
 * derive from it for `rotation.order`, without calling either change callback. Values are read
 * from an array rather than passed as arguments: V8 boxes doubles passed to a function it does
 * not inline, and this one is too large to inline.
 */
export function setRotation(
  quaternion: Quaternion,
  rotation: Euler,
  from: NumericArray,
  at: number,
): void {
  const q = quaternion as unknown as QuaternionFields;
  const e = rotation as unknown as EulerFields;
  const x = from[at];
  const y = from[at + 1];
  const z = from[at + 2];
  const w = from[at + 3];
  q._x = x;
  q._y = y;
  q._z = z;
  q._w = w;
  // Matrix4.compose with unit scale (multiplying by 1 is exact, so it is left out)
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  const m13 = xz + wy;
  if (e._order === 'XYZ') {
    // three's default order first, with only the entries it reads
    e._y = Math.asin(clamp(m13));
    if (Math.abs(m13) < GIMBAL) {
      e._x = Math.atan2(-(yz - wx), 1 - (xx + yy));
      e._z = Math.atan2(-(xy - wz), 1 - (yy + zz));
    } else {
      e._x = Math.atan2(yz + wx, 1 - (xx + zz));
      e._z = 0;
    }
    return;
  }
  otherOrder(quaternion, e, from, at);
}

/**
 * The five other rotation orders, out of line so that the XYZ path above stays small enough for
 * V8 to inline; it recomputes the products rather than take them as (boxed) arguments.
 */
function otherOrder(quaternion: Quaternion, e: EulerFields, from: NumericArray, at: number): void {
  const x = from[at];
  const y = from[at + 1];
  const z = from[at + 2];
  const w = from[at + 3];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  const m13 = xz + wy;
  const m11 = 1 - (yy + zz);
  const m12 = xy - wz;
  const m21 = xy + wz;
  const m22 = 1 - (xx + zz);
  const m23 = yz - wx;
  const m31 = xz - wy;
  const m32 = yz + wx;
  const m33 = 1 - (xx + yy);
  switch (e._order) {
    case 'YXZ':
      e._x = Math.asin(-clamp(m23));
      if (Math.abs(m23) < GIMBAL) {
        e._y = Math.atan2(m13, m33);
        e._z = Math.atan2(m21, m22);
      } else {
        e._y = Math.atan2(-m31, m11);
        e._z = 0;
      }
      return;
    case 'ZXY':
      e._x = Math.asin(clamp(m32));
      if (Math.abs(m32) < GIMBAL) {
        e._y = Math.atan2(-m31, m33);
        e._z = Math.atan2(-m12, m22);
      } else {
        e._y = 0;
        e._z = Math.atan2(m21, m11);
      }
      return;
    case 'ZYX':
      e._y = Math.asin(-clamp(m31));
      if (Math.abs(m31) < GIMBAL) {
        e._x = Math.atan2(m32, m33);
        e._z = Math.atan2(m21, m11);
      } else {
        e._x = 0;
        e._z = Math.atan2(-m12, m22);
      }
      return;
    case 'YZX':
      e._z = Math.asin(clamp(m21));
      if (Math.abs(m21) < GIMBAL) {
        e._x = Math.atan2(-m23, m22);
        e._y = Math.atan2(-m31, m11);
      } else {
        e._x = 0;
        e._y = Math.atan2(m13, m33);
      }
      return;
    case 'XZY':
      e._z = Math.asin(-clamp(m12));
      if (Math.abs(m12) < GIMBAL) {
        e._x = Math.atan2(m32, m22);
        e._y = Math.atan2(m13, m11);
      } else {
        e._x = Math.atan2(-m23, m33);
        e._y = 0;
      }
      return;
    default:
      // an order this file does not know: let three do it
      quaternion.set(x, y, z, w);
  }
}

/**
 * Sets `quaternion` to `from[at..at+3]` and `rotation` to `euler[eulerAt..eulerAt+2]`, a pair
 * three itself produced earlier (captured after a step), without calling either change callback:
 * restoring the simulation's own Euler angles keeps code that integrates `rotation.y += w * dt`
 * exact, even past ±90°.
 */
export function restoreRotation(
  quaternion: Quaternion,
  rotation: Euler,
  from: NumericArray,
  at: number,
  euler: NumericArray,
  eulerAt: number,
): void {
  const q = quaternion as unknown as QuaternionFields;
  const e = rotation as unknown as EulerFields;
  q._x = from[at];
  q._y = from[at + 1];
  q._z = from[at + 2];
  q._w = from[at + 3];
  e._x = euler[eulerAt];
  e._y = euler[eulerAt + 1];
  e._z = euler[eulerAt + 2];
}
