/**
 * The snapshots an external stream keeps (pose-stream.ts): a ring of `history` ticks, each with
 * the pose rows of every bound body side by side — a tick's rows are contiguous, so a frame reads
 * two runs of memory whatever the number of bodies — and their teleport flags. A column is one
 * of the stream's bindings.
 * @internal
 */
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { copyRow } from './components.ts';

/** See the module doc. @internal */
export class StreamSnapshots {
  /** Snapshots kept. */
  readonly history: number;
  /** By snapshot (ring): its tick; NaN while empty. */
  readonly ticks: Float64Array;
  /** By snapshot × column: its pose row. */
  rows = new Float64Array(0);
  /** By snapshot × column: 1 if the body teleported at that snapshot. */
  teleported = new Uint8Array(0);
  /** The ring position of the newest snapshot; -1 before the first. */
  newest = -1;
  /** Snapshots held (at most `history`). */
  count = 0;
  /** Snapshots refused because they were older than the newest one. */
  late = 0;

  constructor(history: number) {
    this.history = history;
    this.ticks = new Float64Array(history).fill(Number.NaN);
  }

  /** Columns allocated (the bindings fit in them). */
  get columns(): number {
    return this.teleported.length / this.history;
  }

  /** The ring position `n` snapshots before the newest. */
  back(n: number): number {
    return (this.newest - n + this.history) % this.history;
  }

  /**
   * The ring position where the rows of `tick` go: a new snapshot for a newer tick (unnamed
   * bodies keep their pose of the snapshot before; nobody teleported yet), the newest for the
   * same tick, -1 for an older one (counted in `late`).
   */
  open(tick: number): number {
    const newest = this.newest;
    if (newest >= 0 && tick === this.ticks[newest]) return newest;
    if (newest >= 0 && tick < this.ticks[newest]) {
      this.late++;
      return -1;
    }
    const at = (newest + 1) % this.history;
    this.count = Math.min(this.count + 1, this.history);
    const width = this.columns * POSE_STRIDE;
    if (newest >= 0) this.rows.copyWithin(at * width, newest * width, (newest + 1) * width);
    this.teleported.fill(0, at * this.columns, (at + 1) * this.columns);
    this.ticks[at] = tick;
    this.newest = at;
    return at;
  }

  /** Makes room for `needed` columns in every snapshot, keeping what is there. */
  widen(needed: number): void {
    const columns = this.columns;
    if (needed <= columns) return;
    const next = Math.max(8, columns * 2, needed);
    const rows = new Float64Array(this.history * next * POSE_STRIDE);
    const teleported = new Uint8Array(this.history * next);
    for (let s = 0; s < this.history; s++) {
      rows.set(
        this.rows.subarray(s * columns * POSE_STRIDE, (s + 1) * columns * POSE_STRIDE),
        s * next * POSE_STRIDE,
      );
      teleported.set(this.teleported.subarray(s * columns, (s + 1) * columns), s * next);
    }
    this.rows = rows;
    this.teleported = teleported;
  }

  /** Every snapshot shows `column` at the row `source[at ..]` (a body bound now). */
  fillColumn(column: number, source: Float64Array, at: number): void {
    for (let s = 0; s < this.history; s++) {
      copyRow(this.rows, (s * this.columns + column) * POSE_STRIDE, source, at);
    }
  }

  /** Column `from`'s rows and flags, in every snapshot, move to column `to`. */
  moveColumn(to: number, from: number): void {
    const columns = this.columns;
    for (let s = 0; s < this.history; s++) {
      copyRow(
        this.rows,
        (s * columns + to) * POSE_STRIDE,
        this.rows,
        (s * columns + from) * POSE_STRIDE,
      );
      this.teleported[s * columns + to] = this.teleported[s * columns + from];
    }
  }
}
