/**
 * The multiplayer example's network graph, beside the loop's timing graph: per display frame the
 * render delay the client draws remote entities at (blue; the `TickClock`'s interpolation buffer,
 * sized from the measured jitter), the jitter itself (grey), and the size of each correction of
 * the predicted player (orange bars, cm) when the server's state for a tick arrives.
 */

/** Milliseconds at the top of the plot. */
const TOP_MS = 300;
/** Centimetres of correction at the top of the plot. */
const TOP_CM = 30;

/** See the module doc. */
export class NetGraph {
  readonly #canvas: HTMLCanvasElement;
  readonly #delay: Float64Array;
  readonly #jitter: Float64Array;
  readonly #correction: Float64Array;
  #at = 0;

  constructor(canvas: HTMLCanvasElement) {
    this.#canvas = canvas;
    this.#delay = new Float64Array(canvas.width);
    this.#jitter = new Float64Array(canvas.width);
    this.#correction = new Float64Array(canvas.width);
  }

  /** One frame: the render delay and jitter (ms), and the correction made in it (m, 0 if none). */
  sample(delayMs: number, jitterMs: number, correction: number): void {
    const n = this.#delay.length;
    this.#delay[this.#at] = delayMs;
    this.#jitter[this.#at] = jitterMs;
    this.#correction[this.#at] = correction;
    this.#at = (this.#at + 1) % n;
  }

  /** Draws the history, oldest on the left. */
  draw(): void {
    const context = this.#canvas.getContext('2d');
    if (context === null) return;
    const { width, height } = this.#canvas;
    context.fillStyle = '#0d111a';
    context.fillRect(0, 0, width, height);
    context.fillStyle = '#3a4358';
    context.fillRect(0, height * (1 - 100 / TOP_MS), width, 1); // the 100 ms line
    const y = (ms: number) => height * (1 - Math.min(ms, TOP_MS) / TOP_MS);
    for (let x = 0; x < width; x++) {
      const i = (this.#at + x) % width;
      const cm = 100 * this.#correction[i];
      if (cm > 0) {
        context.fillStyle = '#ffb454';
        const h = Math.max(2, (height * Math.min(cm, TOP_CM)) / TOP_CM);
        context.fillRect(x, height - h, 1, h);
      }
      context.fillStyle = '#9aa4b8';
      context.fillRect(x, y(this.#jitter[i]), 1, 1.5);
      context.fillStyle = '#7fb2ff';
      context.fillRect(x, y(this.#delay[i]), 1, 2);
    }
  }
}
