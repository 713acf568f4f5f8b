/**
 * The remote entities of a networked game, drawn through the pose store: tick-stamped pose rows
 * in, named by the server's ids; one external stream (`Tracker.stream`, docs/tracking.md,
 * "External streams") out, drawn at the {@link TickClock}'s render tick into the nodes and
 * instances the entities spawn as.
 *
 * Why: a server's snapshots arrive in steps, late by a varying amount, and sometimes not at all.
 * Drawn a render delay behind the newest — the clock's, sized from the measured jitter — an
 * entity is interpolated between two snapshots that both arrived; when the next one is late it
 * is extrapolated along its last motion for at most `maxExtrapolation`, then held, never snapped
 * back and forth; a snapshot flagged as a teleport is never blended into. All of that is the
 * stream's: the snapshots of a tick lie side by side in one ring, and the frame pass draws them
 * with the mode kernels into the tracker's sinks, allocating nothing. This class adds what a
 * server's names need: ids of any kind mapped to stream ids, an entity spawned at its first
 * snapshot and despawned when it leaves.
 *
 * @example
 * ```ts
 * const clock = new TickClock({ tickRate: 60 });
 * const remotes = new RemoteEntities(loop.tracker, { clock, spawn: (id) => addBox(scene) });
 * room.onStateChange((s) => remotes.push(s.tick, ids(s), rows(s)));
 * loop.onFrameStart(() => clock.update(performance.now())); // the loop draws them each frame
 * ```
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import type { PoseStream, PoseStreamOptions, RenderTickSource } from '../tracking/pose-stream.ts';
import { kindError } from '../tracking/track-options.ts';

/** An entity's id as the server names it. */
export type EntityId = string | number;

/** Where an entity is drawn: a node, or `[instanced mesh, instance index]`. */
export type EntityTarget<Node> = Node | readonly [Node, number];

/** Options of {@link RemoteEntities}. */
export interface RemoteEntitiesOptions<Node> {
  /** The render tick in server ticks, read once per frame: a {@link TickClock}. */
  clock: RenderTickSource;
  /**
   * Gives the node (or instance) a new entity is drawn into, at its first snapshot; `pose` is
   * that snapshot's row (position, quaternion, scale). The entity shows the node's pose at that
   * moment until the render tick reaches its first snapshot: put it there, or hide it.
   */
  spawn: (id: EntityId, pose: Float64Array) => EntityTarget<Node>;
  /** Called when an entity is removed, with what `spawn` gave (the stream no longer draws it). */
  despawn?: (id: EntityId, target: EntityTarget<Node>) => void;
  /**
   * Snapshots kept: over half a second at 60 snapshots per second, twice the render delay of a
   * very jittery link.
   * @defaultValue 32
   */
  history?: number;
  /**
   * How long past the newest snapshot entities are extrapolated (seconds) before they are held:
   * long enough to cover a late packet, short enough that a wrong guess stays small.
   * @defaultValue 0.1 (6 ticks at 60 Hz)
   */
  maxExtrapolation?: number;
}

/** What {@link RemoteEntities} needs of a tracker: its external streams. */
export interface StreamFactory<Node extends object> {
  /** `Tracker.stream`. */
  stream(options: PoseStreamOptions): PoseStream<Node>;
}

/** See the module doc. */
export class RemoteEntities<Node extends object> {
  /** The pose store's stream the entities are drawn through (its counts, its render tick). */
  readonly stream: PoseStream<Node>;
  readonly #spawn: RemoteEntitiesOptions<Node>['spawn'];
  readonly #despawn: RemoteEntitiesOptions<Node>['despawn'];
  /** Entity id → its stream id. */
  readonly #streamIds = new Map<EntityId, number>();
  readonly #targets = new Map<EntityId, EntityTarget<Node>>();
  #nextStreamId = 0;
  /** The ids of the last snapshot and their stream ids, in its order (the per-snapshot fast path). */
  readonly #lastIds: EntityId[] = [];
  readonly #lastStreamIds: number[] = [];
  readonly #spawned: number[] = [];
  readonly #teleported: number[] = [];
  readonly #row = new Float64Array(POSE_STRIDE);

