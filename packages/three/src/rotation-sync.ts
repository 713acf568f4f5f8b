/**
 * Writing an `Object3D`'s rotation without paying twice for it.
 *
 * three keeps `object.rotation` (Euler) in sync with `object.quaternion` through a change
 * callback: every `quaternion.set()` builds a full rotation matrix and runs `asin`/`atan2` on it.
 * The adapter writes each tracked quaternion once or twice per frame, so for 10 000 objects that
 * callback is most of its cost. For three's default Euler order (XYZ) these helpers write both
 * fields directly instead, computing the angles with three's own formulas (the same matrix
 * entries as `Matrix4.makeRotationFromQuaternion`, the same branches as
 * `Euler.setFromRotationMatrix`), so the result is bit-identical to what the callback would have
 * produced — a test guards that; other orders go through `quaternion.set()`.
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

/** Above this `|sin|` of the middle angle three treats the rotation as gimbal-locked (XYZ). */
const GIMBAL = 0.9999999;

/**
 * `Math.max(-1, Math.min(1, value))` (three's `clamp`), the same for every input, NaN and −0
 * included, in branches: the calls cost this per-body-per-frame path more (docs/performance.md,
 * "The tracker").
 */
function clamp(value: number): number {
  if (value > 1) return 1;
  if (value < -1) return -1;
  return value;
}

/**
 * `Math.atan2(n, d)`, exactly, without the library call when `n` is ±0 — the usual case for a
 * rotation about one axis (a character turning on flat ground): there `atan2` is ±0 for `d > 0`
 * and ±π for `d < 0`, the sign of `n` (ECMAScript `Math.atan2`, cases +0/−0).
 */
function atan2(n: number, d: number): number {
  if (n === 0) {
    if (d > 0) return n;
    if (d < 0) return 1 / n > 0 ? Math.PI : -Math.PI;
  }
  return Math.atan2(n, d);
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
      e._x = atan2(-(yz - wx), 1 - (xx + yy));
      e._z = atan2(-(xy - wz), 1 - (yy + zz));
    } else {
      // gimbal lock is rare: V8 leaves a helper call here out of line, and the double it
      // returns is boxed (a heap number per call); `Math.atan2` is what `atan2` gives anyway
      e._x = Math.atan2(yz + wx, 1 - (xx + zz));
      e._z = 0;
    }
    return;
  }
  // the other orders are rare: three's own path (a full rotation-matrix rebuild) does them
  quaternion.set(x, y, z, w);
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
