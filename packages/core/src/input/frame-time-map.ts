/**
 * The `timing: 'timestamp'` rule of the input latch: which tick an event that carries a time
 * belongs to. See `docs/input-and-determinism.md` ("Input on the tick of its timestamp") for the
 * rule worked out at 30, 60 and 144 fps, and why it is this one.
 *
 * Each frame that `frame()` / `frameAfterGap()` runs straight after another such frame maps the
 * real time between the two timestamps linearly onto the game time the frame advanced — so time
 * scale, the clamps and dropped gaps are all taken into account — and an event goes to the first
 * tick whose simulated span `(k·fixedDelta, (k+1)·fixedDelta]` ends at or after its mapped game
 * time (within the loop's 1 ns step tolerance), never to one that has run. Game time is counted
 * from the frame's first tick with the loop's own accumulator, so the answer does not depend on
 * how large the timestamps are.
 */
import { STEP_TOLERANCE } from '../constants.ts';
import type { FixedLoop } from '../fixed-loop.ts';

// Slots of the map's state (a typed array: a double written to an object field may be boxed,
// one written to a typed array never is).
const PREVIOUS_MS = 0;
const PREVIOUS_FRAME = 1;
const TIMESTAMP_MS = 2;
const FRAME = 3;
const FIRST_TICK = 4;
const FIXED_DELTA = 5;

/** The frame-by-frame map from event times (ms, the frame timestamps' clock) to ticks. */
export class FrameTimeMap {
  readonly #loop: FixedLoop;
  readonly #state = new Float64Array([Number.NaN, -2, Number.NaN, -1, 0, 1]);

  /** @param loop the loop whose frames map event times. */
  constructor(loop: FixedLoop) {
    this.#loop = loop;
  }

  /**
   * Notes the frame the loop is starting (call it from `onFrameStart`, before any step runs):
   * its timestamp, its first tick and its step. Kept this small on purpose — it runs in every
   * frame, inside the loop's own frame code, where V8's inlining budget is shared (run out, it
   * stops inlining the loop's listener calls and boxes their arguments); the mapping itself is
   * worked out only when there are events to map.
   */
  beginFrame(): void {
    const state = this.#state;
    const loop = this.#loop;
    state[PREVIOUS_MS] = state[TIMESTAMP_MS];
    state[PREVIOUS_FRAME] = state[FRAME];
    state[TIMESTAMP_MS] = loop.frameTimestampMs;
    state[FRAME] = loop.frameCount;
    state[FIRST_TICK] = loop.tick;
    state[FIXED_DELTA] = loop.fixedDelta;
  }

  /**
   * Gives every event of `times` (ms) whose entry in `targets` is `NaN` (not mapped yet) the
   * tick it belongs to in the frame being run, or `-Infinity` (deliver at the next tick, the
   * default timing) when the frame cannot be mapped: it came from `advance()` or `stepOnce()`,
   * or it is the first timed frame after one of those, after the origin, or after a timestamp
   * that went back. A time before the previous frame's timestamp counts as that timestamp, one
   * after this frame's as this frame's. It works on the arrays (rather than one time per call)
   * because a double passed through a call V8 does not inline is boxed.
   */
  map(times: Float64Array, targets: Float64Array, length: number): void {
    const state = this.#state;
    const fromMs = state[PREVIOUS_MS];
    const toMs = state[TIMESTAMP_MS];
    const mapped =
      Number.isFinite(toMs) &&
      Number.isFinite(fromMs) &&
      state[PREVIOUS_FRAME] === state[FRAME] - 1 &&
      toMs >= fromMs;
    const info = this.#loop.lastFrame;
    const fixedDelta = state[FIXED_DELTA];
    // This frame's game time, counted from the start of its first tick: it ends at the
    // accumulator plus the steps it runs, and began the game time it advanced earlier.
    const endGame = this.#loop.accumulator + info.steps * fixedDelta;
    const spanGame = info.delta;
    const perMs = toMs > fromMs ? 1 / (toMs - fromMs) : 0;
    // an unmapped frame gives every event -Infinity: the next tick
    const firstTick = mapped ? state[FIRST_TICK] : Number.NEGATIVE_INFINITY;
    for (let i = 0; i < length; i++) {
      if (!Number.isNaN(targets[i])) continue; // mapped already
      const f = Math.min(Math.max((times[i] - fromMs) * perMs, 0), 1);
      const game = endGame - spanGame + f * spanGame;
      // the first tick whose span ends at or after `game` (within the loop's step tolerance)
      const k = Math.ceil((game - STEP_TOLERANCE) / fixedDelta) - 1;
      targets[i] = firstTick + Math.max(k, 0);
    }
  }
}
