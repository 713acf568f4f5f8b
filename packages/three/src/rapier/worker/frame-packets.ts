/**
 * The message transport's frames (no `SharedArrayBuffer`: a page that is not cross-origin
 * isolated). Each tick the worker writes its frame into an `ArrayBuffer` packet laid out like one
 * frame of a `PoseRing` (tick, count, ids, flags, rows) and transfers it to the main thread, which
 * reads it in place and transfers it back to be filled again: two copies of the poses per tick
 * and one message each way, where the shared ring needs no message at all.
 */
import { type PoseFrame, RING_POSE_FLOATS } from '@fixedtick/core/tracking';

/** Bytes before the ids: the tick (a Float64), the body count (an Int32) and padding. */
const HEADER_BYTES = 16;

/** `n` rounded up to a multiple of 8 (Float64Array offsets must be). */
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Bytes of a packet with room for `capacity` bodies. */
export function packetBytes(capacity: number): number {
  return HEADER_BYTES + align8(capacity * 4) + align8(capacity) + capacity * RING_POSE_FLOATS * 8;
}

/** Bodies a packet of `bytes` has room for. */
function packetCapacity(bytes: number): number {
  // packetBytes is increasing in capacity; the exact inverse is found by a short search
  let capacity = Math.floor((bytes - HEADER_BYTES) / (4 + 1 + RING_POSE_FLOATS * 8));
  while (packetBytes(capacity + 1) <= bytes) capacity++;
  while (capacity > 0 && packetBytes(capacity) > bytes) capacity--;
  return capacity;
}

/** Views of a packet as a {@link PoseFrame} (plus its count's and tick's cells). */
export function packetFrame(buffer: ArrayBuffer): PoseFrame & { readonly buffer: ArrayBuffer } {
  const capacity = packetCapacity(buffer.byteLength);
  const header = new Float64Array(buffer, 0, 1);
  const count = new Int32Array(buffer, 8, 1);
  let offset = HEADER_BYTES;
  const ids = new Int32Array(buffer, offset, capacity);
  offset += align8(capacity * 4);
  const flags = new Uint8Array(buffer, offset, capacity);
  offset += align8(capacity);
  const rows = new Float64Array(buffer, offset, capacity * RING_POSE_FLOATS);
  return {
    buffer,
    get tick() {
      return header[0];
    },
    set tick(value: number) {
      header[0] = value;
    },
    sequence: 0,
    get count() {
      return count[0];
    },
    set count(value: number) {
      count[0] = value;
    },
    ids,
    flags,
    rows,
  };
}

/**
 * The worker's frame target over messages: each frame is written into a packet from a pool (a
 * new one only while none has come back yet, or when it needs more room) and transferred to the
 * main thread on `publish`. @internal
 */
export class PacketWriter {
  readonly #send: (buffer: ArrayBuffer) => void;
  readonly #free: ArrayBuffer[] = [];
  #frame: ReturnType<typeof packetFrame> | undefined;
  #capacity: number;

  /** @param send transfers a filled packet to the main thread. */
  constructor(capacity: number, send: (buffer: ArrayBuffer) => void) {
    this.#capacity = capacity;
    this.#send = send;
  }

  /** Bodies a frame has room for; {@link PacketWriter.grow} raises it. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Room for `capacity` bodies from the next frame on. */
  grow(capacity: number): void {
    this.#capacity = capacity;
    this.#free.length = 0;
  }

  /** Takes back a packet the main thread has read. */
  recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength === packetBytes(this.#capacity)) this.#free.push(buffer);
  }

  beginFrame(tick: number): void {
    const buffer = this.#free.pop() ?? new ArrayBuffer(packetBytes(this.#capacity));
    const frame = packetFrame(buffer);
    frame.tick = tick;
    this.#frame = frame;
  }

  get ids(): Int32Array {
    return this.#writing().ids;
  }

  get flags(): Uint8Array {
    return this.#writing().flags;
  }

  get rows(): Float64Array {
    return this.#writing().rows;
  }

  publish(count: number): void {
    const frame = this.#writing();
    frame.count = count;
    this.#frame = undefined;
    this.#send(frame.buffer);
  }

  #writing(): ReturnType<typeof packetFrame> {
    if (this.#frame === undefined) throw new Error('fixedtick: call beginFrame(tick) first');
    return this.#frame;
  }
}
