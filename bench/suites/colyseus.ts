/**
 * The fixed tick across the network at the size of a busy room: 32 clients sending one input
 * command per tick, 500 entities (and 100 and 2 000, and 8 clients, to see how it scales).
 *
 * - **Server time per tick**: what `FixedTickRoom` does in one tick — each client's command
 *   received by its `TickInputQueue` and delivered into its `TickInputState`, the entities
 *   stepped (32 of them players reading that input, the rest boxes moving on their own), and the
 *   Colyseus patch encoded once with `@colyseus/schema`'s `Encoder` (what `broadcastPatch` does
 *   before sending the same bytes to every client). Beside it, interleaved round by round, the
 *   hand-written tick a Colyseus room has without Fixedtick: message handlers setting held-key
 *   flags, the same step on the flags, the same encoding. The ratio is what tick-stamped input
 *   delivery costs; socket I/O and msgpack decoding are the same on both sides and left out.
 * - **Bytes per tick per client**: the encoded patch (with Colyseus's one protocol byte), which
 *   every client receives in full (no per-client views); the WebSocket frame adds 2–4 bytes.
 *   Positions and angles are `float32` for boxes and `float64` for players (whose state a
 *   predicting client rewinds to, bit for bit).
 * - **Client time per frame**: a 144 Hz frame of a three.js client — `TickClock.update`, every
 *   2.4 frames a snapshot of every other entity pushed into `RemoteEntities` (the pose store's
 *   external stream), and the `ThreeFixedLoop`'s frame drawing all of them into their
 *   `Object3D`s at the clock's render tick — beside a hand-written loop that keeps the previous
 *   and current snapshot per entity, interpolates them with the same lerp and slerp and sets
 *   each `Object3D`'s position and quaternion (what a client without Fixedtick writes: no jitter
 *   measure, no extrapolation, no teleports) — and the heap bytes the client's frame allocates
 *   (`allocationPerCall`).
 */
import { defineTypes, Encoder, MapSchema, Schema } from '@colyseus/schema';
import { Object3D } from 'three';
import { lerp, slerp } from '../../packages/core/src/entries/interpolation.ts';
import {
  type InputCommand,
  RemoteEntities,
  TickClock,
  type TickInputEvent,
  TickInputQueue,
  TickInputState,
} from '../../packages/core/src/entries/net.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';
import { allocationPerCall, compareRounds } from '../lib.ts';

/** Nanoseconds as microseconds, two decimals. */
const microseconds = (ns: number): number => Math.round(ns / 10) / 100;
const DT = 1 / 60;
/** A 144 Hz frame (ms and s). */
const FRAME_MS = 1000 / 144;
const FRAME_SECONDS = 1 / 144;

/**
 * Frame timestamps (ms) as a browser hands them to `requestAnimationFrame`: numbers that exist
 * before the frame runs. Made once here (an array of tagged values, so reading one does not box
 * it again), so a frame's bytes are what the client's code allocates, not the bench's arithmetic.
 */
function timestamps(count: number): number[] {
  const stamps: unknown[] = [];
  for (let i = 0; i < count; i++) stamps.push(i * FRAME_MS);
  // one element that is not a number: the array's elements become tagged (boxed once, here)
  stamps.push('end');
  return stamps as number[];
}

class Box extends Schema {
  declare x: number;
  declare z: number;
  declare angle: number;
}
defineTypes(Box, { x: 'float32', z: 'float32', angle: 'float32' });

class Player extends Schema {
  declare x: number;
  declare z: number;
  declare angle: number;
}
defineTypes(Player, { x: 'float64', z: 'float64', angle: 'float64' });

class Arena extends Schema {
  declare tick: number;
  declare boxes: MapSchema<Box>;
  declare players: MapSchema<Player>;
}
defineTypes(Arena, { tick: 'int32', boxes: { map: Box }, players: { map: Player } });

/** What a client pressed and released, per tick: a key change every 12 ticks per client. */
const PRESS: readonly TickInputEvent[] = [['press', 'ArrowRight']];
const RELEASE: readonly TickInputEvent[] = [['release', 'ArrowRight']];
const NONE: readonly TickInputEvent[] = [];
function eventsFor(client: number, tick: number): readonly TickInputEvent[] {
  const phase = (tick + client) % 24;
  return phase === 0 ? PRESS : phase === 12 ? RELEASE : NONE;
}

/** A room's world: its schema state, encoder, and the step both sides run. */
function world(entities: number, clients: number) {
  const state = new Arena();
  state.tick = -1;
  state.boxes = new MapSchema<Box>();
  state.players = new MapSchema<Player>();
  const players: Player[] = [];
  const boxes: Box[] = [];
  for (let i = 0; i < clients; i++) {
    const p = new Player();
    p.assign({ x: i, z: 0, angle: 0 });
    state.players.set(`p${i}`, p);
    players.push(p);
  }
  for (let i = clients; i < entities; i++) {
    const b = new Box();
    b.assign({ x: i % 50, z: Math.floor(i / 50), angle: 0 });
    state.boxes.set(`b${i}`, b);
    boxes.push(b);
  }
  const encoder = new Encoder(state);
  encoder.encodeAll();
  encoder.discardChanges();
  const boxVelocity = new Float64Array(boxes.length).map((_, i) => 1 + (i % 7));
  return {
    state,
    encoder,
    step(tick: number, right: (client: number) => boolean): void {
      for (let i = 0; i < players.length; i++) {
        const p = players[i];
        if (right(i)) {
          p.x += 4 * DT;
          p.angle += DT;
        }
      }
      for (let i = 0; i < boxes.length; i++) {
        const b = boxes[i];
        b.x += boxVelocity[i] * DT;
        if (b.x > 50) b.x -= 50;
        b.angle += 0.5 * DT;
      }
      state.tick = tick;
    },
    /** Encodes the patch as `broadcastPatch` does; returns its size in bytes. */
    patch(): number {
      const bytes = encoder.encode({ offset: 1 }).length;
      encoder.discardChanges();
      return bytes;
    },
  };
}

