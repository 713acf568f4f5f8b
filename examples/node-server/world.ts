/**
 * The authoritative world of the node-server example: a few players on a 1-D track who run
 * (ArrowLeft/ArrowRight held) and jump (Space pressed), stepped at the loop's fixed step with
 * semi-implicit Euler (v0 = 600 px/s, g = 1800 px/s², as in the browser jump demo). Each player
 * has an {@link InputLatch}: the server's "network" presses and releases keys whenever messages
 * arrive, and every tick sees each press exactly once.
 */

import { InputLatch } from '../../packages/core/src/entries/input.ts';
import type { FixedLoop } from '../../packages/core/src/index.ts';

/** Jump impulse (px/s). */
export const JUMP_SPEED = 600;
/** Gravity (px/s²). */
export const GRAVITY = 1800;
/** Running speed (px/s). */
export const RUN_SPEED = 240;

/** One player's state; numbers only, so it can be hashed bit for bit. */
export interface Player {
  x: number;
  y: number;
  v: number;
  jumps: number;
}

/** A world of `players` players whose inputs come through one latch each. */
export class World {
  readonly players: Player[];
  readonly inputs: InputLatch[];

  constructor(loop: FixedLoop, players: number) {
    this.players = Array.from({ length: players }, () => ({ x: 0, y: 0, v: 0, jumps: 0 }));
    this.inputs = this.players.map(() => new InputLatch(loop));
    loop.onFixedUpdate((dt) => {
      for (let i = 0; i < this.players.length; i++) step(this.players[i], this.inputs[i], dt);
    });
  }

  /**
   * A 32-bit FNV-1a hash of every player's numbers, bit for bit: two runs agree on it only if
   * they computed exactly the same floats.
   */
  checksum(): string {
    const f = new Float64Array(this.players.length * 4);
    this.players.forEach((p, i) => {
      f.set([p.x, p.y, p.v, p.jumps], i * 4);
    });
    let h = 0x811c9dc5;
    for (const byte of new Uint8Array(f.buffer)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
    return h.toString(16).padStart(8, '0');
  }
}

function step(p: Player, input: InputLatch, dt: number): void {
  if (input.pressed('Space') && p.y === 0) {
    p.v = JUMP_SPEED;
    p.jumps++;
  }
  if (input.held('ArrowRight')) p.x += RUN_SPEED * dt;
  if (input.held('ArrowLeft')) p.x -= RUN_SPEED * dt;
  p.v -= GRAVITY * dt;
  p.y += p.v * dt;
  if (p.y <= 0) {
    p.y = 0;
    p.v = 0;
  }
}

/** One scripted input message: at `atMs` after start, `player` presses or releases `key`. */
export interface ScriptedInput {
  atMs: number;
  player: number;
  kind: 'press' | 'release';
  key: string;
}

/**
 * A deterministic script of client messages for `players` players over `seconds`: each player
 * runs right and left in turns and jumps now and then (taps of 40–120 ms).
 */
export function inputScript(players: number, seconds: number, seed = 1): ScriptedInput[] {
  let a = seed >>> 0;
  const rnd = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: ScriptedInput[] = [];
  for (let player = 0; player < players; player++) {
    for (let t = 200 + rnd() * 500; t < seconds * 1000 - 200; t += 300 + rnd() * 900) {
      const key = rnd() < 0.5 ? 'Space' : rnd() < 0.5 ? 'ArrowRight' : 'ArrowLeft';
      const hold = key === 'Space' ? 40 + rnd() * 80 : 200 + rnd() * 600;
      out.push({ atMs: t, player, kind: 'press', key });
      out.push({ atMs: Math.min(t + hold, seconds * 1000 - 100), player, kind: 'release', key });
    }
  }
  return out.sort((x, y) => x.atMs - y.atMs);
}
