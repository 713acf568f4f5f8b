/**
 * Prediction and reconciliation (docs/multiplayer.md, "Prediction"): a client predicts its
 * player with the same step and its latched input, the "server" runs that step on the inputs it
 * received through a TickInputQueue, and every rewind to a server state replays the
 * unacknowledged ticks to exactly the server's states, bit for bit. Network delays are ticks of
 * an explicit event queue; the client's frames are 144 Hz `advance` calls.
 */
import { FixedLoop } from '@fixedtick/core';
import { InputLatch } from '@fixedtick/core/input';
import { type InputCommand, Prediction, TickInputQueue, TickInputState } from '@fixedtick/core/net';
import { describe, expect, it } from 'vitest';
import {
  copyPlayer,
  newPlayer,
  type PlayerState,
  PredictedPlayer,
  samePlayer,
  stepPlayer,
} from './support/net-player.ts';

const DT = 1 / 60;

/** Scripted key events by client frame: presses, releases and pointer moves. */
type Script = Map<number, (latch: InputLatch) => void>;

interface Run {
  server: Map<number, PlayerState>;
  player: PredictedPlayer;
  prediction: Prediction<PlayerState>;
  queue: TickInputQueue;
}

/**
 * Runs `frames` client frames at 144 Hz. The server runs tick `n` when the client has predicted
 * `n + leadTicks`; a command reaches the server `upTicks` server ticks after it was sent, the
 * server's state reaches the client `downTicks` client ticks after the server ran it.
 * `serverOnly(tick, state)` changes the server's state in ways the client cannot predict.
 */
function play(
  frames: number,
  script: Script,
  options: {
    leadTicks: number;
    upTicks: number;
    downTicks: number;
    serverOnly?: (tick: number, p: PlayerState) => void;
    snapDistance?: number;
  },
): Run {
  const loop = new FixedLoop({ tickRate: 60 });
  const latch = new InputLatch(loop);
  const player = new PredictedPlayer();
  const prediction = new Prediction(player, {
    tickRate: 60,
    ...(options.snapDistance === undefined ? {} : { snapDistance: options.snapDistance }),
  });
  prediction.connect(latch);

  const serverPlayer = newPlayer();
  const serverInput = new TickInputState();
  const queue = new TickInputQueue();
  const server = new Map<number, PlayerState>();
  let serverTick = 0;
  const toServer: { at: number; command: InputCommand }[] = [];
  const toClient: { at: number; tick: number; state: PlayerState }[] = [];

  loop.onFixedUpdate(() => {
    const command = prediction.step();
    // Through a message format: what the server gets is a copy, never the client's object.
    const wire = JSON.parse(JSON.stringify(command)) as InputCommand;
    toServer.push({ at: command.tick - options.leadTicks + options.upTicks, command: wire });
    // The server runs the ticks the client is now `leadTicks` ahead of.
    while (serverTick <= prediction.tick - options.leadTicks) {
      while (toServer.length > 0 && toServer[0].at <= serverTick) {
        queue.receive((toServer.shift() as { command: InputCommand }).command, serverTick);
      }
      queue.deliver(serverTick, serverInput);
      stepPlayer(serverPlayer, serverInput, DT);
      options.serverOnly?.(serverTick, serverPlayer);
      server.set(serverTick, copyPlayer(serverPlayer));
      toClient.push({
        at: prediction.tick + options.downTicks,
        tick: serverTick,
        state: copyPlayer(serverPlayer),
      });
      serverTick++;
    }
    while (toClient.length > 0 && toClient[0].at <= prediction.tick) {
      const { tick, state } = toClient.shift() as { tick: number; state: PlayerState };
      player.replaying = true;
      prediction.reconcile(tick, state);
      player.replaying = false;
    }
  });
  loop.onUpdate((dt) => prediction.update(dt));

  for (let f = 0; f < frames; f++) {
    script.get(f)?.(latch);
    loop.advance(1 / 144);
  }
  return { server, player, prediction, queue };
}

/** A few seconds of running, jumping and aiming, at frames chosen to fall between ticks. */
function busyScript(): Script {
  const script: Script = new Map();
  script.set(10, (l) => l.press('ArrowRight'));
  script.set(40, (l) => l.press('Space'));
  script.set(41, (l) => l.release('Space'));
  script.set(90, (l) => l.move(320, 180));
  script.set(200, (l) => l.release('ArrowRight'));
  script.set(201, (l) => l.press('ArrowLeft'));
  script.set(260, (l) => l.press('Space'));
  script.set(300, (l) => l.release('Space'));
  script.set(333, (l) => l.move(-12.5, 7.25));
  script.set(500, (l) => l.release('ArrowLeft'));
  return script;
}

/** Ticks at which `a` and `b` (by tick) hold different states, among the ticks both have. */
function differing(a: Map<number, PlayerState>, b: Map<number, PlayerState>): number[] {
  return [...a.keys()].filter(
    (t) => b.has(t) && !samePlayer(a.get(t) as PlayerState, b.get(t) as PlayerState),
  );
}

