/**
 * A ring of tick-stamped pose frames in one buffer, written by one thread and read by another: a
 * physics worker publishes each tick's body poses, the main thread reads the two latest to draw
 * them interpolated. No lock, no allocation per tick, no torn read.
 *
 * **How a frame is published** (a sequence lock per frame): the writer marks the frame's slot as
 * being written (`seq = -1`), writes the tick, the ids, the flags and the rows, stamps the slot
 * with the frame's sequence number, then stores that number as the ring's latest. Every mark is an
 * `Atomics.store`, so the plain writes before it are seen by a reader that loads it.
 *
 * **How a frame is read**: the reader loads the ring's latest sequence number, checks that the
 * slot holds that frame, copies it out, and checks the slot again: if the writer came round the
 * ring to that slot meanwhile (it is `frames` frames ahead), the copy is refused, never half
 * used. With the default four frames the writer must publish three frames more during one copy
 * for that to happen.
 *
 * Sequence numbers count published frames from 1 and are 32-bit: 2^31 − 1 frames, 414 days of
 * 60 Hz ticks, fit in one ring. Over a plain `ArrayBuffer` (no cross-origin isolation) the same
 * layout is filled by the writer and its frames are moved by `postMessage`.
 */

/** Floats of one body's pose in a frame: position, rotation quaternion, linear and angular velocity. */
export const RING_POSE_FLOATS = 13;

/**
 * Frames a ring keeps by default: the two a reader interpolates between, one being written, and
 * one spare so that a writer a frame ahead never waits nor overwrites what is being read.
 */
export const DEFAULT_RING_FRAMES = 4;

/** The ring's header: latest sequence number, capacity, frames (as Int32s). */
const HEADER_INTS = 4;
const LATEST = 0;
const CAPACITY = 1;
const FRAMES = 2;
/** A slot's own header: its sequence number (−1 while written), its body count (as Int32s). */
const SLOT_INTS = 4;
const SLOT_SEQ = 0;
const SLOT_COUNT = 1;

/** `n` rounded up to a multiple of 8 (Float64Array offsets must be). */
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Bytes of one slot of a ring of `capacity` bodies. */
function slotBytes(capacity: number): number {
  return (
    SLOT_INTS * 4 + // header
    8 + // tick
    align8(capacity * 4) + // ids
    align8(capacity) + // flags
    capacity * RING_POSE_FLOATS * 8 // rows
  );
}

/** One frame as a reader keeps it: make it once with {@link PoseRing.frame}, refill it per read. */
export interface PoseFrame {
  /** The tick the poses are of. */
  tick: number;
  /** The frame's sequence number in its ring (1 for the first published). */
  sequence: number;
  /** Bodies in the frame: the first `count` entries of `ids`, `flags` and `rows` hold them. */
  count: number;
  /** The bodies' ids, as the writer chose them. */
  readonly ids: Int32Array;
  /** Per body: the writer's flags (bit 0: teleported at this tick). */
  readonly flags: Uint8Array;
  /** Per body, {@link RING_POSE_FLOATS} floats: x y z, qx qy qz qw, vx vy vz, wx wy wz. */
  readonly rows: Float64Array;
}

/** Flag of a body teleported at the frame's tick: draw it there, do not interpolate to it. */
export const RING_TELEPORTED = 1;

/** Options of {@link PoseRing.create}. */
export interface PoseRingOptions {
  /**
   * Frames kept (at least 3).
   * @defaultValue {@link DEFAULT_RING_FRAMES}
   */
  frames?: number;
  /**
   * Put the ring in a `SharedArrayBuffer` (both threads see it) rather than an `ArrayBuffer`.
   * @defaultValue true where `SharedArrayBuffer` exists (a cross-origin isolated page, Node)
   */
  shared?: boolean;
}

