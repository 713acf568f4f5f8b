/**
 * The remote entities of a networked game: tick-stamped pose rows in, the poses to draw at the
 * render tick out, one {@link SnapshotBuffer} per entity.
 *
 * **The seam to the pose store.** {@link RemoteEntities.push} takes exactly what the pose store's
 * *external stream* takes — `(tick, ids, pose rows)`, rows in `PoseBuffer`'s layout — and
 * {@link RemoteEntities.sample} is what such a stream does each frame: draw every entity at one
 * render tick of its own (here `TickClock.renderTick`) rather than at the loop's alpha. A network
 * source therefore feeds the store's external stream with the same call it makes here, and the
 * store's sinks (nodes, instance matrices, thin instances) draw the rows `sample` writes. Until
 * then, read {@link RemoteEntities.poses} and write them to your objects in `preRender`.
 *
 * @example
 * ```ts
 * const remotes = new RemoteEntities({ tickRate: 60 });
 * room.onStateChange((s) => remotes.push(s.tick, ids(s), rows(s)));
 * loop.onPreRender(() => {
 *   remotes.sample(clock.renderTick);
 *   for (const id of remotes.ids) drawAt(meshes.get(id), remotes.poses, remotes.offsetOf(id));
 * });
 * ```
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { checkTickRate, optionError } from '../options.ts';
import {
  DEFAULT_MAX_EXTRAPOLATION_TICKS,
  DEFAULT_SNAPSHOT_CAPACITY,
  type SampleKind,
  SnapshotBuffer,
} from './snapshot-buffer.ts';

/** The row size as a module constant (see snapshot-buffer.ts: read per entity per frame). */
const STRIDE = POSE_STRIDE;

/** An entity's id as the server names it. */
export type EntityId = string | number;

/** Options of {@link RemoteEntities}. */
export interface RemoteEntitiesOptions {
  /**
   * The server's ticks per second (extrapolation runs in its seconds).
   * @defaultValue 60
   */
  tickRate?: number;
  /**
   * Snapshots kept per entity.
   * @defaultValue 32 ({@link DEFAULT_SNAPSHOT_CAPACITY})
   */
  capacity?: number;
  /**
   * How far past its newest snapshot an entity is extrapolated (ticks) before it is held:
   * 100 ms at 60 Hz, long enough to cover a late packet, short enough that a wrong guess stays
   * small.
   * @defaultValue 6
   */
  maxExtrapolationTicks?: number;
}

/** Counts of the last {@link RemoteEntities.sample}, by what each entity's pose was. */
export interface SampleCounts {
  /** Between two snapshots. */
  interpolated: number;
  /** Past the newest, along its velocity. */
  extrapolated: number;
  /** Held: at a teleport, past the extrapolation limit, or with one snapshot. */
  held: number;
  /** Before the oldest snapshot (the render tick is behind everything kept). */
  before: number;
}

/** See the module doc. */
export class RemoteEntities {
  readonly #secondsPerTick: number;
  readonly #capacity: number;
  readonly #maxExtrapolation: number;
  readonly #buffers = new Map<EntityId, SnapshotBuffer>();
  readonly #slots = new Map<EntityId, number>();
  #ids: EntityId[] = [];
  /** The buffers in the order of `#ids`: the per-frame pass walks this, no map lookups. */
  readonly #list: SnapshotBuffer[] = [];
  #poses = new Float64Array(0);
  readonly #counts: SampleCounts = { interpolated: 0, extrapolated: 0, held: 0, before: 0 };

  /** @throws RangeError naming the option for a bad option. */
  constructor(options: RemoteEntitiesOptions = {}) {
    this.#secondsPerTick = checkTickRate(options.tickRate ?? 60);
    this.#capacity = options.capacity ?? DEFAULT_SNAPSHOT_CAPACITY;
    const max = options.maxExtrapolationTicks ?? DEFAULT_MAX_EXTRAPOLATION_TICKS;
    if (typeof max !== 'number' || !(max >= 0) || !Number.isFinite(max)) {
      throw optionError('maxExtrapolationTicks', max, 'a finite number of ticks ≥ 0');
    }
    this.#maxExtrapolation = max;
  }

