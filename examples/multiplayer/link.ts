/**
 * A network link's timing, for the multiplayer example's latency / jitter / loss control (in the
 * page) and for the end-to-end test's loopback proxy (test/e2e/multiplayer.test.ts): when does a
 * message sent now arrive?
 *
 * The connection is a WebSocket, so TCP: nothing is lost for good and nothing overtakes. A
 * message takes `latencyMs ± jitterMs` (uniform); with probability `loss` its segment is lost
 * and the sender retransmits it one retransmission timeout later (`retransmitMs`, 200 ms: Linux's
 * minimum RTO, about what a fast retransmit takes at this latency), and because TCP delivers in
 * order, every message sent after it waits behind it (head-of-line blocking). docs/multiplayer.md,
 * "The latency model", says what that does to the render delay.
 */

/** The link's settings. */
export interface LinkSettings {
  /** One-way delay (ms). */
  latencyMs: number;
  /** The delay varies uniformly by this much either way (ms). */
  jitterMs: number;
  /** Share of segments lost and retransmitted (0..1). */
  loss: number;
  /** How much later a lost segment arrives (ms). @defaultValue 200 */
  retransmitMs?: number;
}

/** A direct link: no delay, no loss. */
export const DIRECT: LinkSettings = { latencyMs: 0, jitterMs: 0, loss: 0 };

/** One direction of a link: when each message arrives, and its delivery then, in order. */
export class LinkDirection {
  settings: LinkSettings;
  readonly #random: () => number;
  #lastArrivalMs = Number.NEGATIVE_INFINITY;
  /** Messages on their way, in the order sent (their arrival times never decrease). */
  readonly #queue: { readonly at: number; readonly deliver: () => void }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Messages delayed by a retransmission so far. */
  retransmissions = 0;

  constructor(settings: LinkSettings, random: () => number = Math.random) {
    this.settings = settings;
    this.#random = random;
  }

  /** When a message sent at `nowMs` arrives: never before one sent earlier. */
  arrival(nowMs: number): number {
    const { latencyMs, jitterMs, loss, retransmitMs = 200 } = this.settings;
    let at = nowMs + latencyMs + jitterMs * (2 * this.#random() - 1);
    if (loss > 0 && this.#random() < loss) {
      at += retransmitMs;
      this.retransmissions++;
    }
    at = Math.max(at, this.#lastArrivalMs, nowMs);
    this.#lastArrivalMs = at;
    return at;
  }

  /**
   * Sends a message now: `deliver` runs when it arrives, after every message sent before it.
   * One timer drains the queue in order — a timer per message could fire two messages due at
   * the same moment in either order, and a byte stream must not be reordered.
   */
  send(deliver: () => void): void {
    const now = performance.now();
    const at = this.arrival(now);
    if (at <= now && this.#queue.length === 0) {
      deliver();
      return;
    }
    this.#queue.push({ at, deliver });
    if (this.#timer === undefined) this.#wake();
  }

  /** Drops what is on its way. */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.length = 0;
  }

  #wake(): void {
    const head = this.#queue[0];
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        const now = performance.now();
        let due = 0;
        while (due < this.#queue.length && this.#queue[due].at <= now) due++;
        for (const message of this.#queue.splice(0, Math.max(1, due))) message.deliver();
        if (this.#queue.length > 0) this.#wake();
      },
      Math.max(0, head.at - performance.now()),
    );
  }
}
