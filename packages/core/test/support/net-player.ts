/**
 * A player for the network tests, stepped by the same code on the "server" and the predicting
 * "client": runs (ArrowLeft/ArrowRight held), jumps (Space pressed), aims at the pointer, with
 * semi-implicit Euler (v0 = 600 px/s, g = 1800 px/s², as in the jump demos). Numbers only, so
 * states compare bit for bit.
 */
import type { PredictedSimulation, TickInput } from '@fixedtick/core/net';

/** One player's state. */
export interface PlayerState {
  x: number;
  y: number;
  v: number;
  aim: number;
  jumps: number;
}

/** A fresh player at the origin. */
export const newPlayer = (): PlayerState => ({ x: 0, y: 0, v: 0, aim: 0, jumps: 0 });

/** A copy of `p` (what the server sends). */
export const copyPlayer = (p: PlayerState): PlayerState => ({ ...p });

/** The one fixed step both sides run. */
export function stepPlayer(p: PlayerState, input: TickInput, dt: number): void {
  if (input.pressed('Space') && p.y === 0) {
    p.v = 600;
    p.jumps++;
  }
  if (input.held('ArrowRight')) p.x += 240 * dt;
  if (input.held('ArrowLeft')) p.x -= 240 * dt;
  // Math.atan2 is an approximation whose last bits may differ between engines, but it is the
  // same function on both sides of this test, as it is on one platform.
  p.aim = Math.atan2(input.pointerY - p.y, input.pointerX - p.x);
  p.v -= 1800 * dt;
  p.y += p.v * dt;
  if (p.y <= 0) {
    p.y = 0;
    p.v = 0;
  }
}

/** True when `a` and `b` hold the same numbers bit for bit (`Object.is`: -0 and NaN too). */
export function samePlayer(a: PlayerState, b: PlayerState): boolean {
  return (
    Object.is(a.x, b.x) &&
    Object.is(a.y, b.y) &&
    Object.is(a.v, b.v) &&
    Object.is(a.aim, b.aim) &&
    Object.is(a.jumps, b.jumps)
  );
}

/**
 * The client's side: a {@link PredictedSimulation} of one player that records the state after
 * every step it runs, by tick (the last run of each tick wins: a replay overwrites the guess).
 */
export class PredictedPlayer implements PredictedSimulation<PlayerState> {
  readonly state = newPlayer();
  readonly byTick = new Map<number, PlayerState>();
  readonly replayed = new Map<number, PlayerState>();
  replaying = false;

  step(input: TickInput, dt: number, tick: number): void {
    stepPlayer(this.state, input, dt);
    this.byTick.set(tick, copyPlayer(this.state));
    if (this.replaying) this.replayed.set(tick, copyPlayer(this.state));
  }

  restore(state: PlayerState): void {
    Object.assign(this.state, state);
  }

  position(out: Float64Array): void {
    out[0] = this.state.x;
    out[1] = this.state.y;
    out[2] = 0;
  }
}
