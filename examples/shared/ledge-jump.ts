/**
 * The 96 px ledge: one jump (v₀ = 600 px/s, g = 1800 px/s², semi-implicit Euler), three
 * integrations, any display rate. The game state and its rules, shared by the three.js example
 * (examples/three-jump) and the React Three Fiber one (examples/r3f-jump), which differ only in
 * how they wire them to a loop and draw them:
 *
 * - per frame: `vy -= 0.5; y += vy` with constants tuned for 60 fps (a naive game);
 * - dt: `vy -= g * dt; y += vy * dt` with the frame's delta;
 * - fixed: the same semi-implicit Euler in fixed steps at the physics rate, drawn interpolated.
 */
import type { OrthographicCamera } from 'three';
import type { DisplayRate } from './simulated-display.ts';

/** Launch speed, px/s. */
export const V0 = 600;
/** Gravity, px/s². */
export const G = 1800;
/** The naive runner's constants: V0 and G per 60 fps frame (10 px/frame, 0.5 px/frame²). */
const V0_PER_FRAME = V0 / 60;
const G_PER_FRAME = G / 3600;
/** Height of the ledge, px. */
export const LEDGE = 96;
/** Side of a runner's box, px. */
export const BOX = 40;
/** World px the camera must show: the three lanes, from under the ground to above the ledge. */
const SCENE_WIDTH = 800;
const SCENE_HEIGHT = 230;
/** x of each runner's lane, px. */
export const LANE_X = [-230, 0, 230] as const;
/** Real time the runners rest between automatic jumps, ms. */
export const AUTO_JUMP_PAUSE_MS = 700;

/** One runner's state and measurements (exposed as-is to the e2e tests). */
export interface Runner {
  label: string;
  color: string;
  /** Height of the box's bottom above the ground, px. */
  y: number;
  vy: number;
  airborne: boolean;
  /** Highest `y` of the jump under way (or of the last one). */
  peak: number;
  /** Peak of the last completed jump; null before the first landing. */
  lastPeak: number | null;
  /** Game seconds the last completed jump spent in the air. */
  lastAirtime: number | null;
  airtime: number;
  /** Jumps started / landings completed. */
  jumps: number;
  landings: number;
}

/** The three runners, by integration. */
export interface Runners {
  perFrame: Runner;
  dt: Runner;
  fixed: Runner;
}

function runner(label: string, color: string): Runner {
  return {
    label,
    color,
    y: 0,
    vy: 0,
    airborne: false,
    peak: 0,
    lastPeak: null,
    lastAirtime: null,
    airtime: 0,
    jumps: 0,
    landings: 0,
  };
}

/** Three runners at rest. */
export function createRunners(): Runners {
  return {
    perFrame: runner('moved per frame', '#f0a35e'),
    dt: runner('scaled by dt', '#6fa8ff'),
    fixed: runner('fixed steps + interpolation', '#7fd1b9'),
  };
}

/** The runners in lane order (left to right). */
export function inLaneOrder(runners: Runners): Runner[] {
  return [runners.perFrame, runners.dt, runners.fixed];
}

/** Starts a jump if the runner stands on the ground (a press in mid-air does nothing). */
function takeOff(r: Runner, pressed: boolean, vy: number): void {
  if (!pressed || r.airborne) return;
  r.airborne = true;
  r.vy = vy;
  r.peak = 0;
  r.airtime = 0;
  r.jumps++;
}

/** Records the peak and lands the runner when it reaches the ground. */
function afterMove(r: Runner, seconds: number): void {
  if (!r.airborne) return;
  r.airtime += seconds;
  if (r.y > r.peak) r.peak = r.y;
  if (r.y <= 0) {
    r.y = 0;
    r.vy = 0;
    r.airborne = false;
    r.lastPeak = r.peak;
    r.lastAirtime = r.airtime;
    r.landings++;
  }
}