describe('Prediction', () => {
  it("predicts the server's states bit for bit when every input arrives in time", () => {
    const { server, player, prediction, queue } = play(144 * 5, busyScript(), {
      leadTicks: 8,
      upTicks: 3,
      downTicks: 3,
    });
    expect(server.size).toBeGreaterThan(280);
    expect(queue.stats.late).toBe(0);
    expect(differing(player.byTick, server)).toEqual([]);
    expect(differing(player.replayed, server)).toEqual([]);
    expect(player.replayed.size).toBeGreaterThan(250);
    expect(prediction.stats.reconciles).toBeGreaterThan(280);
    expect(prediction.stats.replayedTicks).toBeGreaterThan(280 * 5);
    expect(prediction.stats.corrections).toBe(0);
    expect(server.get(server.size - 1)?.jumps).toBe(2);
  });

  it("replays the server's states bit for bit after a correction the client could not predict", () => {
    // At server tick 100 something only the server knows (a push) moves the player 30 px.
    const { server, player, prediction } = play(144 * 4, busyScript(), {
      leadTicks: 6,
      upTicks: 2,
      downTicks: 2,
      serverOnly: (tick, p) => {
        if (tick === 100) p.x += 30;
      },
    });
    // Replayed from a server state, every tick is the server's — except tick 100 itself when
    // replayed from tick 99's state: the push is no input, so no replay can know it.
    expect(differing(player.replayed, server)).toEqual([100]);
    expect(prediction.stats.corrections).toBe(1);
    expect(prediction.stats.lastError).toBe(0);
    // The ticks predicted before the push reached the client were off by the push; every tick
    // the client predicts once it has the server's state for tick 100 is the server's.
    const wrong = differing(player.byTick, server);
    expect(wrong[0]).toBe(100);
    expect(wrong.every((t) => t <= 100 + 6 + 2)).toBe(true);
  });

  it('eases the drawn pose after a correction and snaps one larger than snapDistance', () => {
    // At server tick 60 something only the server knows moves the player 30 px.
    const pushed = (snapDistance?: number) =>
      play(144 * 2, new Map(), {
        leadTicks: 6,
        upTicks: 2,
        downTicks: 2,
        ...(snapDistance === undefined ? {} : { snapDistance }),
        serverOnly: (tick, p) => {
          if (tick === 60) p.x += 30;
        },
      });
    const smooth = pushed();
    expect(smooth.prediction.stats.corrections).toBe(1);
    expect(smooth.prediction.stats.snaps).toBe(0);
    // Eased: −30 px (drawn where it was) at the correction, about 0.87 s before the end, so
    // e^(−0.87 / 0.1) of it is left: 30 × e^−8.7 ≈ 0.005 px.
    const left = smooth.prediction.correction[0];
    expect(left).toBeLessThan(0);
    expect(left).toBeGreaterThan(-0.01);
    const snapped = pushed(10);
    expect(snapped.prediction.stats.snaps).toBe(1);
    expect([...snapped.prediction.correction]).toEqual([0, 0, 0]);
  });

  it('starts the correction at the error and eases it by e^(-t / correctionTime)', () => {
    const player = new PredictedPlayer();
    const prediction = new Prediction(player, { tickRate: 60, correctionTime: 0.1 });
    prediction.addInput('press', 'ArrowRight');
    for (let t = 0; t < 5; t++) prediction.step();
    const predicted = player.state.x;
    // The server says tick 2 ended 6 px further left than predicted.
    const server = { ...(player.byTick.get(2) as PlayerState) };
    server.x -= 6;
    expect(prediction.reconcile(2, server)).toBe(2);
    expect(player.state.x).toBe(server.x + 2 * 240 * (1 / 60));
    expect(prediction.correction[0]).toBe(predicted - player.state.x);
    expect(prediction.correction[0]).toBeCloseTo(6, 12);
    prediction.update(0.1);
    expect(prediction.correction[0]).toBeCloseTo(6 * Math.exp(-1), 12);
    expect(prediction.reconcile(2, server)).toBe(-1); // not newer: nothing done
    expect(prediction.stats).toMatchObject({ reconciles: 1, replayedTicks: 2, corrections: 1 });
  });

  it('after late inputs, which the server moves to later ticks, the client converges to the server', () => {
    // Commands arrive one tick after the server ran their tick: every one of them is late.
    const { server, player, queue } = play(144 * 5, busyScript(), {
      leadTicks: 2,
      upTicks: 3,
      downTicks: 1,
    });
    expect(queue.stats.late).toBeGreaterThan(100);
    // Late inputs are not the same inputs: while keys change, the server applies them a tick
    // after the client did, and the client's guesses and replays differ from the server.
    const lastInputTick = Math.ceil((500 / 144) * 60);
    expect(differing(player.byTick, server).length).toBeGreaterThan(0);
    // Once input is steady, each rewind lands the client on the server's states for good.
    const settled = (t: number) => t > lastInputTick + 4;
    expect(differing(player.byTick, server).filter(settled)).toEqual([]);
    expect(differing(player.replayed, server).filter(settled)).toEqual([]);
    expect([...server.keys()].filter(settled).length).toBeGreaterThan(60);
  });

  it('starting over after falling behind keeps the held keys held, as the server holds them', () => {
    const player = new PredictedPlayer();
    const prediction = new Prediction(player, { tickRate: 60 });
    const server = newPlayer();
    const serverInput = new TickInputState();
    prediction.addInput('press', 'ArrowRight');
    const command = prediction.step(); // tick 0
    serverInput.beginTick();
    for (const event of command.events) serverInput.apply(event);
    stepPlayer(server, serverInput, DT);
    // the client stalls; the server runs ticks 1..30 with the key still held
    for (let tick = 1; tick <= 30; tick++) {
      serverInput.beginTick();
      stepPlayer(server, serverInput, DT);
    }
    expect(prediction.reconcile(30, copyPlayer(server))).toBe(0); // beyond the client: start over
    expect(prediction.stats.restarts).toBe(1);
    expect(prediction.input.held('ArrowRight')).toBe(true);
    prediction.step(); // tick 31, predicted with the key held
    serverInput.beginTick();
    stepPlayer(server, serverInput, DT);
    expect(samePlayer(player.byTick.get(31) as PlayerState, server)).toBe(true);
  });
});
