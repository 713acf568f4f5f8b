/**
 * Client-side prediction of the local player, with rewind and replay when the server's state
 * arrives, and a smooth correction of the drawn pose.
 *
 * Why: with the server a round trip away, a player whose own character waits for the server
 * feels every millisecond of it. So the client runs the same fixed-step code as the server, on
 * its own latched input, ahead of the server (at `TickClock.predictTick`). When the server's
 * state for tick `n` arrives, the client restores it and runs again every tick after `n` on the
 * inputs it kept — the server has not seen those yet. If the prediction was right, nothing
 * moves; if not (a collision with another player, an input the server received late), the
 * predicted state jumps to the right one, and the drawn pose eases over to it through
 * {@link Prediction.correction} instead of snapping, unless the error is larger than
 * `snapDistance`.
 *
 * Guarantees:
 * - The input a tick's step sees is built from the events the latch delivered in it, by
 *   {@link TickInputState} — the class the server's `TickInputQueue` fills. A replay rebuilds it
 *   from the acknowledged tick's input state, so for the same events the replayed states are
 *   the server's, bit for bit (docs/multiplayer.md, "Prediction").
 * - Nothing older than the acknowledged tick is kept: history is bounded by `historyTicks`.
 *
 * @example
 * ```ts
 * const prediction = new Prediction(player, { tickRate: 60 });
 * prediction.connect(latch);                        // the latch's events, stamped by us
 * loop.onFixedUpdate(() => room.send('ft:input', prediction.step()));
 * room.onStateChange((s) => prediction.reconcile(s.tick, s.players.get(room.sessionId)));
 * loop.onUpdate((dt) => prediction.update(dt));     // eases `prediction.correction` to 0
 * ```
 */
import type { InputEventKind, InputLatch } from '../entries/input.ts';
import type { Unsubscribe } from '../hook.ts';
import { checkTickRate, optionError } from '../options.ts';
import {
  type InputCommand,
  type TickInput,
  type TickInputEvent,
  TickInputState,
} from './tick-input.ts';

/**
 * The local player's simulation as prediction runs it: the same step the server runs for this
 * player, and a way to take the server's state.
 */
export interface PredictedSimulation<State> {
  /** One fixed step on `input` (the server runs this very code for this player). */
  step(input: TickInput, dt: number, tick: number): void;
  /** Makes the simulation's state `state`, the server's state after some tick (the rewind). */
  restore(state: State): void;
  /**
   * Writes the player's drawn position to `out[0..2]`, for the smooth correction. Without it
   * corrections are not smoothed (`correction` stays 0).
   */
  position?(out: Float64Array): void;
}

/** Options of a {@link Prediction}. */
export interface PredictionOptions {
  /**
   * Ticks per second of the server (and of the client's loop).
   * @defaultValue 60
   */
  tickRate?: number;
  /**
   * Unacknowledged ticks kept for replay: 4 s at 60 Hz. A client further ahead of the server's
   * newest state than this starts over from the next state it gets.
   * @defaultValue 256
   */
  historyTicks?: number;
  /**
   * Time constant (s) of the drawn pose's correction: the error left after `t` seconds is
   * `e^(-t / correctionTime)` of it, about 5 % after three time constants.
   * @defaultValue 0.1
   */
  correctionTime?: number;
  /**
   * A correction larger than this distance is drawn at once (a teleport, a respawn), not eased.
   * @defaultValue Infinity
   */
  snapDistance?: number;
}

/** Counts of a {@link Prediction}, updated in place. */
export interface PredictionStats {
  /** Server states reconciled (rewinds). */
  readonly reconciles: number;
  /** Ticks run again by those rewinds. */
  readonly replayedTicks: number;
  /** Rewinds after which the predicted position differed from before. */
  readonly corrections: number;
  /** Corrections drawn at once (larger than `snapDistance`). */
  readonly snaps: number;
  /** Times prediction started over from a server state (first state, or too far behind). */
  readonly restarts: number;
  /** The last rewind's error: distance between the position before and after it. */
  readonly lastError: number;
}

