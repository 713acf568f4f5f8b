/**
 * A Colyseus room whose simulation runs on Fixedtick's fixed tick instead of
 * `setSimulationInterval`.
 *
 * Why: Colyseus runs a room's simulation on a plain `setInterval` with a variable `deltaTime`, so
 * the step length wanders with the event loop and every late wake adds to the drift. Here the
 * room owns a {@link FixedLoop} driven by `nodeDriver` (deadlines on absolute time: no drift),
 * every step is exactly `fixedDelta`, each client's input is delivered to the tick it is stamped
 * for by a `TickInputQueue`, and each state patch carries the server tick it was taken at.
 *
 * The tick contract (docs/multiplayer.md):
 * - Clients send `InputCommand`s (`{ tick, events }`) as {@link INPUT_MESSAGE}; the room
 *   delivers each to its tick before `fixedUpdate` runs; late ones go to the next tick that runs
 *   (counted), duplicates are dropped, commands too far ahead or malformed are refused.
 * - After the frame's steps, every `patchEveryTicks` ticks, the room writes the last tick run to
 *   `state.tick` and broadcasts the patch: the state a client decodes is the state after that
 *   tick. Colyseus's own patch interval is switched off.
 * - {@link PING_MESSAGE} is answered with {@link PONG_MESSAGE} for the clients' round trip.
 * - The loop stops when the room is disposed.
 *
 * @example
 * ```ts
 * class ArenaRoom extends FixedTickRoom<Arena> {
 *   override onCreate() {
 *     this.state = new Arena();
 *     this.startFixedTick({ tickRate: 60 });
 *   }
 *   fixedUpdate(dt: number) {
 *     for (const client of this.clients) stepPlayer(this.player(client), this.input(client), dt);
 *   }
 * }
 * ```
 */
import { type Client, Room } from '@colyseus/core';
import { type Driver, FixedLoop, type FixedLoopOptions } from '@fixedtick/core';
import {
  type TickInput,
  TickInputQueue,
  type TickInputQueueOptions,
  type TickInputQueueStats,
  TickInputState,
} from '@fixedtick/core/net';
import {
  type NodeDriver,
  type NodeDriverOptions,
  type NodeDriverStats,
  nodeDriver,
} from '@fixedtick/core/node';
import type { FixedTickState } from './fixed-tick-state.ts';
import { INPUT_MESSAGE, PING_MESSAGE, PONG_MESSAGE } from './messages.ts';

/** Options of {@link FixedTickRoom.startFixedTick}. */
export interface FixedTickOptions extends Omit<FixedLoopOptions, 'timeScale' | 'captureDeltaTime'> {
  /**
   * Ticks between state patches: 1 sends one per tick (60 Hz by default), 3 one every third
   * (20 Hz, Colyseus's default rate). Patches are sent after a frame's steps, stamped with the
   * last tick run.
   * @defaultValue 1
   */
  patchEveryTicks?: number;
  /**
   * What wakes the loop. By default a `nodeDriver` with {@link nodeDriverOptions}; tests pass
   * a driver of their own, or `'manual'` to call `room.loop.advance()` themselves.
   * @defaultValue `nodeDriver(nodeDriverOptions)`
   */
  driver?: Driver | 'manual';
  /** Options of the default `nodeDriver` (clock and scheduler injection, `spinMs`). */
  nodeDriverOptions?: NodeDriverOptions;
  /** Options of each client's input queue (`maxLeadTicks`, `maxEventsPerCommand`). */
  input?: TickInputQueueOptions;
}

/** One client's input on the server. */
interface ClientInput {
  readonly queue: TickInputQueue;
  readonly state: TickInputState;
}

/**
 * A Colyseus room simulated on a fixed tick; see the module doc. Call
 * {@link FixedTickRoom.startFixedTick} in `onCreate` after setting the state, and write the
 * simulation in {@link FixedTickRoom.fixedUpdate}.
 */
export abstract class FixedTickRoom<
  State extends FixedTickState = FixedTickState,
