/**
 * The main side's intake of the worker's frames: from the shared ring (read at the start of each
 * frame, every frame published since the last read, in order) or from message packets (taken as
 * they arrive). Each new frame goes to the pose feed (the loop's `PoseStream`) and to `onFrame`
 * listeners. A ring read allocates nothing.
 */
import type { Unsubscribe } from '@fixedtick/core';
import { type PoseFrame, PoseRing } from '@fixedtick/core/tracking';
import { packetFrame } from './frame-packets.ts';
import type { PoseFeed } from './pose-feed.ts';

/** Takes the worker's frames; see the module doc. @internal */
export class FrameIntake<Node extends object> {
  readonly #feed: PoseFeed<Node>;
  /** Replaced, never changed in place, so a frame walks it with no iterator. */
  #listeners: readonly ((frame: Readonly<PoseFrame>) => void)[] = [];
  #ring: PoseRing | undefined;
  #frame: PoseFrame | undefined;
  #sequence = 0;
  #newestTick = 0;

  constructor(feed: PoseFeed<Node>) {
    this.#feed = feed;
  }

  /** The newest tick taken (0 before the first). */
  get newestTick(): number {
    return this.#newestTick;
  }

  /** Calls `listener` with each frame taken. */
  onFrame(listener: (frame: Readonly<PoseFrame>) => void): Unsubscribe {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Reads the ring in `buffer` from now on (what the old ring still held is taken first). */
  attach(buffer: ArrayBufferLike): void {
    this.readRing();
    const ring = new PoseRing(buffer);
    this.#ring = ring;
    this.#frame = PoseRing.frame(ring.capacity);
    this.#sequence = 0;
  }

  /** Takes every frame published since the last read that the ring still holds, in order. */
  readRing(): void {
    const ring = this.#ring;
    const frame = this.#frame;
    if (ring === undefined || frame === undefined) return;
    const latest = ring.latest;
    // the oldest frame the writer cannot be overwriting while it is read
    const first = Math.max(this.#sequence + 1, latest - ring.frames + 2);
    for (let sequence = first; sequence <= latest; sequence++) {
      if (ring.read(sequence, frame)) this.#take(frame);
    }
    this.#sequence = latest;
  }

  /** Takes a message packet's frame (read in place; the caller hands the buffer back). */
  takePacket(buffer: ArrayBuffer): void {
    this.#take(packetFrame(buffer));
  }

  #take(frame: PoseFrame): void {
    // a whole number kept as one (`| 0`: ticks fit 31 bits), not a boxed double read per frame
    const tick = frame.tick | 0;
    if (tick <= this.#newestTick) return;
    this.#newestTick = tick;
    this.#feed.push(frame);
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i](frame);
  }
}
