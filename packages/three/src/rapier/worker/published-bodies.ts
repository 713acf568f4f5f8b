/**
 * The worker's bodies by id, and their publication: after each step every body's pose and
 * velocities, stamped with the tick, go into a frame target (the shared `PoseRing`, or a message
 * packet) — read with Rapier's target getters, so a tick allocates nothing here.
 */
import { RING_POSE_FLOATS, RING_TELEPORTED } from '@fixedtick/core/tracking';
import type { RapierRigidBody, RapierRotation, RapierVector } from '../rapier-types.ts';

/** Writes `v` into `rows[at..at + 2]`. */
function putVector(rows: Float64Array, at: number, v: RapierVector): void {
  rows[at] = v.x;
  rows[at + 1] = v.y;
  rows[at + 2] = v.z;
}

/** Where a tick's frame is written: a `PoseRing` (shared) or a packet writer (messages). */
export interface FrameTarget {
  /** Bodies a frame has room for. */
  readonly capacity: number;
  /** Starts the frame of `tick`. */
  beginFrame(tick: number): void;
  /** The frame's ids. */
  readonly ids: Int32Array;
  /** The frame's flags. */
  readonly flags: Uint8Array;
  /** The frame's rows, `RING_POSE_FLOATS` per body. */
  readonly rows: Float64Array;
  /** Publishes the frame with its first `count` bodies. */
  publish(count: number): void;
}

/** The worker's published bodies, in the order they were added. @internal */
export class PublishedBodies {
  #ids: number[] = [];
  #bodies: RapierRigidBody[] = [];
  /** Per body: 1 if it was teleported since the last frame. */
  #teleported: number[] = [];
  readonly #index = new Map<number, number>();
  readonly #vector: RapierVector = { x: 0, y: 0, z: 0 };
  readonly #rotation: RapierRotation = { x: 0, y: 0, z: 0, w: 1 };

  /** Bodies published. */
  get size(): number {
    return this.#ids.length;
  }

  /** The body published as `id`, or `undefined`. */
  body(id: number): RapierRigidBody | undefined {
    const i = this.#index.get(id);
    return i === undefined ? undefined : this.#bodies[i];
  }

  /** Publishes `body` as `id` from the next frame on (replacing the body `id` had). */
  add(id: number, body: RapierRigidBody): void {
    const i = this.#index.get(id);
    if (i !== undefined) {
      this.#bodies[i] = body;
      this.#teleported[i] = 1;
      return;
    }
    this.#index.set(id, this.#ids.length);
    this.#ids.push(id);
    this.#bodies.push(body);
    this.#teleported.push(1);
  }

  /** Stops publishing `id` (its mesh keeps its last pose); false if it was not published. */
  remove(id: number): boolean {
    const i = this.#index.get(id);
    if (i === undefined) return false;
    const last = this.#ids.length - 1;
    if (i !== last) {
      this.#ids[i] = this.#ids[last];
      this.#bodies[i] = this.#bodies[last];
      this.#teleported[i] = this.#teleported[last];
      this.#index.set(this.#ids[i], i);
    }
    this.#ids.pop();
    this.#bodies.pop();
    this.#teleported.pop();
    this.#index.delete(id);
    return true;
  }

  /** Marks `id` as teleported in the next frame; false if it is not published. */
  markTeleported(id: number): boolean {
    const i = this.#index.get(id);
    if (i === undefined) return false;
    this.#teleported[i] = 1;
    return true;
  }

  /** Writes every body's pose into `target` as the frame of `tick`, and publishes it. */
  publish(target: FrameTarget, tick: number): void {
    target.beginFrame(tick);
    const { ids, flags, rows } = target;
    const v = this.#vector;
    const q = this.#rotation;
    const count = this.#ids.length;
    for (let i = 0; i < count; i++) {
      const body = this.#bodies[i];
      const at = i * RING_POSE_FLOATS;
      ids[i] = this.#ids[i];
      flags[i] = this.#teleported[i] === 1 ? RING_TELEPORTED : 0;
      this.#teleported[i] = 0;
      putVector(rows, at, body.translation(v));
      body.rotation(q);
      rows[at + 3] = q.x;
      rows[at + 4] = q.y;
      rows[at + 5] = q.z;
      rows[at + 6] = q.w;
      putVector(rows, at + 7, body.linvel(v));
      putVector(rows, at + 10, body.angvel(v));
    }
    target.publish(count);
  }
}
