/**
 * A simulated display rate for demos and end-to-end tests.
 *
 * A browser shows as many frames as its screen refreshes (headless Chromium: about 60 a second).
 * To show what a game does on a 30 or 144 Hz display, each browser frame instead feeds the loop
 * a *synthetic* timestamp exactly `1000 / rate` ms after the previous one — through the same
 * `loop.frame(timestampMs)` call a real display's `requestAnimationFrame` uses. The loop cannot
 * tell the difference, so every number it produces is what that display would produce.
 *
 * Pacing: below the browser's own rate, browser frames are skipped so the game runs in real
 * time (30 fps on a 60 Hz screen draws every other frame). Above it, one synthetic frame is fed
 * per browser frame, so the game plays in slow motion (144 fps on a 60 Hz screen: 0.42×).
 * `'real'` feeds the browser's own timestamps.
 */
export type DisplayRate = number | 'real';

/** Real time a browser frame may bring to the pacing credit; longer gaps (a hidden tab) are cut. */
const MAX_GAP_MS = 250;
/** rAF timestamps jitter by a fraction of a millisecond; a frame that early still counts as due. */
const PACING_TOLERANCE_MS = 0.75;

/** Turns browser (rAF) timestamps into the timestamps of a display at the chosen rate. */
export class SimulatedDisplay {
  #rate: DisplayRate;
  #originMs = Number.NaN;
  #index = 0;
  #lastFedMs = Number.NaN;
  #lastRealMs = Number.NaN;
  #lastFedRealMs = Number.NaN;
  #creditMs = 0;
  #realOffsetMs = 0;
  #speed = 1;

  constructor(rate: DisplayRate = 'real') {
    this.#rate = rate;
  }

  /** The simulated rate in Hz, or `'real'`. */
  get rate(): DisplayRate {
    return this.#rate;
  }

  /** Switches rate; the next timestamps continue from the last one fed (no jump in time). */
  set rate(rate: DisplayRate) {
    this.#rate = rate;
    this.#originMs = this.#lastFedMs;
    this.#index = 0;
    this.#creditMs = 0;
    this.#realOffsetMs = Number.isNaN(this.#lastFedMs) ? 0 : Number.NaN;
  }

  /** Game time per real time over the last frames (1 = real time; 0.42 = 144 fps on 60 Hz). */
  get speed(): number {
    return this.#speed;
  }

  /**
   * For one browser frame at `realMs`: the timestamp to feed `loop.frame()`, or `NaN` when this
   * browser frame should not run a loop frame (pacing a rate below the browser's).
   */
  next(realMs: number): number {
    const realStep = Number.isNaN(this.#lastRealMs) ? 0 : realMs - this.#lastRealMs;
    this.#lastRealMs = realMs;
    let fed: number;
    if (this.#rate === 'real') {
      // Switching back to real time: continue from the last timestamp fed, one real frame on
      // (an offset from this frame's own time would feed a 0 s frame).
      if (Number.isNaN(this.#realOffsetMs))
        this.#realOffsetMs = this.#lastFedMs - (realMs - realStep);
      fed = realMs + this.#realOffsetMs;
    } else {
      const period = 1000 / this.#rate;
      if (Number.isNaN(this.#originMs)) {
        // The very first frame: it only sets the loop's time origin.
        this.#originMs = realMs;
        fed = realMs;
      } else {
        this.#creditMs += Math.min(realStep, MAX_GAP_MS);
        if (this.#creditMs < period - PACING_TOLERANCE_MS) return Number.NaN;
        // At most one loop frame per browser frame, and never bank more than one period.
        this.#creditMs = Math.min(this.#creditMs - period, period);
        this.#index++;
        // From the frame index, not summed, so the timestamps carry no rounding drift.
        fed = this.#originMs + (this.#index * 1000) / this.#rate;
      }
    }
    const realSinceFed = realMs - this.#lastFedRealMs;
    if (realSinceFed > 0 && realSinceFed < MAX_GAP_MS) {
      const ratio = (fed - this.#lastFedMs) / realSinceFed;
      this.#speed += (Math.min(ratio, 4) - this.#speed) * 0.05;
    }
    this.#lastFedMs = fed;
    this.#lastFedRealMs = realMs;
    return fed;
  }
}
