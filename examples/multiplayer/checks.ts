/**
 * What the multiplayer example measures about itself for its end-to-end test
 * (test/e2e/multiplayer.test.ts), published on `window.__fixedtick`: how the other player was
 * drawn frame by frame against the snapshots that arrived, and how far each prediction was from
 * the server's state for the same tick.
 */
import type { StreamDrawKind } from '@fixedtick/three/tracking';
import type { PlayerState } from './arena.ts';

/** The drawn pose must be the interpolation of the two snapshots within this (m). */
const SAME_POSE = 1e-9;

/**
 * The other player, drawn at each display frame: between two snapshots (`interpolated`) its
 * pose must be theirs interpolated at the render tick, and a new one every frame — the render
 * tick moves on by one display frame's worth, never standing still (a repeated pose) nor
 * jumping ahead (a skipped one).
 */
export class OtherPlayerCheck {
  /** The player checked: the first other player seen. */
  key: string | undefined;
  readonly #snapshots = new Map<number, readonly [number, number]>();
  frames = 0;
  interpolated = 0;
  extrapolated = 0;
  held = 0;
  before = 0;
  /** Interpolated frames whose render tick did not move on from the frame before. */
  repeated = 0;
  /**
   * Interpolated frames whose render tick moved more than 1.5 display frames' worth, but for a
   * frame in which the clock snapped (an error past its `snapMs` corrected at once: counted in
   * `snapFrames` instead).
   */
  skipped = 0;
  snapFrames = 0;
  /** Interpolated frames that drew the same pose as the frame before while the player moved. */
  repeatedPoses = 0;
  /** Interpolated frames whose pose was not the snapshots' interpolation. */
  mismatched = 0;
  maxMismatch = 0;
  /** The first mismatches: render tick, drawn x, the snapshots' x around it. */
  readonly mismatches: number[][] = [];
  /** Smallest and largest render tick step between interpolated frames, per display frame. */
  minStep = Number.POSITIVE_INFINITY;
  maxStep = 0;
  #lastKind: StreamDrawKind = 'empty';
  #lastSnaps = 0;
  #lastTick = Number.NaN;
  #lastX = Number.NaN;
  #lastZ = Number.NaN;
  readonly #ticksPerMs: number;

  constructor(tickRate: number) {
    this.#ticksPerMs = tickRate / 1000;
  }

  /** A snapshot of another player arrived (the first one seen is the one checked). */
  snapshot(key: string, tick: number, x: number, z: number): void {
    this.key ??= key;
    if (key !== this.key) return;
    this.#snapshots.set(tick, [x, z]);
    this.#snapshots.delete(tick - 600);
  }

  /**
   * One display frame `frameMs` long: how the stream drew, where the player's mesh is, and the
   * clock's snaps so far.
   */
  frame(
    stream: { readonly lastDrawn: StreamDrawKind; readonly renderTick: number },
    meshes: ReadonlyMap<string, { readonly position: { x: number; z: number } }>,
    frameMs: number,
    snaps: number,
  ): void {
    const snapped = snaps !== this.#lastSnaps;
    this.#lastSnaps = snaps;
    const mesh = this.key === undefined ? undefined : meshes.get(this.key);
    if (mesh === undefined || stream.lastDrawn === 'empty') return;
    const kind = stream.lastDrawn;
    const tick = stream.renderTick;
    const { x, z } = mesh.position;
    this.frames++;
    this[kind]++;
    if (kind === 'interpolated') {
      const a = this.#snapshots.get(Math.floor(tick));
      const b = this.#snapshots.get(Math.floor(tick) + 1);
      if (a !== undefined && b !== undefined) {
        const t = tick - Math.floor(tick);
        const error = Math.max(
          Math.abs(x - (a[0] + (b[0] - a[0]) * t)),
          Math.abs(z - (a[1] + (b[1] - a[1]) * t)),
        );
        this.maxMismatch = Math.max(this.maxMismatch, error);
        if (error > SAME_POSE) {
          this.mismatched++;
          if (this.mismatches.length < 5) this.mismatches.push([tick, x, a[0], b[0]]);
        }
        if (this.#lastKind === 'interpolated' && frameMs > 0) {
          const step = (tick - this.#lastTick) / (frameMs * this.#ticksPerMs);
          this.minStep = Math.min(this.minStep, step);
          this.maxStep = Math.max(this.maxStep, step);
          if (snapped) this.snapFrames++;
          else if (!(step > 0)) this.repeated++;
          else if (step > 1.5) this.skipped++;
          const moving = a[0] !== b[0] || a[1] !== b[1];
          if (moving && x === this.#lastX && z === this.#lastZ) this.repeatedPoses++;
        }
      }
    }
    this.#lastKind = kind;
    this.#lastTick = tick;
    this.#lastX = x;
    this.#lastZ = z;
  }

  /** Starts the counts over (the test's warm-up is done). */
  reset(): void {
    this.frames = this.interpolated = this.extrapolated = this.held = this.before = 0;
    this.repeated = this.skipped = this.repeatedPoses = this.mismatched = this.snapFrames = 0;
    this.maxMismatch = this.maxStep = 0;
    this.mismatches.length = 0;
    this.minStep = Number.POSITIVE_INFINITY;
  }
}

/**
 * The prediction, each time the server's state for a tick arrives (before the correction): the
 * largest difference between what the client predicted for that tick and the server's state.
 */
export class PredictionCheck {
  compared = 0;
  maxError = 0;
  /** Compared ticks off by more than 1e-6. */
  over = 0;

  compare(_tick: number, predicted: PlayerState, server: PlayerState): void {
    const error = Math.max(
      Math.abs(predicted.x - server.x),
      Math.abs(predicted.z - server.z),
      Math.abs(predicted.hx - server.hx),
      Math.abs(predicted.hz - server.hz),
    );
    this.compared++;
    this.maxError = Math.max(this.maxError, error);
    if (error > 1e-6) this.over++;
  }

  /** Starts the counts over. */
  reset(): void {
    this.compared = this.maxError = this.over = 0;
  }
}
