/**
 * The main thread's latched input as the worker's step code sees it: the same answers as
 * `InputLatch`'s simulation queries (`pressed`, `released`, `held`, `pointerX`, `pointerY`), built
 * from the events the latch delivered to each tick, which travel with that tick's step command.
 * So step code written against these five members runs unchanged in either mode, and a replay
 * reproduces the same ticks in both.
 */
import { INPUT_MOVE, INPUT_PRESS, type InputEvents } from './protocol.ts';

/** What step code reads of a tick's input: `InputLatch`'s simulation queries. */
export interface TickInput {
  /** True in the one tick a press of `key` was delivered to. */
  pressed(key: string): boolean;
  /** True in the one tick a release of `key` was delivered to. */
  released(key: string): boolean;
  /** True while `key` is down as far as the simulation knows (from its `pressed` tick on). */
  held(key: string): boolean;
  /** Pointer x as the simulation sees it. */
  readonly pointerX: number;
  /** Pointer y as the simulation sees it. */
  readonly pointerY: number;
}

/** Per key: the tick of its last press and release, and whether it is down. */
interface KeyState {
  pressTick: number;
  releaseTick: number;
  held: boolean;
}

/** The worker's {@link TickInput}, fed one tick at a time. @internal */
export class WorkerInput implements TickInput {
  readonly #keys = new Map<string, KeyState>();
  #tick = 0;
  #x = 0;
  #y = 0;

  /** Takes tick `tick`'s events (`null`: none arrived for it). */
  advance(tick: number, events: InputEvents | null): void {
    this.#tick = tick;
    if (events === null) return;
    for (let i = 0; i + 3 < events.length; i += 4) {
      const kind = events[i];
      if (kind === INPUT_MOVE) {
        this.#x = events[i + 2] as number;
        this.#y = events[i + 3] as number;
        continue;
      }
      const key = events[i + 1] as string;
      let state = this.#keys.get(key);
      if (state === undefined) {
        state = { pressTick: -1, releaseTick: -1, held: false };
        this.#keys.set(key, state);
      }
      if (kind === INPUT_PRESS) {
        state.pressTick = tick;
        state.held = true;
      } else {
        state.releaseTick = tick;
        state.held = false;
      }
    }
  }

  pressed(key: string): boolean {
    return this.#keys.get(key)?.pressTick === this.#tick;
  }

  released(key: string): boolean {
    return this.#keys.get(key)?.releaseTick === this.#tick;
  }

  held(key: string): boolean {
    return this.#keys.get(key)?.held === true;
  }

  get pointerX(): number {
    return this.#x;
  }

  get pointerY(): number {
    return this.#y;
  }
}
