/**
 * The multiplayer example's world, shared by the server (server.ts) and the predicting client
 * (main.ts): the arena, the crates' layout, and the one fixed step of a player and of the crates.
 * Both sides run `stepPlayer` on the same input, so the client's prediction lands on the
 * server's numbers bit for bit: only `+ − × ÷`, `Math.sqrt`, `Math.min`/`max` (exact in IEEE
 * 754 on every platform), no `Math.sin` in the step.
 */
import type { TickInput } from '@fixedtick/core/net';

/** Server ticks per second (and the client loop's). */
export const TICK_RATE = 60;
/** Half the arena's side (m): the floor spans −HALF..HALF on x and z. */
export const HALF = 9;
/** A player's and a crate's half size (m). */
export const PLAYER_HALF = 0.45;
export const CRATE_HALF = 0.5;
/** Player speed (m/s) with ArrowUp held, and turn rate per tick with ArrowLeft/Right. */
const SPEED = 5;
/** The turn per tick as a rotation (cos, sin of 2 rad/s at 60 Hz), written as constants. */
const TURN_COS = 0.9994444958;
const TURN_SIN = 0.0333271617;
/** A crate keeps this share of its speed each tick (sliding friction). */
const CRATE_DAMPING = 0.92;

/** A player's state: position and heading (a unit vector on the floor). */
export interface PlayerState {
  x: number;
  z: number;
  hx: number;
  hz: number;
}

/** A crate's state: position, velocity, and its yaw (for drawing only). */
export interface CrateState {
  x: number;
  z: number;
  vx: number;
  vz: number;
  yaw: number;
}

/** Where the `n`-th player to join starts: around a circle, facing its centre. */
export function spawnPoint(n: number): PlayerState {
  const corners = [
    [-5, -5],
    [5, 5],
    [5, -5],
    [-5, 5],
  ];
  const [x, z] = corners[n % corners.length];
  const length = Math.sqrt(x * x + z * z);
  return { x, z, hx: -x / length, hz: -z / length };
}

/** The crates at the start: a ring of twelve around the centre. */
export function crateLayout(): CrateState[] {
  const crates: CrateState[] = [];
  for (let i = 0; i < 12; i++) {
    const angle = (i / 12) * 2 * Math.PI;
    crates.push({ x: 3 * Math.cos(angle), z: 3 * Math.sin(angle), vx: 0, vz: 0, yaw: angle });
  }
  return crates;
}

/**
 * One tick of a player: ArrowLeft/ArrowRight turn it, ArrowUp/ArrowDown drive it along its
 * heading; the walls stop it. The code the server runs and the client predicts.
 */
export function stepPlayer(p: PlayerState, input: TickInput, dt: number): void {
  const turn = (input.held('ArrowLeft') ? 1 : 0) - (input.held('ArrowRight') ? 1 : 0);
  if (turn !== 0) {
    const s = turn * TURN_SIN;
    const hx = p.hx * TURN_COS - p.hz * s;
    const hz = p.hx * s + p.hz * TURN_COS;
    // renormalised each turn: the heading stays a unit vector, the same on both sides
    const length = Math.sqrt(hx * hx + hz * hz);
    p.hx = hx / length;
    p.hz = hz / length;
  }
  const drive = (input.held('ArrowUp') ? 1 : 0) - (input.held('ArrowDown') ? 0.5 : 0);
  const limit = HALF - PLAYER_HALF;
  p.x = Math.min(limit, Math.max(-limit, p.x + p.hx * SPEED * drive * dt));
  p.z = Math.min(limit, Math.max(-limit, p.z + p.hz * SPEED * drive * dt));
}

/**
 * One tick of the crates: each player overlapping a crate pushes it out along the axis of least
 * overlap (and gives it that speed), the crates slide, slow down and stop at the walls. Players
 * are not pushed back, so a client's prediction of its own player needs nobody else's state.
 */
export function stepCrates(
  crates: CrateState[],
  players: readonly PlayerState[],
  dt: number,
): void {
  const reach = PLAYER_HALF + CRATE_HALF;
  const limit = HALF - CRATE_HALF;
  for (const c of crates) {
    for (const p of players) {
      const dx = c.x - p.x;
      const dz = c.z - p.z;
      const ox = reach - Math.abs(dx);
      const oz = reach - Math.abs(dz);
      if (ox <= 0 || oz <= 0) continue;
      if (ox < oz) {
        const push = dx < 0 ? -ox : ox;
        c.x += push;
        c.vx = push / dt;
      } else {
        const push = dz < 0 ? -oz : oz;
        c.z += push;
        c.vz = push / dt;
      }
      c.yaw += 0.02;
    }
    c.x = Math.min(limit, Math.max(-limit, c.x + c.vx * dt));
    c.z = Math.min(limit, Math.max(-limit, c.z + c.vz * dt));
    c.vx *= CRATE_DAMPING;
    c.vz *= CRATE_DAMPING;
  }
}

/**
 * Writes the pose row (position, quaternion, scale: the pose store's layout) of a body at
 * `(x, y, z)` turned by `yaw` about the vertical into `rows[at ..]`.
 */
export function poseRow(
  rows: number[],
  at: number,
  x: number,
  y: number,
  z: number,
  yaw: number,
): void {
  rows[at] = x;
  rows[at + 1] = y;
  rows[at + 2] = z;
  rows[at + 3] = 0;
  rows[at + 4] = Math.sin(yaw / 2);
  rows[at + 5] = 0;
  rows[at + 6] = Math.cos(yaw / 2);
  rows[at + 7] = 1;
  rows[at + 8] = 1;
  rows[at + 9] = 1;
}

/** The yaw (about the vertical, three.js's convention) that faces heading `(hx, hz)`. */
export const headingYaw = (hx: number, hz: number): number => Math.atan2(hx, hz);