/** One fixed step of the fixed runner (`pressed`: the jump key's press, latched to this tick). */
export function stepFixed(r: Runner, pressed: boolean, dt: number): void {
  takeOff(r, pressed, V0);
  if (r.airborne) {
    r.vy -= G * dt;
    r.y += r.vy * dt;
  }
  afterMove(r, dt);
}

/**
 * One frame of the two per-frame runners (`jump`: the key was pressed this frame). Input first:
 * a press is this frame's whatever the frame's length; a frame that brought no time (the first
 * one, a paused game) moves nothing.
 */
export function stepPerFrame(runners: Runners, jump: boolean, delta: number): void {
  const naive = runners.perFrame;
  const dtRunner = runners.dt;
  takeOff(naive, jump, V0_PER_FRAME);
  takeOff(dtRunner, jump, V0);
  if (delta === 0) return;
  if (naive.airborne) {
    naive.vy -= G_PER_FRAME;
    naive.y += naive.vy;
  }
  afterMove(naive, delta);
  if (dtRunner.airborne) {
    dtRunner.vy -= G * delta;
    dtRunner.y += dtRunner.vy * delta;
  }
  afterMove(dtRunner, delta);
}

/** Puts every runner back on the ground and forgets its measurements. */
export function resetRunners(runners: Runners): void {
  for (const r of inLaneOrder(runners)) {
    r.y = 0;
    r.vy = 0;
    r.airborne = false;
    r.peak = 0;
    r.lastPeak = null;
    r.lastAirtime = null;
  }
}

/** What an orthographic camera shows of the scene on a `width` × `height` px stage. */
export interface ViewBox {
  left: number;
  right: number;
  bottom: number;
  top: number;
  /** Where the lane labels go (just under the ground, world y = -14), % of the stage. */
  labelTop: number;
  labelLeft: readonly number[];
}

/** At least 230 px of height (ground to above the ledge) and 800 px of width, centred. */
export function viewBox(width: number, height: number): ViewBox {
  const viewHeight = Math.max(SCENE_HEIGHT, (SCENE_WIDTH * height) / Math.max(width, 1));
  const viewWidth = (viewHeight * width) / Math.max(height, 1);
  const bottom = -40 - (viewHeight - SCENE_HEIGHT) / 2;
  const top = bottom + viewHeight;
  const left = -viewWidth / 2;
  return {
    left,
    right: viewWidth / 2,
    bottom,
    top,
    labelTop: ((top + 14) / viewHeight) * 100,
    labelLeft: LANE_X.map((x) => ((x - left) / viewWidth) * 100),
  };
}

/**
 * Fits `camera` and the lane labels (the children of `labels`, in lane order) to a `width` ×
 * `height` px stage.
 */
export function fitView(
  camera: OrthographicCamera,
  labels: HTMLElement | null,
  width: number,
  height: number,
): void {
  const view = viewBox(width, height);
  camera.left = view.left;
  camera.right = view.right;
  camera.bottom = view.bottom;
  camera.top = view.top;
  camera.updateProjectionMatrix();
  if (labels === null) return;
  labels.style.top = `${view.labelTop}%`;
  const spans = labels.children;
  for (let i = 0; i < spans.length; i++) {
    (spans[i] as HTMLElement).style.left = `${view.labelLeft[i]}%`;
  }
}

/** The peak a runner's line shows: the jump under way's, else the last one's (null: none). */
export function shownPeak(r: Runner): number | null {
  return r.airborne ? r.peak : r.lastPeak;
}

/** The sentence under the selectors: what the simulated display does. */
export function displayNote(rate: DisplayRate, speed: number, real: string): string {
  if (rate === 'real') return real;
  const slow =
    speed < 0.9 ? ' (this screen cannot show that many frames, so it plays in slow motion)' : '';
  return `Simulated ${rate} fps display: each frame the browser draws feeds the loop a timestamp exactly 1/${rate} s after the last, the same path a real ${rate} Hz display uses. Game speed here: ${speed.toFixed(2)}× real time${slow}.`;
}
