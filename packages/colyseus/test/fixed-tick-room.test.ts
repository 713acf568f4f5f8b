/**
 * FixedTickRoom on a real Colyseus 0.16 server (WebSocket transport, 127.0.0.1, a random port)
 * with real colyseus.js clients. Time is driven explicitly: the room's loop is advanced by the
 * test (`driver: 'manual'`) or woken by a `nodeDriver` on an injected clock and scheduler; the
 * test only waits for messages to cross the loopback, bounded by `within`.
 */
import { type Server as ColyseusServer, matchMaker, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { INPUT_MESSAGE, PING_MESSAGE, PONG_MESSAGE } from '@fixedtick/colyseus';
import { type InputCommand, Prediction } from '@fixedtick/core/net';
import { Client, type Room } from 'colyseus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PlayerState,
  PredictedPlayer,
  samePlayer,
} from '../../core/test/support/net-player.ts';
import { ArenaRoom, type ArenaState } from './support/arena.ts';
import { FakeTimers } from './support/fake-timers.ts';

let server: ColyseusServer;
let endpoint = '';

beforeAll(async () => {
  // No signal handlers, no banner: the test owns the process and stops the server itself.
  server = new Server({
    transport: new WebSocketTransport(),
    greet: false,
    gracefullyShutdown: false,
  });
  server.define('arena', ArenaRoom);
  await server.listen(0, '127.0.0.1');
  const address = (
    server.transport as unknown as { server: { address(): { address: string; port: number } } }
  ).server.address();
  expect(address.address).toBe('127.0.0.1');
  endpoint = `ws://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server.gracefullyShutdown(false);
});

/** Resolves when `condition()` holds, checking after each turn of the event loop (after its I/O, no timer); fails after `ms`. */
async function within(ms: number, condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A client in a fresh room (created with `options` as its tick options), and that room. */
async function joinNewRoom(options: typeof ArenaRoom.tickOptions): Promise<{
  client: Room<ArenaState>;
  room: ArenaRoom;
  states: Map<number, PlayerState>;
  repeated: number[];
}> {
  ArenaRoom.tickOptions = options;
  const client = await new Client(endpoint).create<ArenaState>('arena');
  const room = matchMaker.getLocalRoomById(client.roomId) as ArenaRoom;
  // Every decoded state, by the tick stamped on it: the local player's numbers.
  const states = new Map<number, PlayerState>();
  const repeated: number[] = [];
  client.onStateChange((state) => {
    const p = state.players.get(client.sessionId);
    // The state sent on joining is stamped -1 when no tick has run yet.
    if (p === undefined || state.tick < 0) return;
    if (states.has(state.tick)) repeated.push(state.tick);
    states.set(state.tick, { x: p.x, y: p.y, v: p.v, aim: p.aim, jumps: p.jumps });
  });
  await within(5000, () => room.clients.length === 1, 'the join');
  return { client, room, states, repeated };
}

const command = (tick: number, ...events: InputCommand['events']): InputCommand => ({
  tick,
  events,
});

describe('FixedTickRoom on Colyseus', () => {
  it('delivers stamped inputs to their ticks and stamps every patch with its tick', async () => {
    const { client, room, states, repeated } = await joinNewRoom({ driver: 'manual' });
    client.send(INPUT_MESSAGE, command(5, ['press', 'ArrowRight']));
    client.send(INPUT_MESSAGE, command(10, ['release', 'ArrowRight']));
    await within(5000, () => room.inputStats(client.sessionId).received === 2, 'the inputs');
    for (let i = 0; i < 20; i++) room.loop.advance(1 / 60);
    await within(5000, () => states.has(19), 'the patch of tick 19');
    // One patch per tick, stamped 0..19, each the server's state after that tick, bit for bit.
    expect([...states.keys()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(repeated).toEqual([]);
    const history = room.history.get(client.sessionId) as Map<number, PlayerState>;
    for (const [tick, state] of states)
      expect(samePlayer(state, history.get(tick) as PlayerState)).toBe(true);
    // ArrowRight held in ticks 5 to 9 exactly: five steps of 240 px/s × 1/60 s.
    const moved = [...states.keys()].filter(
      (t) => t > 0 && states.get(t)?.x !== states.get(t - 1)?.x,
    );
    expect(moved.sort((a, b) => a - b)).toEqual([5, 6, 7, 8, 9]);
    expect(room.inputStats(client.sessionId)).toMatchObject({
      received: 2,
      late: 0,
      duplicates: 0,
    });
    await client.leave();
  });

  it('delivers a late input to the next tick that runs, drops duplicates, refuses bad ones', async () => {
    const { client, room, states } = await joinNewRoom({ driver: 'manual' });
    for (let i = 0; i < 10; i++) room.loop.advance(1 / 60);
    client.send(INPUT_MESSAGE, command(4, ['press', 'ArrowLeft'])); // tick 4 ran already
    client.send(INPUT_MESSAGE, command(4, ['press', 'ArrowLeft'])); // a resend
    client.send(INPUT_MESSAGE, command(500, ['press', 'KeyQ'])); // two seconds ahead and more
    client.send(INPUT_MESSAGE, { tick: 'soon', events: 'all' });
    const stats = room.inputStats(client.sessionId);
    await within(
      5000,
      () => stats.received + stats.duplicates + stats.early + stats.invalid === 4,
      'the inputs',
    );
    expect(stats).toMatchObject({ received: 1, late: 1, duplicates: 1, early: 1, invalid: 1 });
    room.loop.advance(1 / 60);
    await within(5000, () => states.has(10), 'the patch of tick 10');
    // The late press moved the player in tick 10, the first that ran after it arrived.
    expect((states.get(10) as PlayerState).x).toBe(-(240 * (1 / 60)));
    expect((states.get(9) as PlayerState).x).toBe(0);
    await client.leave();
  });

  it('ticks on nodeDriver deadlines: exactly 600 ticks in 10 s of timers 0.9 ms late', async () => {
    const time = new FakeTimers();
    time.latencyMs = 0.9;
    const { client, room, states } = await joinNewRoom({
      nodeDriverOptions: { now: time.clock, scheduler: time, spinMs: 0 },
      patchEveryTicks: 3,
    });
    // The 600th deadline is 10 000 ms after the start; its timer fires 0.9 ms after that.
    await time.runFor(10_001, () => new Promise((resolve) => setImmediate(resolve)));
    expect(room.loop.tick).toBe(600);
    expect(room.tickStats).toMatchObject({ wakes: 600, skippedDeadlines: 0 });
    await within(5000, () => states.has(599), 'the patch of tick 599');
    // Every third tick patched (20 Hz), each stamped with the last tick its frame ran.
    expect(states.size).toBe(200);
    expect([...states.keys()].every((t) => t % 3 === 2)).toBe(true);
    await client.leave();
    await within(5000, () => room.loop.tick === 600 && time.pending === 0, 'the loop to stop');
  });

  it("answers a ping with the client's reading and the next tick", async () => {
    const { client, room } = await joinNewRoom({ driver: 'manual' });
    for (let i = 0; i < 7; i++) room.loop.advance(1 / 60);
    let pong: unknown;
    client.onMessage(PONG_MESSAGE, (message) => {
      pong = message;
    });
    client.send(PING_MESSAGE, 1234.5);
    await within(5000, () => pong !== undefined, 'the pong');
    expect(pong).toEqual([1234.5, 7]);
    await client.leave();
  });

  it("a predicting client replays exactly the server's states through Colyseus, bit for bit", async () => {
    const { client, room, states } = await joinNewRoom({ driver: 'manual' });
    const player = new PredictedPlayer();
    const prediction = new Prediction(player, { tickRate: 60 });
    const script = new Map<number, () => void>([
      [3, () => prediction.addInput('press', 'ArrowRight')],
      [9, () => prediction.addInput('press', 'Space')],
      [10, () => prediction.addInput('release', 'Space')],
      [14, () => prediction.addInput('move', '', 100.25, -3.5)],
      [30, () => prediction.addInput('release', 'ArrowRight')],
      [31, () => prediction.addInput('press', 'ArrowLeft')],
      [50, () => prediction.addInput('release', 'ArrowLeft')],
    ]);
    const LEAD = 4;
    let reconciled = -1;
    for (let tick = 0; tick < 80; tick++) {
      script.get(tick)?.();
      client.send(INPUT_MESSAGE, prediction.step());
      const serverTick = tick - LEAD;
      if (serverTick < 0) continue;
      const stats = room.inputStats(client.sessionId);
      await within(5000, () => stats.received > tick, `the input of tick ${tick}`);
      room.loop.advance(1 / 60);
      await within(5000, () => states.has(serverTick), `the patch of tick ${serverTick}`);
      player.replaying = true;
      prediction.reconcile(serverTick, states.get(serverTick) as PlayerState);
      player.replaying = false;
      reconciled = serverTick;
    }
    expect(reconciled).toBe(75);
    const server = room.history.get(client.sessionId) as Map<number, PlayerState>;
    const replayed = [...player.replayed.keys()];
    expect(replayed.length).toBeGreaterThan(70);
    expect(
      replayed.filter(
        (t) =>
          server.has(t) &&
          !samePlayer(player.replayed.get(t) as PlayerState, server.get(t) as PlayerState),
      ),
    ).toEqual([]);
    expect(prediction.stats.corrections).toBe(0);
    expect(room.inputStats(client.sessionId).late).toBe(0);
    expect((server.get(75) as PlayerState).jumps).toBe(1);
    await client.leave();
  });
});
