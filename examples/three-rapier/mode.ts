/**
 * What the page of examples/three-rapier needs from the mode that runs its world — on the main
 * thread (main-thread-mode.ts) or in a worker (worker-mode.ts) — so that everything else on the
 * page is the same code in both.
 */
import type { InputLatch, InterpolationMode, ThreeFixedLoop } from '@fixedtick/three';
import type { StreamDrawCounts } from '@fixedtick/three/tracking';
import type { Mesh, Vector3 } from 'three';
import type { BodyReadout, PileMeshes } from './pile.ts';
import type { SceneCounts } from './scene-step.ts';
import type { WalkerStatus } from './walker.ts';

/** Where the world runs: `'main'` (RapierPhysics) or `'worker'` (WorkerPhysics). */
export type ModeName = 'main' | 'worker';

/** What the page hands a mode: the loop, the input, the meshes to bind, the settings. */
export interface ModeSetup {
  readonly loop: ThreeFixedLoop;
  readonly input: InputLatch;
  readonly pile: PileMeshes;
  readonly ball: Mesh;
  readonly capsule: Mesh;
  /** Bodies in the pile. */
  readonly count: number;
  /** The tick after whose step the state of every body is hashed. */
  readonly hashTick: number;
}

/** The hash of every body's state after the step of `tick` (see `hashBodies`). */
export interface BodiesHash {
  readonly tick: number;
  readonly value: string;
}

/** A running mode, as the page reads it. */
export interface Mode {
  readonly name: ModeName;
  /**
   * How poses reach the meshes: `'none'` on the main thread (RapierPhysics writes them), else
   * the transport WorkerPhysics chose: `'shared'` memory or `'message'`s.
   */
  readonly transport: string;
  /**
   * Ticks the picture lags main-thread mode's: 0 on the main thread, 1 in a worker (its tick N
   * is ready a frame after the loop ran it, so WorkerPhysics draws one step later).
   */
  readonly drawLag: number;
  /** The pile's bodies and the walker's, as the simulation has them after the last step. */
  readonly readout: BodyReadout;
  readonly counts: Readonly<SceneCounts>;
  readonly walker: Readonly<WalkerStatus>;
  /** The walker's body position after the last step, into `target`. */
  walkerPosition(target: Vector3): Vector3;
  /** Collisions of the projectile so far (started). */
  readonly hits: number;
  /** Bodies asleep after the last step. */
  readonly sleeping: number;
  /** Bound bodies whose meshes were not written this frame (asleep, or not moved). */
  readonly resting: number;
  /** World steps run. */
  readonly steps: number;
  /** `world.timestep` of the last step (a 32-bit float, as Rapier keeps it). */
  readonly timestep: number;
  /** Meshes and instances bound to bodies. */
  readonly bound: number;
  /** The hash at the set-up's `hashTick`, once that tick has been stepped. */
  readonly hash: BodiesHash | null;
  /** How bound meshes are drawn between steps. */
  interpolation: InterpolationMode;
  /**
   * In a worker: the frames its stream drew, by kind (every frame between two published ticks is
   * `interpolated`; `held` past the newest means the worker was late). Null on the main thread.
   */
  readonly streamDrawn: Readonly<StreamDrawCounts> | null;
}
