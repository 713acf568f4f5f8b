/**
 * How an input latch hands each tick its events: from the queue while live input drives it, or
 * from a replay, tells its `onInput` listeners, and keeps the pointer the simulation sees. The
 * latch's public methods are thin over this; the tick queries first make sure the running tick
 * has had its events (`docs/input-and-determinism.md`).
 */
import type { FixedLoop } from '../fixed-loop.ts';
import { EventQueue, type InputEventKind, KIND_NAMES, PRESS, RELEASE } from './event-queue.ts';
import type { FrameTimeMap } from './frame-time-map.ts';
import { KeyTable, NEVER } from './key-table.ts';
import { type LatchApply, LatchReplay, type LatchSource, type LatchStart } from './latch-replay.ts';

/**
 * Receives each event as it is delivered to the simulation: `(tick, kind, key, x, y)`. `key` is
 * `''` and `x`, `y` are the pointer position for `'move'`; for keys `x` and `y` are 0.
 */
export type InputListener = (
  tick: number,
  kind: InputEventKind,
  key: string,
  x: number,
  y: number,
) => void;

/** `a` and `b` are the same number, −0 and 0 told apart (so a −0 reaches the simulation). */
function same(a: number, b: number): boolean {
  return a === b && (a !== 0 || 1 / a === 1 / b);
}

/** A latch's state and its delivery to ticks (internal to the input module). */
export class TickDelivery {
  readonly keys = new KeyTable();
  readonly queue = new EventQueue();
  readonly replay = new LatchReplay();
  // The pointer as the sources report it, and as the simulation sees it.
  liveX = 0;
  liveY = 0;
  simX = 0;
  simY = 0;
  listeners: readonly InputListener[] = [];
  disposed = false;
  #deliveredTick = NEVER;
  /** The tick whose events are being applied. */
  #applyTick = 0;
  #listenerError: { error: unknown } | undefined;

  /** @param loop the latch's loop; @param timeMap set for timestamp timing. */
  constructor(
    readonly loop: FixedLoop,
    readonly timeMap: FrameTimeMap | undefined,
  ) {}

  /** The frame begins: the frame view is latched, and timed events get the frame's mapping. */
  frameStart(): void {
    this.keys.beginFrame();
    const timeMap = this.timeMap;
    if (timeMap !== undefined) {
      timeMap.beginFrame();
      if (this.queue.unmapped > 0) this.queue.mapPending(timeMap);
    }
  }

  /** The tick queries answer for: the step running now, else the last one that ran. */
  currentTick(): number {
    const loop = this.loop;
    if (loop.inFixedStep) {
      // A listener ahead of ours (same -Infinity priority, subscribed earlier) asks first.
      this.deliver(loop.tick);
      return loop.tick;
    }
    return loop.tick - 1;
  }

  /** The next tick whose events are not delivered yet. */
  nextTick(): number {
    const loop = this.loop;
    return loop.inFixedStep && this.#deliveredTick === loop.tick ? loop.tick + 1 : loop.tick;
  }

  /** Hands tick `tick` its events (once), then rethrows the first listener error. */
  deliver(tick: number): void {
    if (tick === this.#deliveredTick || this.disposed) return;
    this.#deliveredTick = tick;
    this.#applyTick = tick;
    if (this.replay.source !== undefined) {
      this.replay.deliver(tick, this.keys, this.#applyRecorded);
    } else {
      this.#deliverLive(tick);
    }
    const failure = this.#listenerError;
    if (failure !== undefined) {
      this.#listenerError = undefined;
      throw failure.error;
    }
  }

  /** Queues a press or release of key slot `k` (live input). */
  enqueue(kind: number, k: number, timeMs: number | undefined): void {
    this.queue.push(kind, k, timeMs, this.timeMap !== undefined);
    this.keys.queued[k]++;
  }

  /** Key slot `k` went up (live input). */
  release(k: number, timeMs: number | undefined): void {
    this.keys.liveDown[k] = 0;
    this.keys.liveReleased[k] = 1;
    this.enqueue(RELEASE, k, timeMs);
  }

  /** Hands the latch to `source` from the next tick on, or back to live input (`undefined`). */
  drive(source: LatchSource | undefined, start?: LatchStart, onEnd?: () => void): void {
    if (source === undefined) {
      this.replay.end(this.keys);
      return;
    }
    this.queue.clear();
    this.replay.begin(source, this.nextTick(), this.keys, this.loop.tick, start, onEnd);
    if (start !== undefined) {
      this.simX = this.liveX = start.pointerX;
      this.simY = this.liveY = start.pointerY;
    }
  }

  #deliverLive(tick: number): void {
    const queue = this.queue;
    // Timed events that arrived during this frame take its mapping.
    if (queue.unmapped > 0) queue.mapPending(this.timeMap as FrameTimeMap);
    queue.deliver(tick, this.keys, this.#applyLive);
    if (!same(this.liveX, this.simX) || !same(this.liveY, this.simY)) {
      this.simX = this.liveX;
      this.simY = this.liveY;
      this.#emit(tick, 'move', '', this.simX, this.simY);
    }
  }

  readonly #applyLive = (kind: number, k: number): void => this.#apply(kind, k, this.#applyTick);

  #apply(kind: number, k: number, tick: number): void {
    const keys = this.keys;
    keys.busyTick[k] = tick;
    if (kind === PRESS) {
      keys.held[k] = 1;
      keys.pressTick[k] = tick;
    } else {
      keys.held[k] = 0;
      keys.releaseTick[k] = tick;
    }
    this.#emit(tick, KIND_NAMES[kind], keys.names[k], 0, 0);
  }

  readonly #applyRecorded: LatchApply = (kind, key, x, y) => {
    const tick = this.#applyTick;
    if (kind === 'move') {
      this.simX = x;
      this.simY = y;
      this.liveX = x;
      this.liveY = y;
      this.#emit(tick, 'move', '', x, y);
      return;
    }
    const keys = this.keys;
    const k = keys.slotFor(key, this.loop.tick);
    const code = kind === 'press' ? PRESS : RELEASE;
    // The per-frame view follows the replay, so update code reacts as it did when recording.
    keys.liveDown[k] = code === PRESS ? 1 : 0;
    if (code === PRESS) keys.livePressed[k] = 1;
    else keys.liveReleased[k] = 1;
    this.#apply(code, k, tick);
  };

  #emit(tick: number, kind: InputEventKind, key: string, x: number, y: number): void {
    const list = this.listeners;
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](tick, kind, key, x, y);
      } catch (error) {
        if (this.#listenerError === undefined) this.#listenerError = { error };
      }
    }
  }
}
