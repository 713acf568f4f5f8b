/**
 * The reference jump (v0 = 600 px/s up, g = 1800 px/s²) three ways, as a game would write it.
 * Shared by the terminal demo and its test.
 */
import { FixedLoop, semiImplicitEuler } from '../../packages/core/src/index.ts';

/** Peak height and airtime of one jump. */
export interface JumpResult {
  /** Highest point reached, in px. */
  peak: number;
  /** Seconds from take-off until back on the ground. */
  airtime: number;
}

const V0 = 600;
const G = 1800;

/** `y += v` per frame with constants tuned for 60 fps: same peak, wrong speed elsewhere. */
export function perFrame(fps: number): JumpResult {
  const v0PerFrame = V0 / 60;
  const gPerFrame = G / 3600;
  let y = 0;
  let v = v0PerFrame;
  let peak = 0;
  let frames = 0;
  do {
    v -= gPerFrame;
    y += v;
    frames++;
    peak = Math.max(peak, y);
  } while (y > 0);
  return { peak, airtime: frames / fps };
}

/** Semi-implicit Euler with the frame's dt: right speed, height depends on frame rate. */
export function timesDt(fps: number): JumpResult {
  const body = { x: 0, v: V0 };
  let peak = 0;
  let frames = 0;
  do {
    semiImplicitEuler(body, -G, 1 / fps);
    frames++;
    peak = Math.max(peak, body.x);
  } while (body.x > 0);
  return { peak, airtime: frames / fps };
}

/** The same integrator in a 60 Hz FixedLoop fed frames of 1/fps: identical at every rate. */
export function fixed(fps: number, tickRate = 60): JumpResult {
  const loop = new FixedLoop({ tickRate });
  const body = { x: 0, v: V0 };
  let peak = 0;
  let landedAt = Number.NaN;
  loop.onFixedUpdate((dt) => {
    if (!Number.isNaN(landedAt)) return;
    semiImplicitEuler(body, -G, dt);
    peak = Math.max(peak, body.x);
    if (body.x <= 0) landedAt = loop.fixedTime + dt;
  });
  while (Number.isNaN(landedAt)) loop.advance(1 / fps);
  return { peak, airtime: landedAt };
}
