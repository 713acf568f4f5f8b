/**
 * The messages between `WorkerPhysics` (main thread) and `runPhysicsWorker` (the worker), in one
 * place: both sides import these shapes, nothing else crosses the thread boundary.
 *
 * The worker sees the commands in the order the main thread sent them — over one message channel,
 * or, with steps in shared memory, by the counts each side carries (step-channel.ts): a teleport
 * or a user message sent between the steps of ticks N and N + 1 is applied after tick N and before
 * tick N + 1's step code (docs/rapier.md, "Physics in a worker").
 */

import type { TickInputEvent } from '@fixedtick/core/net';

/** The events the input latch delivered to one tick, in order (core/net's shape). */
export type InputEvents = TickInputEvent[];

/**
 * A main → worker message that is ordered with the steps. Over the shared transport, where steps
 * travel in shared memory (step-channel.ts), it carries `steps`: how many steps were written
 * before it.
 */
export type OrderedToWorker =
  /** Step the world once for `tick`, with that tick's input events (message transport). */
  (
    | { type: 'step'; tick: number; fixedDelta: number; input: InputEvents | null }
    /** Tick `tick`'s input events, ahead of its step in shared memory (shared transport). */
    | { type: 'input'; tick: number; input: InputEvents }
    /** Move body `id` before the next step (rotation `null`: keep it). */
    | { type: 'teleport'; id: number; position: number[]; rotation: number[] | null }
    /** A user message for the worker's `onMessage`. */
    | { type: 'message'; data: unknown }
    /** Answer `synced` with `id` once every command before this one is done and published. */
    | { type: 'sync'; id: number }
  ) & { steps?: number };

/** Main → worker. */
export type ToWorker =
  | OrderedToWorker
  /** First message: how to publish poses, and the step channel (shared transport). */
  | { type: 'init'; shared: boolean; capacity: number; steps: SharedArrayBuffer | null }
  /** A frame packet read and handed back for reuse (message transport). */
  | { type: 'recycle'; buffer: ArrayBuffer }
  /** A step was written (to a worker without `Atomics.waitAsync`). */
  | { type: 'wake' };

/** Worker → main. */
export type FromWorker =
  /**
   * Set-up done: the ring to read (`buffer`), or, over messages, frame packets to follow;
   * `wake`: the worker has no `Atomics.waitAsync` and needs a `wake` message after each step.
   */
  | { type: 'ready'; buffer: ArrayBufferLike | null; wake: boolean }
  /** A bigger ring replaces the one before (more bodies than it had room for). */
  | { type: 'ring'; buffer: ArrayBufferLike }
  /** One tick's frame packet (message transport). */
  | { type: 'frame'; buffer: ArrayBuffer }
  /** The user's code threw (`tick`: the tick it was stepping, or the last one stepped). */
  | { type: 'error'; tick: number; name: string; message: string; stack: string }
  /** A user message for the main side's `onMessage`. */
  | { type: 'message'; data: unknown }
  /** The answer to `sync`: the newest tick published. */
  | { type: 'synced'; id: number; tick: number };