function serverTick({ clients, entities }: { clients: number; entities: number }) {
  // Fixedtick: a queue and an input state per client.
  const ours = world(entities, clients);
  const queues = Array.from({ length: clients }, () => new TickInputQueue());
  const inputs = Array.from({ length: clients }, () => new TickInputState());
  let oursTick = 0;
  let bytes = 0;
  const ourTick = (): void => {
    const tick = oursTick++;
    for (let c = 0; c < clients; c++) {
      const command: InputCommand = { tick, events: eventsFor(c, tick) };
      queues[c].receive(command, tick);
      queues[c].deliver(tick, inputs[c]);
    }
    ours.step(tick, (c) => inputs[c].held('ArrowRight'));
    bytes = ours.patch();
  };
  // Hand-written: message handlers set a flag per client; the step reads the flags.
  const theirs = world(entities, clients);
  const held = new Uint8Array(clients);
  let theirsTick = 0;
  const theirTick = (): void => {
    const tick = theirsTick++;
    for (let c = 0; c < clients; c++) {
      const events = eventsFor(c, tick);
      for (const event of events) held[c] = event[0] === 'press' ? 1 : 0;
    }
    theirs.step(tick, (c) => held[c] === 1);
    theirs.patch();
  };
  const timing = compareRounds(ourTick, theirTick, 200, 15);
  return {
    entities,
    clients,
    serverUsPerTick: microseconds(timing.aNs),
    handWrittenUsPerTick: microseconds(timing.bNs),
    ratio: timing.ratio,
    bytesPerTickPerClient: bytes,
  };
}

function clientFrame(entities: number) {
  const remote = entities - 1; // every entity but the local player
  const rows = new Float64Array(remote * 10);
  const ids = Array.from({ length: remote }, (_, i) => i);
  const fill = (tick: number): void => {
    for (let i = 0; i < remote; i++) {
      const angle = 0.5 * tick * DT + i;
      const o = i * 10;
      rows[o] = i + tick * DT;
      rows[o + 4] = Math.sin(angle / 2);
      rows[o + 6] = Math.cos(angle / 2);
      rows[o + 7] = 1;
      rows[o + 8] = 1;
      rows[o + 9] = 1;
    }
  };
  const delayTicks = 3;
  const stamps = timestamps(60_000);

  // Fixedtick: the tick clock, RemoteEntities through the loop's pose store into Object3Ds.
  const clock = new TickClock({ tickRate: 60 });
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const remotes = new RemoteEntities(loop.tracker, { clock, spawn: () => new Object3D() });
  let oursFrame = 0;
  let oursSnapshot = 0;
  const ourFrame = (): void => {
    const now = stamps[oursFrame++];
    while (oursSnapshot * (1000 / 60) <= now) {
      fill(oursSnapshot);
      remotes.push(oursSnapshot, ids, rows);
      clock.observe(oursSnapshot, now);
      oursSnapshot++;
    }
    clock.update(now);
    loop.advance(FRAME_SECONDS);
  };

  // Hand-written: previous and current snapshot per entity, interpolated by the fraction of
  // the newest interval, `delayTicks` behind (no jitter measure, no extrapolation, no teleports).
  const previous = new Float64Array(remote * 10);
  const current = new Float64Array(remote * 10);
  const out = new Float64Array(remote * 10);
  const objects = Array.from({ length: remote }, () => new Object3D());
  let theirsFrame = 0;
  let theirsSnapshot = 0;
  const theirFrame = (): void => {
    const now = stamps[theirsFrame++];
    while (theirsSnapshot * (1000 / 60) <= now) {
      fill(theirsSnapshot);
      previous.set(current);
      current.set(rows);
      theirsSnapshot++;
    }
    const t = Math.min(1, Math.max(0, now / (1000 / 60) - (theirsSnapshot - 1) + 1 - delayTicks));
    for (let i = 0; i < remote; i++) {
      const o = i * 10;
      for (let k = 0; k < 3; k++) out[o + k] = lerp(previous[o + k], current[o + k], t);
      slerp(out, o + 3, previous, o + 3, current, o + 3, t);
      for (let k = 7; k < 10; k++) out[o + k] = lerp(previous[o + k], current[o + k], t);
      const object = objects[i];
      object.position.set(out[o], out[o + 1], out[o + 2]);
      object.quaternion.set(out[o + 3], out[o + 4], out[o + 5], out[o + 6]);
    }
  };
  const timing = compareRounds(ourFrame, theirFrame, 500, 15);
  const allocation = allocationPerCall(ourFrame, 2000, 5000);
  return {
    entities,
    remoteEntities: remote,
    drawn: { ...remotes.stream.drawnFrames },
    clientBytesPerFrame: Math.round(allocation.bytesPerCall * 10) / 10,
    clientUsPerFrame: microseconds(timing.aNs),
    handWrittenUsPerFrame: microseconds(timing.bNs),
    ratio: timing.ratio,
  };
}

export default function colyseus(): Record<string, unknown> {
  const sizes = [100, 500, 2000];
  return {
    server: [
      { clients: 32, entities: 100 },
      { clients: 32, entities: 500 },
      { clients: 32, entities: 2000 },
      { clients: 8, entities: 500 },
    ].map(serverTick),
    client: sizes.map(clientFrame),
  };
}