> extends Room<State> {
  #loop: FixedLoop | undefined;
  #driver: Driver | undefined;
  #nodeDriver: NodeDriver | undefined;
  readonly #inputs = new Map<string, ClientInput>();
  #inputOptions: TickInputQueueOptions = {};
  #patchEvery = 1;
  #lastPatched = -1;

  /**
   * One step of the simulation, with every client's input for `tick` delivered
   * ({@link FixedTickRoom.input}). `dt` is the loop's `fixedDelta`, the same every tick.
   */
  abstract fixedUpdate(dt: number, tick: number): void;

  /**
   * Creates the room's loop and starts its tick (call it once, in `onCreate`, after setting
   * `this.state`). Colyseus's patch interval is switched off: patches follow the tick.
   * @throws RangeError naming the option for a bad option (the loop's own, `patchEveryTicks`).
   */
  startFixedTick(options: FixedTickOptions = {}): FixedLoop {
    if (this.#loop !== undefined) throw new Error('fixedtick: startFixedTick was called twice');
    const { patchEveryTicks = 1, driver, nodeDriverOptions, input, ...loopOptions } = options;
    if (!Number.isSafeInteger(patchEveryTicks) || patchEveryTicks < 1) {
      throw new RangeError(
        `fixedtick: option "patchEveryTicks" must be a whole number ≥ 1, got ${String(patchEveryTicks)}`,
      );
    }
    const loop = new FixedLoop(loopOptions);
    this.#loop = loop;
    this.#patchEvery = patchEveryTicks;
    this.#inputOptions = input ?? {};
    this.patchRate = 0;
    loop.onFixedUpdate((_dt, tick) => this.#deliverInputs(tick), {
      priority: Number.NEGATIVE_INFINITY,
    });
    loop.onFixedUpdate((dt, tick) => this.fixedUpdate(dt, tick));
    loop.onUpdate(() => this.#patch());
    this.onMessage(INPUT_MESSAGE, (client, command: unknown) => {
      this.#inputOf(client.sessionId).queue.receive(command, loop.tick);
    });
    this.onMessage(PING_MESSAGE, (client, clientMs: unknown) => {
      if (typeof clientMs === 'number' && Number.isFinite(clientMs)) {
        client.send(PONG_MESSAGE, [clientMs, loop.tick]);
      }
    });
    this._events.once('dispose', () => this.stopFixedTick());
    if (driver === undefined) {
      this.#nodeDriver = nodeDriver(nodeDriverOptions);
      this.#driver = this.#nodeDriver;
    } else if (driver !== 'manual') {
      this.#driver = driver;
    }
    if (this.#driver !== undefined) loop.start(this.#driver);
    return loop;
  }

  /** Stops the tick (called when the room is disposed). */
  stopFixedTick(): void {
    this.#loop?.stop();
  }

  /**
   * The room's loop.
   * @throws Error before {@link FixedTickRoom.startFixedTick} (there is no loop yet).
   */
  get loop(): FixedLoop {
    if (this.#loop === undefined) {
      throw new Error('fixedtick: the room has no loop yet; call startFixedTick in onCreate');
    }
    return this.#loop;
  }

  /** The driver waking the loop (undefined with `driver: 'manual'`). */
  get driver(): Driver | undefined {
    return this.#driver;
  }

  /**
   * The default `nodeDriver`'s timing statistics (`lateTicks`, `worstLatenessMs`, …): how
   * late this room's ticks wake, the first sign of a process running too many rooms. Undefined
   * with a driver of your own.
   */
  get tickStats(): NodeDriverStats | undefined {
    return this.#nodeDriver?.stats;
  }

  /**
   * A client's input for the tick running now: what its latch delivered in the tick it
   * predicted with the same number. A client that sent nothing yet holds no key.
   */
  input(client: Client | string): TickInput {
    return this.#inputOf(typeof client === 'string' ? client : client.sessionId).state;
  }

  /** A client's input counts: received, late, duplicates, early, invalid, deferred. */
  inputStats(client: Client | string): TickInputQueueStats {
    return this.#inputOf(typeof client === 'string' ? client : client.sessionId).queue.stats;
  }

  #inputOf(sessionId: string): ClientInput {
    let input = this.#inputs.get(sessionId);
    if (input === undefined) {
      input = { queue: new TickInputQueue(this.#inputOptions), state: new TickInputState() };
      this.#inputs.set(sessionId, input);
    }
    return input;
  }

  #deliverInputs(tick: number): void {
    const clients = this.clients;
    for (let i = 0; i < clients.length; i++) {
      const input = this.#inputOf(clients[i].sessionId);
      input.queue.deliver(tick, input.state);
    }
    // Forget the clients that left (their queues are not delivered any more).
    if (this.#inputs.size > clients.length) {
      for (const sessionId of this.#inputs.keys()) {
        if (clients.getById(sessionId) === undefined) this.#inputs.delete(sessionId);
      }
    }
  }

  #patch(): void {
    const last = (this.#loop as FixedLoop).tick - 1;
    if (last < 0 || last - this.#lastPatched < this.#patchEvery) {
      this.clock.tick();
      return;
    }
    this.#lastPatched = last;
    this.state.tick = last;
    this.broadcastPatch();
  }
}