/**
 * A ring of tick-stamped pose frames over one buffer (see the module doc for the protocol). Make
 * it on one side with {@link PoseRing.create}, hand its `buffer` to the other side, and attach
 * there with `new PoseRing(buffer)`. One thread writes, one thread reads.
 *
 * @example
 * ```ts
 * // worker: after each step
 * ring.beginFrame(tick);
 * ring.ids[0] = 7; ring.rows.set(pose, 0); ring.flags[0] = 0;
 * ring.publish(1);
 * // main thread: per frame
 * const latest = PoseRing.frame(ring.capacity);
 * if (ring.readLatest(latest)) draw(latest);
 * ```
 */
export class PoseRing {
  /** The buffer both threads share. */
  readonly buffer: ArrayBufferLike;
  /** Bodies a frame can hold. */
  readonly capacity: number;
  /** Frames kept. */
  readonly frames: number;
  readonly #header: Int32Array;
  readonly #slotHeaders: Int32Array[] = [];
  readonly #ticks: Float64Array[] = [];
  readonly #ids: Int32Array[] = [];
  readonly #flags: Uint8Array[] = [];
  readonly #rows: Float64Array[] = [];
  /** Writer side: the slot being written. */
  #writing = -1;

  /** Bytes a ring of `capacity` bodies and `frames` frames takes. */
  static byteLength(capacity: number, frames = DEFAULT_RING_FRAMES): number {
    return align8(HEADER_INTS * 4) + frames * slotBytes(capacity);
  }