/** See the module doc. */
export class Prediction<State> {
  readonly #simulation: PredictedSimulation<State>;
  readonly #dt: number;
  readonly #size: number;
  readonly #correctionTime: number;
  readonly #snapDistance: number;
  readonly #history: TickInputEvent[][];
  readonly #historyTick: Float64Array;
  readonly #live = new TickInputState();
  readonly #confirmed = new TickInputState();
  #pending: TickInputEvent[] = [];
  #tick = -1;
  #acked = -1;
  readonly #before = new Float64Array(3);
  readonly #after = new Float64Array(3);
  readonly #correction = new Float64Array(3);
  readonly #stats = {
    reconciles: 0,
    replayedTicks: 0,
    corrections: 0,
    snaps: 0,
    restarts: 0,
    lastError: 0,
  };

  /** @throws RangeError naming the option for a bad option. */
  constructor(simulation: PredictedSimulation<State>, options: PredictionOptions = {}) {
    if (
      simulation === null ||
      typeof simulation !== 'object' ||
      typeof simulation.step !== 'function' ||
      typeof simulation.restore !== 'function'
    ) {
      throw new TypeError('fixedtick: Prediction needs a simulation with step() and restore()');
    }
    this.#simulation = simulation;
    this.#dt = checkTickRate(options.tickRate ?? 60);
    const size = options.historyTicks ?? 256;
    if (!Number.isSafeInteger(size) || size < 1) {
      throw optionError('historyTicks', size, 'a whole number of ticks ≥ 1');
    }
    this.#size = size;
    this.#correctionTime = positiveOption('correctionTime', options.correctionTime ?? 0.1);
    this.#snapDistance = positiveOption('snapDistance', options.snapDistance ?? Infinity);
    this.#history = Array.from({ length: size }, () => []);
    this.#historyTick = new Float64Array(size).fill(-1);
  }

  /**
   * Feeds every event `latch` delivers to the next predicted tick; returns the function that
   * stops it. The latch must belong to the loop whose `fixedUpdate` calls {@link step}.
   */
  connect(latch: InputLatch): Unsubscribe {
    return latch.onInput((_tick, kind, key, x, y) => this.addInput(kind, key, x, y));
  }

  /** One event for the next predicted tick (what {@link connect} calls; the latch's `onInput` shape). */
  addInput(kind: InputEventKind, key: string, x = 0, y = 0): void {
    this.#pending.push(kind === 'move' ? ['move', x, y] : [kind, key]);
  }

  /**
   * Starts (or starts over) from the server's `state` after server tick `tick`: the next
   * {@link step} predicts `tick + 1`. The keys the client holds stay held — the server holds
   * them too once their events arrive — so starting over after falling behind keeps steady
   * input steady (before the first event, nothing is held).
   */
  start(tick: number, state: State): void {
    this.#simulation.restore(state);
    this.#tick = tick;
    this.#acked = tick;
    this.#confirmed.copyFrom(this.#live);
    this.#historyTick.fill(-1);
    this.#correction.fill(0);
    this.#stats.restarts++;
  }

  /**
   * Predicts the next tick with the events received since the last step, keeps them for
   * replays, and returns the command to send to the server (`{ tick, events }`). Call it in
   * `fixedUpdate`, once per step. Before {@link start} it predicts from tick 0.
   */
  step(): InputCommand {
    const tick = ++this.#tick;
    const events = this.#pending;
    const slot = tick % this.#size;
    // The slot's old list is free: its tick is older than anything a replay needs.
    this.#pending = this.#history[slot];
    this.#pending.length = 0;
    this.#history[slot] = events;
    this.#historyTick[slot] = tick;
    const live = this.#live;
    live.beginTick();
    for (const event of events) live.apply(event);
    this.#simulation.step(live, this.#dt, tick);
    return { tick, events };
  }

  /**
   * The server's `state` after server tick `tick` arrived: rewinds to it and replays the ticks
   * predicted since, with their inputs. Returns the ticks replayed, or -1 when `tick` is not
   * newer than the last one reconciled (nothing done). A state for a tick not predicted yet, or
   * older than the history, starts over from it ({@link start}).
   */
  reconcile(tick: number, state: State): number {
    if (!(tick > this.#acked)) return -1;
    if (tick > this.#tick || this.#tick - this.#acked >= this.#size) {
      this.start(tick, state);
      return 0;
    }
    const simulation = this.#simulation;
    const hasPosition = typeof simulation.position === 'function';
    if (hasPosition) simulation.position?.(this.#before);
    // The input state after `tick`, from the acknowledged one: the events are final up to it.
    const confirmed = this.#confirmed;
    for (let t = this.#acked + 1; t <= tick; t++) {
      confirmed.beginTick();
      for (const event of this.#eventsOf(t)) confirmed.apply(event);
    }
    this.#acked = tick;
    simulation.restore(state);
    const live = this.#live;
    live.copyFrom(confirmed);
    for (let t = tick + 1; t <= this.#tick; t++) {
      live.beginTick();
      for (const event of this.#eventsOf(t)) live.apply(event);
      simulation.step(live, this.#dt, t);
    }
    const stats = this.#stats;
    stats.reconciles++;
    stats.replayedTicks += this.#tick - tick;
    if (hasPosition) this.#correct();
    return this.#tick - tick;
  }

  /**
   * Eases {@link correction} towards zero over `seconds` of frame time (call it once per frame).
   */
  update(seconds: number): void {
    if (!(seconds > 0)) return;
    const keep = Math.exp(-seconds / this.#correctionTime);
    for (let k = 0; k < 3; k++) this.#correction[k] *= keep;
  }

  /**
   * Add this to the predicted position when drawing the player: the part of the last
   * corrections not yet eased away (0 after a snap).
   */
  get correction(): Readonly<Float64Array> {
    return this.#correction;
  }

  /** The last tick predicted (-1 before the first). */
  get tick(): number {
    return this.#tick;
  }

  /** The newest server tick reconciled (-1 before the first). */
  get acknowledgedTick(): number {
    return this.#acked;
  }

  /** The input the last step (or replayed step) saw. */
  get input(): TickInput {
    return this.#live;
  }

  /** Running counts; see {@link PredictionStats}. */
  get stats(): PredictionStats {
    return this.#stats;
  }

  #eventsOf(tick: number): readonly TickInputEvent[] {
    const slot = tick % this.#size;
    return this.#historyTick[slot] === tick ? this.#history[slot] : NO_EVENTS;
  }

  #correct(): void {
    const before = this.#before;
    const after = this.#after;
    (this.#simulation.position as (out: Float64Array) => void)(after);
    const c = this.#correction;
    let error = 0;
    for (let k = 0; k < 3; k++) {
      const d = before[k] - after[k];
      error += d * d;
      c[k] += d;
    }
    error = Math.sqrt(error);
    const stats = this.#stats;
    stats.lastError = error;
    if (error === 0) return;
    stats.corrections++;
    if (Math.hypot(c[0], c[1], c[2]) > this.#snapDistance) {
      c.fill(0);
      stats.snaps++;
    }
  }
}

const NO_EVENTS: readonly TickInputEvent[] = [];

function positiveOption(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value > 0)) {
    throw optionError(name, value, 'a number > 0');
  }
  return value;
}
