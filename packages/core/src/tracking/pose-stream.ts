/**
 * The external stream source of the pose store: poses that arrive tick-stamped from elsewhere —
 * a physics worker's shared buffer, a server's snapshots — as `(tick, ids, pose rows)`, drawn
 * into tracked nodes and instances (the tracker's sinks) at a render tick of the loop's
 * timeline. docs/tracking.md, "External streams", says how to use it; the tracker's README the
 * states.
 *
 * Ticks are the loop's: a snapshot stamped `tick` is the state after `tick` steps (what
 * `loop.tick` reads after them), on the same tick rate. Each frame the stream draws its bodies at
 * `renderTick = frame.tick + frame.alpha - delay / fixedDelta`, blending the two snapshots
 * around it with the mode kernels; before the oldest it holds the oldest. The default delay, one
 * step, is exactly the loop's own interpolation (drawn at the loop's alpha, one step behind); a
 * worker one tick behind takes two. A source on a timeline of its own — a server's ticks — gives
 * the render tick instead (`clock`: `TickClock`, whose render delay adapts to the measured
 * jitter), and `delay` is then not used.
 *
 * Past the newest snapshot the stream extrapolates along the motion between the last two, with
 * the `'extrapolate'` mode's kernel, for at most `maxExtrapolation` seconds (0 by default: it
 * holds the newest), then holds there: a late snapshot costs a short guess, never a run-away.
 * Every body of a stream shares the render tick, so one frame draws all of them the same way:
 * `lastDrawn` says how, `drawnFrames` counts it.
 *
 * A teleport travels with its snapshot: an id listed as teleported at tick `t` is not blended
 * from the snapshot before — it shows the old pose until the render tick reaches `t`, then the
 * new one.
 */