  /** A new ring for `capacity` bodies a frame. */
  static create(capacity: number, options: PoseRingOptions = {}): PoseRing {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 1 << 24) {
      throw new RangeError(
        `fixedtick: PoseRing capacity must be a whole number from 1 to 16777216, got ${capacity}`,
      );
    }
    const frames = options.frames ?? DEFAULT_RING_FRAMES;
    if (!Number.isInteger(frames) || frames < 3 || frames > 64) {
      throw new RangeError(
        `fixedtick: option "frames" must be a whole number from 3 to 64, got ${frames}`,
      );
    }
    const shared = options.shared ?? typeof SharedArrayBuffer === 'function';
    const bytes = PoseRing.byteLength(capacity, frames);
    const buffer = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    const header = new Int32Array(buffer, 0, HEADER_INTS);
    header[CAPACITY] = capacity;
    header[FRAMES] = frames;
    return new PoseRing(buffer);
  }

  /** A frame to read into, for rings of `capacity` bodies. */
  static frame(capacity: number): PoseFrame {
    return {
      tick: 0,
      sequence: 0,
      count: 0,
      ids: new Int32Array(capacity),
      flags: new Uint8Array(capacity),
      rows: new Float64Array(capacity * RING_POSE_FLOATS),
    };
  }

  /** Attaches to a ring made by {@link PoseRing.create} (on this thread or another). */
  constructor(buffer: ArrayBufferLike) {
    const header = new Int32Array(buffer, 0, HEADER_INTS);
    const capacity = header[CAPACITY];
    const frames = header[FRAMES];
    if (
      !(capacity >= 1) ||
      !(frames >= 3) ||
      buffer.byteLength !== PoseRing.byteLength(capacity, frames)
    ) {
      throw new RangeError(
        'fixedtick: this buffer does not hold a PoseRing (made by PoseRing.create)',
      );
    }
    this.buffer = buffer;
    this.capacity = capacity;
    this.frames = frames;
    this.#header = header;
    let offset = align8(HEADER_INTS * 4);
    for (let f = 0; f < frames; f++) {
      this.#slotHeaders.push(new Int32Array(buffer, offset, SLOT_INTS));
      offset += SLOT_INTS * 4;
      this.#ticks.push(new Float64Array(buffer, offset, 1));
      offset += 8;
      this.#ids.push(new Int32Array(buffer, offset, capacity));
      offset += align8(capacity * 4);
      this.#flags.push(new Uint8Array(buffer, offset, capacity));
      offset += align8(capacity);
      this.#rows.push(new Float64Array(buffer, offset, capacity * RING_POSE_FLOATS));
      offset += capacity * RING_POSE_FLOATS * 8;
    }
  }

  /** The sequence number of the latest published frame (0 before the first). */
  get latest(): number {
    return Atomics.load(this.#header, LATEST);
  }

  // ---- writer ---------------------------------------------------------------------------

  /**
   * Starts writing the frame of `tick` into the next slot: fill {@link PoseRing.ids},
   * {@link PoseRing.flags} and {@link PoseRing.rows}, then {@link PoseRing.publish}.
   */
  beginFrame(tick: number): void {
    const slot = Atomics.load(this.#header, LATEST) % this.frames;
    Atomics.store(this.#slotHeaders[slot], SLOT_SEQ, -1);
    this.#ticks[slot][0] = tick;
    this.#writing = slot;
  }

  /** Writer: the ids of the frame being written. */
  get ids(): Int32Array {
    return this.#ids[this.#checkWriting()];
  }

  /** Writer: the flags of the frame being written ({@link RING_TELEPORTED}). */
  get flags(): Uint8Array {
    return this.#flags[this.#checkWriting()];
  }

  /** Writer: the pose rows of the frame being written ({@link RING_POSE_FLOATS} a body). */
  get rows(): Float64Array {
    return this.#rows[this.#checkWriting()];
  }

  /** Publishes the frame begun with {@link PoseRing.beginFrame}, holding its first `count` bodies. */
  publish(count: number): void {
    const slot = this.#checkWriting();
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new RangeError(
        `fixedtick: PoseRing.publish count must be a whole number from 0 to ${this.capacity}, got ${count}`,
      );
    }
    const sequence = Atomics.load(this.#header, LATEST) + 1;
    const slotHeader = this.#slotHeaders[slot];
    slotHeader[SLOT_COUNT] = count;
    Atomics.store(slotHeader, SLOT_SEQ, sequence);
    Atomics.store(this.#header, LATEST, sequence);
    this.#writing = -1;
  }

  // ---- reader ---------------------------------------------------------------------------

  /** Copies the latest published frame into `out`; false if none is published yet. */
  readLatest(out: PoseFrame): boolean {
    return this.read(this.latest, out);
  }

  /**
   * Copies the frame with sequence number `sequence` into `out`. False when that frame is not
   * (or no longer) in the ring, or the writer came round to its slot during the copy: `out` is
   * then left incomplete, and its `sequence` set to 0.
   */
  read(sequence: number, out: PoseFrame): boolean {
    out.sequence = 0;
    if (sequence < 1) return false;
    const slot = (sequence - 1) % this.frames;
    const slotHeader = this.#slotHeaders[slot];
    if (Atomics.load(slotHeader, SLOT_SEQ) !== sequence) return false;
    const count = slotHeader[SLOT_COUNT];
    if (count > out.ids.length) {
      throw new RangeError(
        `fixedtick: PoseRing.read: the frame holds ${count} bodies, the frame given room for ${out.ids.length}`,
      );
    }
    out.tick = this.#ticks[slot][0];
    // copied element by element: `set(subarray(…))` would make three view objects a read
    const ids = this.#ids[slot];
    const flags = this.#flags[slot];
    for (let i = 0; i < count; i++) {
      out.ids[i] = ids[i];
      out.flags[i] = flags[i];
    }
    const rows = this.#rows[slot];
    const floats = count * RING_POSE_FLOATS;
    for (let i = 0; i < floats; i++) out.rows[i] = rows[i];
    if (Atomics.load(slotHeader, SLOT_SEQ) !== sequence) return false;
    out.count = count;
    out.sequence = sequence;
    return true;
  }

  #checkWriting(): number {
    if (this.#writing < 0) throw new Error('fixedtick: PoseRing: call beginFrame(tick) first');
    return this.#writing;
  }
}