  /**
   * Draws through a new stream of `tracker` (`loop.tracker`).
   * @throws TypeError for a tracker or a `spawn` of the wrong kind; RangeError for a bad option.
   */
  constructor(tracker: StreamFactory<Node>, options: RemoteEntitiesOptions<Node>) {
    if (typeof tracker?.stream !== 'function') {
      throw kindError('tracker', tracker, 'a Tracker (loop.tracker)');
    }
    if (typeof options?.spawn !== 'function') {
      throw kindError('spawn', options?.spawn, 'a function (id, pose) => node');
    }
    this.stream = tracker.stream({
      clock: options.clock,
      history: options.history ?? 32,
      maxExtrapolation: options.maxExtrapolation ?? 0.1,
    });
    this.#spawn = options.spawn;
    this.#despawn = options.despawn;
  }

  /**
   * One snapshot of many entities for server tick `tick`: for each `ids[i]`, the pose row at
   * `rows[i * POSE_STRIDE ..]`. `teleports[i]` truthy: that entity jumped (never blended into).
   * An unknown id spawns a new entity. A tick older than the newest is dropped
   * (`stream.lateSnapshots`); an entity a snapshot does not name keeps its pose.
   */
  push(
    tick: number,
    ids: ArrayLike<EntityId>,
    rows: ArrayLike<number>,
    teleports?: ArrayLike<boolean | number>,
  ): void {
    if (rows.length < ids.length * POSE_STRIDE) {
      throw new RangeError(
        `fixedtick: push needs ${ids.length * POSE_STRIDE} numbers for ${ids.length} poses, got ${rows.length}`,
      );
    }
    const lastIds = this.#lastIds;
    const streamIds = this.#lastStreamIds;
    const spawned = this.#spawned;
    const teleported = this.#teleported;
    spawned.length = 0;
    teleported.length = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      // servers send their entities in the same order snapshot after snapshot: then the row's
      // index finds the stream id without a map lookup
      if (lastIds[i] === id) continue;
      let streamId = this.#streamIds.get(id);
      if (streamId === undefined) {
        streamId = this.#add(id, rows, i * POSE_STRIDE);
        spawned.push(streamId);
      }
      lastIds[i] = id;
      streamIds[i] = streamId;
    }
    lastIds.length = ids.length;
    streamIds.length = ids.length;
    if (teleports !== undefined) {
      for (let i = 0; i < ids.length; i++) if (teleports[i]) teleported.push(streamIds[i]);
    }
    // a new entity appears at its first snapshot, not blended from wherever its node was
    for (let i = 0; i < spawned.length; i++) teleported.push(spawned[i]);
    this.stream.push(tick, streamIds, rows, teleported);
  }

  /** Forgets an entity (it left): the stream stops drawing it, `despawn` is called. */
  remove(id: EntityId): boolean {
    const streamId = this.#streamIds.get(id);
    if (streamId === undefined) return false;
    this.stream.unbind(streamId);
    this.#streamIds.delete(id);
    const target = this.#targets.get(id) as EntityTarget<Node>;
    this.#targets.delete(id);
    // the next snapshot takes the slow path once
    this.#lastIds.length = 0;
    this.#despawn?.(id, target);
    return true;
  }

  /** The entities drawn, in the order they spawned. */
  get ids(): EntityId[] {
    return [...this.#streamIds.keys()];
  }

  /** What entity `id` is drawn into (undefined for an unknown id). */
  targetOf(id: EntityId): EntityTarget<Node> | undefined {
    return this.#targets.get(id);
  }

  /** Spawns entity `id` at the row `rows[at ..]` and binds it; returns its stream id. */
  #add(id: EntityId, rows: ArrayLike<number>, at: number): number {
    const row = this.#row;
    for (let k = 0; k < POSE_STRIDE; k++) row[k] = rows[at + k];
    const target = this.#spawn(id, row);
    const streamId = this.#nextStreamId++;
    if (Array.isArray(target)) this.stream.bind(streamId, target[0], target[1]);
    else this.stream.bind(streamId, target as Node);
    this.#streamIds.set(id, streamId);
    this.#targets.set(id, target);
    return streamId;
  }
}