import { extrapolateRow } from '../interpolation/extrapolate.ts';
import { CLOCK_ALPHA, CLOCK_FIXED_DELTA, POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { copyRow } from './components.ts';
import { EXTRAPOLATES, INTERPOLATES, STREAMED } from './slot-states.ts';
import { StreamSnapshots } from './stream-snapshots.ts';
import { checkRenderTickSource, checkStreamSeconds } from './track-options.ts';
import type { StreamSource, TrackerState } from './tracker-state.ts';

/** The extrapolation kernel's velocity rows, unused: a stream extrapolates from its poses. */
const NO_VELOCITY = new Float64Array(0);

/** Options of {@link PoseStream} (`Tracker.stream`). */
export interface PoseStreamOptions {
  /**
   * How far behind the loop's present the stream is drawn, in seconds: one step draws it at the
   * loop's alpha, like the loop's own bodies.
   * @defaultValue one step (`fixedDelta`)
   */
  delay?: number;
  /**
   * Snapshots kept to draw from (the render tick must fall among them).
   * @defaultValue 8
   */
  history?: number;
  /**
   * The render tick's source when the stream's ticks are not the loop's (a server's): read
   * once per frame, `delay` then unused. `TickClock` is one.
   * @defaultValue none: the loop's tick and alpha, minus `delay`
   */
  clock?: RenderTickSource;
  /**
   * How long past its newest snapshot the stream extrapolates (seconds) before it holds: a
   * late server snapshot is covered by a short guess along the last motion.
   * @defaultValue 0 (hold the newest)
   */
  maxExtrapolation?: number;
}

/** A source of the render tick on the stream's timeline (`TickClock.renderTick`). */
export interface RenderTickSource {
  /** The (fractional) tick to draw now. */
  readonly renderTick: number;
}

/** How a stream's last frame drew its bodies (all of them share the render tick). */
export type StreamDrawKind = 'empty' | 'before' | 'interpolated' | 'extrapolated' | 'held';

/** Frames a stream drew, by {@link StreamDrawKind} (empty frames are not counted). */
export interface StreamDrawCounts {
  /** Between two snapshots. */
  interpolated: number;
  /** Past the newest, along the last motion (and held where `maxExtrapolation` ends it). */
  extrapolated: number;
  /** Past the newest and held there: no extrapolation asked, or a single snapshot. */
  held: number;
  /** Before the oldest snapshot kept (the render tick fell out of `history`). */
  before: number;
}

/** How a stream id is drawn: the tracker slot it fills. */
interface Binding {
  readonly id: number;
  readonly slot: number;
}

/** An external stream of tick-stamped poses feeding tracked slots; see the module doc. */
export class PoseStream<Node extends object> implements StreamSource {
  readonly #state: TrackerState<Node>;
  readonly #slotFor: (node: Node, index: number) => number;
  #delay: number | undefined;
  /** Stream id → its binding's index (its column in the snapshots). */
  readonly #index = new Map<number, number>();
  #bindings: Binding[] = [];
  readonly #snapshots: StreamSnapshots;
  #source: RenderTickSource | undefined;
  #maxExtrapolation: number;
  /** The stream's own render clock for the kernels (`alpha`: between or past its snapshots). */
  readonly #kernelClock = { alpha: 0, fixedDelta: 0 };
  /** The same for the extrapolation kernel, in its layout. */
  readonly #extrapolationClock = new Float64Array(2);
  /** The slots a frame blends, for the kernels' loops. */
  #list = new Int32Array(0);
  #renderTick = Number.NaN;
  #lastDrawn: StreamDrawKind = 'empty';
  readonly #drawn: StreamDrawCounts = { interpolated: 0, extrapolated: 0, held: 0, before: 0 };

  /**
   * Made by `Tracker.stream`.
   * @internal
   */
  constructor(
    state: TrackerState<Node>,
    slotFor: (node: Node, index: number) => number,
    options: PoseStreamOptions,
  ) {
    this.#slotFor = slotFor;
    const { delay, history = 8, clock, maxExtrapolation = 0 } = options;
    if (!(Number.isInteger(history) && history >= 2 && history <= 1024)) {
      throw new RangeError(
        `fixedtick: option "history" must be a whole number from 2 to 1024, got ${String(history)}`,
      );
    }
    this.#state = state;
    this.#delay = checkStreamSeconds('delay', delay);
    this.#maxExtrapolation = checkStreamSeconds('maxExtrapolation', maxExtrapolation) ?? 0;
    this.#source = checkRenderTickSource(clock);
    this.#snapshots = new StreamSnapshots(history);
  }

  /** Seconds behind the loop's present the stream is drawn (`undefined`: one step). Live. */
  get delay(): number | undefined {
    return this.#delay;
  }
  set delay(value: number | undefined) {
    this.#delay = checkStreamSeconds('delay', value);
  }

  /** The render tick's source (`undefined`: the loop's tick minus `delay`). Live. */
  get clock(): RenderTickSource | undefined {
    return this.#source;
  }
  set clock(value: RenderTickSource | undefined) {
    this.#source = checkRenderTickSource(value);
  }

  /** Seconds past the newest snapshot the stream extrapolates before it holds. Live. */
  get maxExtrapolation(): number {
    return this.#maxExtrapolation;
  }
  set maxExtrapolation(value: number) {
    this.#maxExtrapolation = checkStreamSeconds('maxExtrapolation', value) ?? 0;
  }

  /** The render tick of the last frame drawn (NaN before the first). */
  get renderTick(): number {
    return this.#renderTick;
  }

  /** How the last frame drew the stream's bodies. */
  get lastDrawn(): StreamDrawKind {
    return this.#lastDrawn;
  }

  /** Frames drawn so far, by kind (the same object, updated each frame). */
  get drawnFrames(): Readonly<StreamDrawCounts> {
    return this.#drawn;
  }

  /** The tick of the newest snapshot, or NaN before the first. */
  get newestTick(): number {
    const snapshots = this.#snapshots;
    return snapshots.newest < 0 ? Number.NaN : snapshots.ticks[snapshots.newest];
  }

  /** Snapshots pushed with a tick older than the newest one (and dropped). */
  get lateSnapshots(): number {
    return this.#snapshots.late;
  }

  /** The stream ids bound to a slot, in binding order. */
  get ids(): number[] {
    return this.#bindings.map((binding) => binding.id);
  }

  /**
   * Draws stream id `id` into `node` from now on — or, with `index`, into that tracked instance
   * of the instanced mesh `node`. A node not tracked yet is tracked. Its pose until the first
   * snapshot that names it is the one it has now. Binding a bound id moves it.
   */
  bind(id: number, node: Node, index = -1): void {
    if (!Number.isFinite(id)) {
      throw new RangeError(`fixedtick: option "id" must be a finite number, got ${String(id)}`);
    }
    const slot = this.#slotFor(node, index);
    const state = this.#state;
    if (this.#index.has(id)) this.unbind(id);
    const column = this.#bindings.length;
    this.#bindings = [...this.#bindings, { id, slot }];
    this.#index.set(id, column);
    this.#snapshots.widen(this.#bindings.length);
    // every snapshot held so far shows the slot where it is now
    this.#snapshots.fillColumn(column, state.poses.current, slot * POSE_STRIDE);
    state.slots.flags[slot] |= STREAMED;
    state.slots.wake(slot);
  }

  /** Stops drawing `id` (its slot goes back to its node's own poses); false if it was not bound. */
  unbind(id: number): boolean {
    const column = this.#index.get(id);
    if (column === undefined) return false;
    const slot = this.#bindings[column].slot;
    this.#state.slots.flags[slot] &= ~STREAMED;
    this.#state.slots.wake(slot);
    this.#drop(column);
    return true;
  }

  /** Forgets the binding of `slot`, which the tracker freed. @internal */
  released(slot: number): void {
    const column = this.#bindings.findIndex((binding) => binding.slot === slot);
    if (column >= 0) this.#drop(column);
  }

  /**
   * Takes the poses of tick `tick`: `rows` holds ten numbers per id of `ids` (position,
   * quaternion, scale: the pose-row layout), in the space the bound node stores. Ids not bound
   * are skipped; bound ids not named keep their pose of the snapshot before. `teleported` lists
   * the ids that jumped at this tick (not blended from the snapshot before). A tick older than
   * the newest is dropped (counted in `lateSnapshots`); the newest tick again replaces it.
   */
  push(
    tick: number,
    ids: ArrayLike<number>,
    rows: ArrayLike<number>,
    teleported?: ArrayLike<number>,
  ): void {
    if (!Number.isFinite(tick)) {
      throw new RangeError(`fixedtick: option "tick" must be a finite number, got ${String(tick)}`);
    }
    if (rows.length < ids.length * POSE_STRIDE) {
      throw new RangeError(
        `fixedtick: option "rows" must hold ${POSE_STRIDE} numbers per id (${ids.length * POSE_STRIDE}), got ${rows.length}`,
      );
    }
    const snapshots = this.#snapshots;
    const at = snapshots.open(tick);
    if (at < 0) return;
    const base = at * snapshots.columns;
    const target = snapshots.rows;
    for (let k = 0; k < ids.length; k++) {
      const column = this.#index.get(ids[k]);
      if (column === undefined) continue;
      const to = (base + column) * POSE_STRIDE;
      for (let n = 0; n < POSE_STRIDE; n++) target[to + n] = rows[k * POSE_STRIDE + n];
    }
    if (teleported === undefined) return;
    for (let k = 0; k < teleported.length; k++) {
      const column = this.#index.get(teleported[k]);
      if (column !== undefined) snapshots.teleported[base + column] = 1;
    }
  }

  /**
   * Fills the previous, current and output rows of every bound slot for the frame's render tick
   * (see the module doc). The tracker's interpolation pass then writes the outputs to their
   * nodes and instances. Allocates nothing. @internal
   */
  draw(frame: {
    readonly tick: number;
    readonly alpha: number;
    readonly fixedDelta: number;
  }): void {
    const bindings = this.#bindings;
    const snapshots = this.#snapshots;
    if (bindings.length === 0 || snapshots.newest < 0) return;
    const source = this.#source;
    const renderTick =
      source !== undefined
        ? source.renderTick
        : frame.tick +
          frame.alpha -
          (this.#delay === undefined ? 1 : this.#delay / frame.fixedDelta);
    this.#renderTick = renderTick;
    const ticks = snapshots.ticks;
    const newest = snapshots.newest;
    // the two snapshots around the render tick, walking the ring back from the newest
    let after = newest;
    let before = after;
    for (let n = 1; n < snapshots.count && ticks[before] > renderTick; n++) {
      after = before;
      before = snapshots.back(n);
    }
    let kind: Exclude<StreamDrawKind, 'empty'>;
    let t = 0;
    if (ticks[before] > renderTick) {
      kind = 'before'; // older than every snapshot: hold the oldest
      after = before;
    } else if (before !== after) {
      kind = 'interpolated';
      t = (renderTick - ticks[before]) / (ticks[after] - ticks[before]);
    } else if (renderTick > ticks[newest] && this.#maxExtrapolation > 0 && snapshots.count > 1) {
      // past the newest: the last two snapshots' motion, continued up to the limit
      kind = 'extrapolated';
      before = snapshots.back(1);
      const span = ticks[newest] - ticks[before];
      const limit = this.#maxExtrapolation / frame.fixedDelta;
      t = Math.min(renderTick - ticks[newest], limit) / span;
    } else {
      kind = 'held';
    }
    this.#lastDrawn = kind;
    this.#drawn[kind]++;
    // the kernels' clocks are set here: a fractional argument to a call V8 does not inline
    // is a heap number per frame
    this.#kernelClock.alpha = t;
    this.#kernelClock.fixedDelta = frame.fixedDelta;
    this.#extrapolationClock[CLOCK_ALPHA] = t;
    this.#extrapolationClock[CLOCK_FIXED_DELTA] = frame.fixedDelta;
    this.#fill(before, after, kind, t >= 1);
  }

  /**
   * Copies snapshots `before` and `after` into the bound slots' previous and current rows and
   * writes their outputs: blended at the kernels' alpha `t` (interpolated), advanced `t` spans
   * past `after` (extrapolated), or `after` as it is. A body in `'none'` mode steps; one that
   * teleported at `after` is not blended (the pose before until `t` reaches 1: `reached`) nor
   * extrapolated.
   */
  #fill(before: number, after: number, kind: StreamDrawKind, reached: boolean): void {
    const bindings = this.#bindings;
    const poses = this.#state.poses;
    const { previous, current, output } = poses;
    const flags = this.#state.slots.flags;
    const { columns, rows, teleported } = this.#snapshots;
    if (this.#list.length < bindings.length) this.#list = new Int32Array(columns);
    const list = this.#list;
    const blends = kind === 'interpolated' || kind === 'extrapolated';
    let count = 0;
    for (let column = 0; column < bindings.length; column++) {
      const slot = bindings[column].slot;
      const r = slot * POSE_STRIDE;
      copyRow(previous, r, rows, (before * columns + column) * POSE_STRIDE);
      copyRow(current, r, rows, (after * columns + column) * POSE_STRIDE);
      const stepped =
        !blends ||
        (flags[slot] & (INTERPOLATES | EXTRAPOLATES)) === 0 ||
        teleported[after * columns + column] === 1;
      if (!stepped) list[count++] = slot;
      else copyRow(output, r, kind === 'interpolated' && !reached ? previous : current, r);
    }
    if (count === 0) return;
    if (kind === 'interpolated') {
      poses.setClock(this.#kernelClock);
      poses.interpolateList(list, count);
      return;
    }
    // past the newest: the 'extrapolate' kernel along previous → current, whatever the mode
    const kernelClock = this.#extrapolationClock;
    for (let k = 0; k < count; k++) {
      extrapolateRow(previous, current, output, NO_VELOCITY, false, list[k], kernelClock);
    }
  }

  /** Removes binding `column`: the last one moves into its place. */
  #drop(column: number): void {
    const bindings = this.#bindings;
    const last = bindings.length - 1;
    this.#index.delete(bindings[column].id);
    if (column !== last) {
      const moved = bindings[last];
      this.#index.set(moved.id, column);
      this.#snapshots.moveColumn(column, last);
    }
    const next = bindings.slice(0, last);
    if (column !== last) next[column] = bindings[last];
    this.#bindings = next;
  }
}
