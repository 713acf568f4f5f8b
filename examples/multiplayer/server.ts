/**
 * The multiplayer example's game server: a Colyseus 0.16 room on Fixedtick's fixed tick
 * (`FixedTickRoom`), attached to the examples' own HTTP server (examples/serve.ts), so
 * `npm start` and the end-to-end tests serve the page and its server on one loopback port. The
 * room steps every player on the input stamped for the tick, pushes the crates, and sends a patch
 * stamped with the tick after every tick.
 */
import type { Server as HttpServer } from 'node:http';
import { matchMaker, Server } from '@colyseus/core';
import { defineTypes, MapSchema, Schema } from '@colyseus/schema';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { FixedTickRoom, FixedTickState } from '@fixedtick/colyseus';
import {
  type CrateState,
  crateLayout,
  type PlayerState,
  spawnPoint,
  stepCrates,
  stepPlayer,
  TICK_RATE,
} from './arena.ts';

/** A player on the wire: float64, so a predicting client rewinds to the server's exact numbers. */
class PlayerSchema extends Schema {
  declare x: number;
  declare z: number;
  declare hx: number;
  declare hz: number;
  declare color: number;
}
defineTypes(PlayerSchema, {
  x: 'float64',
  z: 'float64',
  hx: 'float64',
  hz: 'float64',
  color: 'uint8',
});

/** A crate on the wire: float32 is enough for what clients only draw. */
class CrateSchema extends Schema {
  declare x: number;
  declare z: number;
  declare yaw: number;
}
defineTypes(CrateSchema, { x: 'float32', z: 'float32', yaw: 'float32' });

/** The arena's state: the stamped tick, the players by session id, the crates. */
class ArenaState extends FixedTickState {
  declare players: MapSchema<PlayerSchema>;
  declare crates: MapSchema<CrateSchema>;

  constructor() {
    super();
    this.players = new MapSchema<PlayerSchema>();
    this.crates = new MapSchema<CrateSchema>();
  }
}
defineTypes(ArenaState, { players: { map: PlayerSchema }, crates: { map: CrateSchema } });

/** The arena room: players push crates around; simulated on the fixed tick. */
export class ArenaRoom extends FixedTickRoom<ArenaState> {
  /** The simulation's own state (the schema is what is sent). */
  readonly #players = new Map<string, PlayerState>();
  readonly #crates: CrateState[] = crateLayout();
  #joined = 0;
  /** The server's clock (ms) when the tick started, for the ticks-per-second check. */
  startedMs = Number.NaN;

  override onCreate(): void {
    this.maxClients = 8;
    this.state = new ArenaState();
    this.#crates.forEach((crate, i) => {
      const schema = new CrateSchema();
      schema.assign({ x: crate.x, z: crate.z, yaw: crate.yaw });
      this.state.crates.set(`c${i}`, schema);
    });
    // never drop a tick, however late the process wakes: the tick count follows the clock
    this.startFixedTick({
      tickRate: TICK_RATE,
      maxDeltaTime: Number.POSITIVE_INFINITY,
      maxStepsPerFrame: Number.POSITIVE_INFINITY,
    });
    this.startedMs = performance.now();
  }

  override onJoin(client: { sessionId: string }): void {
    const player = spawnPoint(this.#joined);
    this.#players.set(client.sessionId, player);
    const schema = new PlayerSchema();
    schema.assign({ ...player, color: this.#joined % 4 });
    this.state.players.set(client.sessionId, schema);
    this.#joined++;
  }

  override onLeave(client: { sessionId: string }): void {
    this.#players.delete(client.sessionId);
    this.state.players.delete(client.sessionId);
  }

  fixedUpdate(dt: number): void {
    for (const client of this.clients) {
      const player = this.#players.get(client.sessionId);
      if (player !== undefined) stepPlayer(player, this.input(client), dt);
    }
    stepCrates(this.#crates, [...this.#players.values()], dt);
    for (const [id, player] of this.#players) {
      const schema = this.state.players.get(id);
      if (schema === undefined) continue;
      schema.x = player.x;
      schema.z = player.z;
      schema.hx = player.hx;
      schema.hz = player.hz;
    }
    this.#crates.forEach((crate, i) => {
      const schema = this.state.crates.get(`c${i}`) as CrateSchema;
      schema.x = crate.x;
      schema.z = crate.z;
      schema.yaw = crate.yaw;
    });
  }
}

/** A game server attached to an HTTP server, and how to stop it. */
export interface GameServer {
  /** Disposes every room and stops accepting players (the HTTP server is its owner's to close). */
  close(): Promise<void>;
}

/**
 * Attaches the arena to `http` (before it listens): Colyseus's matchmaking routes answer
 * `/matchmake/…` and its WebSocket transport the upgrades; every other request goes to the
 * server's own handler, as before.
 */
export function attachGameServer(http: HttpServer): GameServer {
  const game = new Server({
    transport: new WebSocketTransport({ server: http }),
    greet: false,
    gracefullyShutdown: false,
  });
  game.define('arena', ArenaRoom);
  const accepting = matchMaker.accept();
  return {
    async close() {
      await accepting;
      // disposes the rooms (their ticks stop) and closes the transport
      await game.gracefullyShutdown(false);
    },
  };
}
