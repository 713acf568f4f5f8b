/**
 * The rooms the Colyseus tests run: an arena of players stepped by the network tests' shared
 * player step (packages/core/test/support/net-player.ts), on a FixedTickRoom.
 */
import { defineTypes, MapSchema, Schema } from '@colyseus/schema';
import { type FixedTickOptions, FixedTickRoom, FixedTickState } from '@fixedtick/colyseus';
import { stepPlayer } from '../../../core/test/support/net-player.ts';

/** One player, every number a float64 so states cross the wire bit for bit. */
export class PlayerSchema extends Schema {
  declare x: number;
  declare y: number;
  declare v: number;
  declare aim: number;
  declare jumps: number;

  constructor() {
    super();
    this.x = 0;
    this.y = 0;
    this.v = 0;
    this.aim = 0;
    this.jumps = 0;
  }
}
defineTypes(PlayerSchema, {
  x: 'float64',
  y: 'float64',
  v: 'float64',
  aim: 'float64',
  jumps: 'uint16',
});

/** The arena's state: the stamped tick and the players by session id. */
export class ArenaState extends FixedTickState {
  declare players: MapSchema<PlayerSchema>;

  constructor() {
    super();
    this.players = new MapSchema<PlayerSchema>();
  }
}
defineTypes(ArenaState, { players: { map: PlayerSchema } });

/**
 * An arena whose tick options come from the server's room definition (never from a client's
 * join options): `server.define('arena', ArenaRoom).filterBy([])` with `ArenaRoom.tickOptions`.
 */
export class ArenaRoom extends FixedTickRoom<ArenaState> {
  /** The options the next created room starts its tick with (set by the test). */
  static tickOptions: FixedTickOptions = { driver: 'manual' };
  /** Each player's state after every tick, by tick (what the server computed). */
  readonly history = new Map<string, Map<number, PlayerSchema>>();

  override onCreate(): void {
    this.state = new ArenaState();
    this.startFixedTick(ArenaRoom.tickOptions);
  }

  override onJoin(client: { sessionId: string }): void {
    this.state.players.set(client.sessionId, new PlayerSchema());
    this.history.set(client.sessionId, new Map());
  }

  override onLeave(client: { sessionId: string }): void {
    this.state.players.delete(client.sessionId);
  }

  fixedUpdate(dt: number, tick: number): void {
    for (const client of this.clients) {
      const player = this.state.players.get(client.sessionId);
      if (player === undefined) continue;
      stepPlayer(player, this.input(client), dt);
      const copy = new PlayerSchema();
      copy.assign({ x: player.x, y: player.y, v: player.v, aim: player.aim, jumps: player.jumps });
      this.history.get(client.sessionId)?.set(tick, copy);
    }
  }
}
