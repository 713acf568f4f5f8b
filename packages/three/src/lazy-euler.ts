/**
 * Euler angles worked out when they are read.
 *
 * three.js keeps `object.rotation` (Euler angles) in sync with `object.quaternion`: every
 * quaternion write runs a change callback that rebuilds a rotation matrix and takes `asin` and
 * two `atan2` of it. A tracked object's render rotation is written every frame, and those angles
 * are hardly ever read — so for 10 000 objects the callback would be the adapter's largest cost.
 * Instead, the Euler fields `_x _y _z` of a tracked object's `rotation` become accessors over a
 * typed array here: a render write sets the quaternion's fields and marks the angles stale, and
 * they are derived from the quaternion (three's formulas, bit for bit) the first time anything
 * reads them — user code, or three itself. The simulation pose is written back with the very
 * angles the step left, so `rotation.y += w * dt` in `fixedUpdate` stays exact past ±90°.
 *
 * Untracking puts plain fields back. Code that replaces an `Object3D`'s private
 * `quaternion._onChangeCallback` is not notified of the adapter's writes.
 */
import { Euler, type Object3D, Quaternion } from 'three';

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

const FIELDS = ['_x', '_y', '_z'] as const;

/** Above this `|sin|` of the middle angle three treats the rotation as gimbal-locked (XYZ). */
const GIMBAL = 0.9999999;

const scratchEuler = new Euler();
const scratchQuaternion = new Quaternion();

function clamp(value: number): number {
  return Math.max(-1, Math.min(1, value));
}

/**
 * The Euler angles three derives from quaternion `q` for `order` (`Euler.setFromQuaternion`:
 * `makeRotationFromQuaternion`, then `setFromRotationMatrix`), into `out[k..k+2]`. Three's
 * default order XYZ is computed here with only the matrix entries it reads; the others go
 * through three itself.
 */
export function eulerOf(q: QuaternionFields, order: string, out: Float64Array, k: number): void {
  const { _x: x, _y: y, _z: z, _w: w } = q;
  if (order !== 'XYZ') {
    scratchQuaternion.set(x, y, z, w);
    scratchEuler.setFromQuaternion(scratchQuaternion, order as Euler['order'], false);
    out[k] = scratchEuler.x;
    out[k + 1] = scratchEuler.y;
    out[k + 2] = scratchEuler.z;
    return;
  }
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
  out[k + 1] = Math.asin(clamp(m13));
  if (Math.abs(m13) < GIMBAL) {
    out[k] = Math.atan2(-(yz - wx), 1 - (xx + yy));
    out[k + 2] = Math.atan2(-(xy - wz), 1 - (yy + zz));
  } else {
    out[k] = Math.atan2(yz + wx, 1 - (xx + zz));
    out[k + 2] = 0;
  }
}

/** The Euler angles of tracked objects, by slot; see the module doc. */
export class LazyEuler {
  /** By slot × 3: the angles `rotation`'s fields read (valid unless stale). */
  #angles = new Float64Array(64 * 3);
  /** By slot × 3: the angles captured with the simulation pose. */
  #captured = new Float64Array(64 * 3);
  /** By slot: 1 while `#angles` lag behind the quaternion. */
  #stale = new Uint8Array(64);
  /** By slot: the Euler order the captured angles belong to. */
  readonly #orders: string[] = [];
  /** By slot: the object whose `rotation` reads `#angles`. */
  readonly #objects: (Object3D | undefined)[] = [];

  /** Makes `object.rotation`'s fields read slot `slot` of this table (from the angles it has). */
  attach(object: Object3D, slot: number): void {
    if (this.#objects[slot] === object) return;
    this.#fit(slot);
    const euler = object.rotation as unknown as EulerFields;
    const k = slot * 3;
    for (let i = 0; i < 3; i++) {
      this.#angles[k + i] = euler[FIELDS[i]];
      Object.defineProperty(euler, FIELDS[i], {
        configurable: true,
        enumerable: true,
        get: () => {
          if (this.#stale[slot] === 1) this.#sync(object, slot);
          return this.#angles[k + i];
        },
        set: (value: number) => {
          // the other angles must be current before one of them is set on its own
          if (this.#stale[slot] === 1) this.#sync(object, slot);
          this.#angles[k + i] = value;
        },
      });
    }
    this.#stale[slot] = 0;
    this.#objects[slot] = object;
  }

  /** Gives `object.rotation` plain fields again, holding the angles of its quaternion now. */
  detach(object: Object3D, slot: number): void {
    if (this.#objects[slot] !== object) return;
    const euler = object.rotation as unknown as EulerFields;
    if (this.#stale[slot] === 1) this.#sync(object, slot);
    const k = slot * 3;
    for (let i = 0; i < 3; i++) {
      Object.defineProperty(euler, FIELDS[i], {
        configurable: true,
        enumerable: true,
        writable: true,
        value: this.#angles[k + i],
      });
    }
    this.#objects[slot] = undefined;
  }

  /** Sets the quaternion to `rows[at+3..at+6]`; the angles follow when read. */
  setQuaternion(object: Object3D, slot: number, rows: Float64Array, at: number): void {
    const q = object.quaternion as unknown as QuaternionFields;
    q._x = rows[at + 3];
    q._y = rows[at + 4];
    q._z = rows[at + 5];
    q._w = rows[at + 6];
    this.#stale[slot] = 1;
  }

  /**
   * Sets the quaternion to the simulation rotation `rows[at+3..]`, with the angles captured with
   * it (if the Euler order is still the one they were captured in).
   */
  restore(object: Object3D, slot: number, rows: Float64Array, at: number): void {
    if ((object.rotation as unknown as EulerFields)._order !== this.#orders[slot]) {
      this.setQuaternion(object, slot, rows, at);
      return;
    }
    const q = object.quaternion as unknown as QuaternionFields;
    q._x = rows[at + 3];
    q._y = rows[at + 4];
    q._z = rows[at + 5];
    q._w = rows[at + 6];
    const k = slot * 3;
    this.#angles[k] = this.#captured[k];
    this.#angles[k + 1] = this.#captured[k + 1];
    this.#angles[k + 2] = this.#captured[k + 2];
    this.#stale[slot] = 0;
  }

  /** The object's rotation now is its simulation rotation: keep its angles for `restore`. */
  capture(object: Object3D, slot: number): void {
    if (this.#stale[slot] === 1) this.#sync(object, slot);
    const k = slot * 3;
    this.#captured[k] = this.#angles[k];
    this.#captured[k + 1] = this.#angles[k + 1];
    this.#captured[k + 2] = this.#angles[k + 2];
    this.#orders[slot] = (object.rotation as unknown as EulerFields)._order;
  }

  #sync(object: Object3D, slot: number): void {
    this.#stale[slot] = 0;
    const euler = object.rotation as unknown as EulerFields;
    eulerOf(object.quaternion as unknown as QuaternionFields, euler._order, this.#angles, slot * 3);
  }

  #fit(slot: number): void {
    if (slot < this.#stale.length) return;
    const n = Math.max(this.#stale.length * 2, slot + 1);
    const angles = new Float64Array(n * 3);
    angles.set(this.#angles);
    this.#angles = angles;
    const captured = new Float64Array(n * 3);
    captured.set(this.#captured);
    this.#captured = captured;
    const stale = new Uint8Array(n);
    stale.set(this.#stale);
    this.#stale = stale;
  }
}
