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
 * around it with the mode kernels; past the newest it holds the newest, before the oldest the
 * oldest. The default delay, one step, is exactly the loop's own interpolation (drawn at the
 * loop's alpha, one step behind); a worker one tick behind takes two, a server's snapshots
 * their interval plus the jitter to ride out.
 *
 * A teleport travels with its snapshot: an id listed as teleported at tick `t` is not blended
 * from the snapshot before — it shows the old pose until the render tick reaches `t`, then the
 * new one.
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { copyRow } from './components.ts';
import { EXTRAPOLATES, INTERPOLATES, STREAMED } from './slot-states.ts';
import type { StreamSource, TrackerState } from './tracker-state.ts';

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
  readonly #history: number;
  #delay: number | undefined;
  /** Stream id → its binding's index (its column in the snapshots). */
  readonly #index = new Map<number, number>();
  #bindings: Binding[] = [];
  /** By snapshot (ring): its tick; NaN while empty. */
  readonly #ticks: Float64Array;
  /** By snapshot × binding: its pose row. */
  #rows = new Float64Array(0);
  /** By snapshot × binding: 1 if the body teleported at that snapshot. */
  #teleported = new Uint8Array(0);
  /** The ring position of the newest snapshot; -1 before the first. */
  #newest = -1;
  #count = 0;
  /** Snapshots refused because they were older than the newest one. */
  #late = 0;
  /** The stream's own render clock for the kernel (`alpha`: between its two snapshots). */
  readonly #clock = { alpha: 0, fixedDelta: 0 };
  /** A list of one slot, for the kernel's loop. */
  readonly #one = new Int32Array(1);

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
    const { delay, history = 8 } = options;
    if (delay !== undefined && !(typeof delay === 'number' && delay >= 0 && delay <= 1e9)) {
      throw new RangeError(
        `fixedtick: option "delay" must be a number of seconds from 0 to 1e9, got ${String(delay)}`,
      );
    }
    if (!(Number.isInteger(history) && history >= 2 && history <= 1024)) {
      throw new RangeError(
        `fixedtick: option "history" must be a whole number from 2 to 1024, got ${String(history)}`,
      );
    }
    this.#state = state;
    this.#delay = delay;
    this.#history = history;
    this.#ticks = new Float64Array(history).fill(Number.NaN);
  }

  /** Seconds behind the loop's present the stream is drawn (`undefined`: one step). Live. */
  get delay(): number | undefined {
    return this.#delay;
  }
  set delay(value: number | undefined) {
    if (value !== undefined && !(value >= 0 && value <= 1e9)) {
      throw new RangeError(
        `fixedtick: option "delay" must be a number of seconds from 0 to 1e9, got ${String(value)}`,
      );
    }
    this.#delay = value;
  }

  /** The tick of the newest snapshot, or NaN before the first. */
  get newestTick(): number {
    return this.#newest < 0 ? Number.NaN : this.#ticks[this.#newest];
  }

  /** Snapshots pushed with a tick older than the newest one (and dropped). */
  get lateSnapshots(): number {
    return this.#late;
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
    this.#widen(this.#bindings.length);
    // every snapshot held so far shows the slot where it is now
    const current = state.poses.current;
    for (let s = 0; s < this.#history; s++) {
      copyRow(this.#rows, (s * this.#columns + column) * POSE_STRIDE, current, slot * POSE_STRIDE);
    }
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
    const newest = this.#newest;
    let at = newest;
    if (newest < 0 || tick > this.#ticks[newest]) {
      at = (newest + 1) % this.#history;
      this.#count = Math.min(this.#count + 1, this.#history);
      const columns = this.#columns;
      // unnamed bodies keep their pose of the snapshot before; nobody teleported yet
      if (newest >= 0) {
        this.#rows.copyWithin(
          at * columns * POSE_STRIDE,
          newest * columns * POSE_STRIDE,
          (newest + 1) * columns * POSE_STRIDE,
        );
      }
      this.#teleported.fill(0, at * columns, (at + 1) * columns);
      this.#ticks[at] = tick;
      this.#newest = at;
    } else if (tick < this.#ticks[newest]) {
      this.#late++;
      return;
    }
    const base = at * this.#columns;
    const target = this.#rows;
    for (let k = 0; k < ids.length; k++) {
      const column = this.#index.get(ids[k]);
      if (column === undefined) continue;
      const to = (base + column) * POSE_STRIDE;
      for (let n = 0; n < POSE_STRIDE; n++) target[to + n] = rows[k * POSE_STRIDE + n];
    }
    if (teleported === undefined) return;
    for (let k = 0; k < teleported.length; k++) {
      const column = this.#index.get(teleported[k]);
      if (column !== undefined) this.#teleported[base + column] = 1;
    }
  }

  /**
   * Fills the previous, current and output rows of every bound slot for the frame's render tick
   * (see the module doc). The tracker's interpolation pass then writes the outputs to their
   * nodes and instances. @internal
   */
  draw(frame: {
    readonly tick: number;
    readonly alpha: number;
    readonly fixedDelta: number;
  }): void {
    const bindings = this.#bindings;
    if (bindings.length === 0 || this.#newest < 0) return;
    const delaySteps = this.#delay === undefined ? 1 : this.#delay / frame.fixedDelta;
    const renderTick = frame.tick + frame.alpha - delaySteps;
    const ticks = this.#ticks;
    // the two snapshots around the render tick, walking the ring back from the newest
    let after = this.#newest;
    let before = after;
    for (let n = 1; n < this.#count && ticks[before] > renderTick; n++) {
      after = before;
      before = (this.#newest - n + this.#history) % this.#history;
    }
    // older than every snapshot: hold the oldest
    if (ticks[before] > renderTick) after = before;
    const from = ticks[before];
    const to = ticks[after];
    const t = to > from ? Math.min(1, (renderTick - from) / (to - from)) : 0;
    const poses = this.#state.poses;
    const { previous, current, output } = poses;
    const flags = this.#state.slots.flags;
    const columns = this.#columns;
    const clock = this.#clock;
    clock.fixedDelta = frame.fixedDelta;
    for (let column = 0; column < bindings.length; column++) {
      const slot = bindings[column].slot;
      const r = slot * POSE_STRIDE;
      copyRow(previous, r, this.#rows, (before * columns + column) * POSE_STRIDE);
      copyRow(current, r, this.#rows, (after * columns + column) * POSE_STRIDE);
      // a teleport at `after` is not blended, nor is a body in 'none' mode: the pose before
      // until the tick of `after`, then its pose
      const stepped =
        (flags[slot] & (INTERPOLATES | EXTRAPOLATES)) === 0 ||
        (before !== after && this.#teleported[after * columns + column] === 1);
      if (stepped) {
        copyRow(output, r, t >= 1 ? current : previous, r);
        continue;
      }
      clock.alpha = t;
      poses.setClock(clock);
      this.#one[0] = slot;
      poses.interpolateList(this.#one, 1);
    }
  }

  /** Snapshot columns allocated (bindings fit in them). */
  get #columns(): number {
    return this.#teleported.length / this.#history;
  }

  /** Makes room for `needed` bindings in every snapshot, keeping what is there. */
  #widen(needed: number): void {
    const columns = this.#columns;
    if (needed <= columns) return;
    const next = Math.max(8, columns * 2, needed);
    const rows = new Float64Array(this.#history * next * POSE_STRIDE);
    const teleported = new Uint8Array(this.#history * next);
    for (let s = 0; s < this.#history; s++) {
      rows.set(
        this.#rows.subarray(s * columns * POSE_STRIDE, (s + 1) * columns * POSE_STRIDE),
        s * next * POSE_STRIDE,
      );
      teleported.set(this.#teleported.subarray(s * columns, (s + 1) * columns), s * next);
    }
    this.#rows = rows;
    this.#teleported = teleported;
  }

  /** Removes binding `column`: the last one moves into its place. */
  #drop(column: number): void {
    const bindings = this.#bindings;
    const last = bindings.length - 1;
    this.#index.delete(bindings[column].id);
    if (column !== last) {
      const moved = bindings[last];
      this.#index.set(moved.id, column);
      const columns = this.#columns;
      for (let s = 0; s < this.#history; s++) {
        copyRow(
          this.#rows,
          (s * columns + column) * POSE_STRIDE,
          this.#rows,
          (s * columns + last) * POSE_STRIDE,
        );
        this.#teleported[s * columns + column] = this.#teleported[s * columns + last];
      }
    }
    const next = bindings.slice(0, last);
    if (column !== last) next[column] = bindings[last];
    this.#bindings = next;
  }
}