  /**
   * One snapshot of many entities: for each `ids[i]`, the pose row at
   * `rows[i * POSE_STRIDE ..]`, for server tick `tick`. `teleports[i]` truthy: that entity
   * jumped (never interpolated into). An unknown id starts a new entity. A row that is not
   * newer than the entity's newest is dropped (its buffer counts it).
   */
  push(
    tick: number,
    ids: ArrayLike<EntityId>,
    rows: ArrayLike<number>,
    teleports?: ArrayLike<boolean | number>,
  ): void {
    if (rows.length < ids.length * STRIDE) {
      throw new RangeError(
        `fixedtick: push needs ${ids.length * POSE_STRIDE} numbers for ${ids.length} poses, got ${rows.length}`,
      );
    }
    const known = this.#ids;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      // Servers send their entities in the same order snapshot after snapshot: then the row's
      // index finds the buffer without a map lookup.
      let buffer = known[i] === id ? this.#list[i] : this.#buffers.get(id);
      if (buffer === undefined) {
        buffer = new SnapshotBuffer(this.#capacity);
        this.#buffers.set(id, buffer);
        this.#slots.set(id, this.#ids.length);
        this.#ids.push(id);
        this.#list.push(buffer);
        this.#grow();
      }
      buffer.push(tick, rows, i * STRIDE, teleports !== undefined && Boolean(teleports[i]));
    }
  }

  /** Forgets an entity (it left); its pose row goes to the entity that was last. */
  remove(id: EntityId): boolean {
    const slot = this.#slots.get(id);
    if (slot === undefined) return false;
    const last = this.#ids.length - 1;
    const moved = this.#ids[last];
    this.#ids[slot] = moved;
    this.#list[slot] = this.#list[last];
    this.#slots.set(moved, slot);
    this.#poses.copyWithin(slot * STRIDE, last * STRIDE, (last + 1) * STRIDE);
    this.#ids.pop();
    this.#list.pop();
    this.#slots.delete(id);
    this.#buffers.delete(id);
    return true;
  }

  /**
   * Draws every entity at server tick `renderTick` (fractional) into {@link poses}, each at its
   * {@link offsetOf}; see `SnapshotBuffer.sample` for the rules. Returns the counts of what was
   * drawn how (the same object every call).
   */
  sample(renderTick: number): Readonly<SampleCounts> {
    const counts = this.#counts;
    counts.interpolated = 0;
    counts.extrapolated = 0;
    counts.held = 0;
    counts.before = 0;
    const list = this.#list;
    const poses = this.#poses;
    for (let i = 0; i < list.length; i++) {
      const kind: SampleKind = list[i].sample(
        renderTick,
        poses,
        i * STRIDE,
        this.#maxExtrapolation,
        this.#secondsPerTick,
      );
      if (kind === 'interpolated') counts.interpolated++;
      else if (kind === 'extrapolated') counts.extrapolated++;
      else if (kind === 'held') counts.held++;
      else if (kind === 'before') counts.before++;
    }
    return counts;
  }

  /** The entities, in the order of their rows in {@link poses}. */
  get ids(): readonly EntityId[] {
    return this.#ids;
  }

  /** Pose rows written by {@link sample} (replaced when an entity is added: re-read it). */
  get poses(): Float64Array {
    return this.#poses;
  }

  /** Where `id`'s row starts in {@link poses}, or -1 for an unknown id. */
  offsetOf(id: EntityId): number {
    const slot = this.#slots.get(id);
    return slot === undefined ? -1 : slot * STRIDE;
  }

  /** The snapshot buffer of one entity (undefined for an unknown id). */
  buffer(id: EntityId): SnapshotBuffer | undefined {
    return this.#buffers.get(id);
  }

  #grow(): void {
    const needed = this.#ids.length * STRIDE;
    if (needed <= this.#poses.length) return;
    const next = new Float64Array(Math.max(needed, this.#poses.length * 2));
    next.set(this.#poses);
    this.#poses = next;
  }
}
