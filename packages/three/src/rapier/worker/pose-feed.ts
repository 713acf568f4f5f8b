/**
 * Hands the worker's frames to the loop's `PoseStream`: a frame's rows carry position, rotation
 * and velocities (13 floats, as Rapier gives them), the stream's pose rows position, rotation and
 * scale (10): the scale of each bound node is the one it had when bound, filled in again only
 * when the body at a row changes. The ids' view is remade only when the body count changes, and
 * the teleported ids' only in a frame that has any, so a steady frame allocates nothing.
 */
import { POSE_STRIDE } from '@fixedtick/core/interpolation';
import {
  type PoseFrame,
  type PoseStream,
  RING_POSE_FLOATS,
  RING_TELEPORTED,
} from '@fixedtick/core/tracking';

/** Where an id is drawn, and with which scale. @internal */
export interface FeedBinding<Node> {
  readonly node: Node;
  /** The instance index, or -1 for the node itself. */
  readonly index: number;
  readonly scale: readonly [number, number, number];
}

/** Feeds frames to a stream; see the module doc. @internal */
export class PoseFeed<Node extends object> {
  readonly stream: PoseStream<Node>;
  /** Each bound id's node, and its scale as it was when bound. */
  readonly #bindings = new Map<number, FeedBinding<Node>>();
  #rows = new Float64Array(0);
  /** The id whose scale each row of `#rows` holds (NaN: none yet). */
  #rowIds = new Float64Array(0);
  #ids: Int32Array = new Int32Array(0);
  #teleported = new Int32Array(0);

  constructor(stream: PoseStream<Node>) {
    this.stream = stream;
  }

  /** Draws `id` into `binding.node` from now on (the stream's binding is made here). */
  bind(id: number, binding: FeedBinding<Node>): void {
    this.stream.bind(id, binding.node, binding.index);
    this.#bindings.set(id, binding);
    this.#rowIds.fill(Number.NaN);
  }

  /** Stops drawing `id`; its binding, or `undefined` if it was not bound. */
  unbind(id: number): FeedBinding<Node> | undefined {
    const binding = this.#bindings.get(id);
    this.#bindings.delete(id);
    this.stream.unbind(id);
    return binding;
  }

  /** Pushes `frame` into the stream. */
  push(frame: PoseFrame): void {
    const count = frame.count;
    this.#fit(frame.ids.length);
    const rows = this.#rows;
    const rowIds = this.#rowIds;
    const from = frame.rows;
    let teleports = 0;
    for (let i = 0; i < count; i++) {
      const id = frame.ids[i];
      const to = i * POSE_STRIDE;
      const at = i * RING_POSE_FLOATS;
      for (let k = 0; k < 7; k++) rows[to + k] = from[at + k];
      if (rowIds[i] !== id) {
        const scale = this.#bindings.get(id)?.scale;
        rows[to + 7] = scale === undefined ? 1 : scale[0];
        rows[to + 8] = scale === undefined ? 1 : scale[1];
        rows[to + 9] = scale === undefined ? 1 : scale[2];
        rowIds[i] = id;
      }
      if ((frame.flags[i] & RING_TELEPORTED) !== 0) this.#teleported[teleports++] = id;
    }
    if (this.#ids.buffer !== frame.ids.buffer || this.#ids.length !== count) {
      this.#ids = frame.ids.subarray(0, count);
    }
    this.stream.push(
      frame.tick,
      this.#ids,
      rows,
      teleports === 0 ? undefined : this.#teleported.subarray(0, teleports),
    );
  }

  /** Room for frames of `capacity` bodies. */
  #fit(capacity: number): void {
    if (this.#teleported.length >= capacity) return;
    this.#rows = new Float64Array(capacity * POSE_STRIDE);
    this.#rowIds = new Float64Array(capacity).fill(Number.NaN);
    this.#teleported = new Int32Array(capacity);
  }
}
