/**
 * The tracker's per-slot storage, parallel to its {@link PoseBuffer}: which node (or instanced
 * mesh) a slot belongs to, its instance index, its state flags, the write ledger (what the node
 * was last left holding) and, for nodes simulated in world space, the exact stored numbers of
 * their simulation pose. Grows with the buffer; nothing here runs per frame except array reads.
 */
import type { PoseBuffer } from '../interpolation/pose-buffer.ts';
import { POSE_STRIDE } from '../interpolation/pose-layout.ts';
import { MATRIX_STRIDE } from './instance-matrix.ts';
import { AT_REST, SETTLING, SIMULATED_IN_WORLD } from './slot-states.ts';

function grow<T extends Float64Array | Float32Array | Int32Array | Uint16Array>(
  array: T,
  length: number,
): T {
  if (array.length >= length) return array;
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}

/** Per-slot storage of a tracker; see the module doc. */
export class SlotTable<Node> {
  /** By slot: the tracked node, or the instanced mesh of a tracked instance. */
  readonly nodes: (Node | undefined)[] = [];
  /** By slot: the instance index, or -1 for a node. */
  index = new Int32Array(0);
  /** By slot: its state flags (slot-states.ts). */
  flags = new Uint16Array(0);
  /**
   * By slot × 10: the pose the node holds as far as the tracker knows — what it last wrote or
   * read there, in the node's stored (local) numbers. Anything else there was written by others.
   */
  held = new Float64Array(0);
  /** By slot × 10: a SIMULATED_IN_WORLD node's simulation pose in its stored numbers (restored exactly). */
  simLocal = new Float64Array(0);
  /** By slot × 16: the matrix an instance holds as far as the tracker knows. */
  heldMatrix = new Float32Array(0);
  /** By slot × 16: the matrix captured with an instance's simulation pose (restored exactly). */
  simMatrix = new Float32Array(0);
  /**
   * Counts the times a slot may have left `AT_REST` (or was claimed or freed) other than by a
   * capture: the interpolation pass and the restore skip blocks the interpolation pass found all
   * at rest only while this count stands still (frame-passes.ts, "quiet blocks").
   */
  wakes = 0;
  /** Slots simulated in world space (`SIMULATED_IN_WORLD`, set with `setWorld`): while 0 no pass looks for them. */
  worldCount = 0;

  /** Makes room for every slot `poses` can hand out. */
  fit(poses: PoseBuffer): void {
    const n = poses.capacity;
    if (this.flags.length >= n) return;
    this.index = grow(this.index, n);
    this.flags = grow(this.flags, n);
    this.held = grow(this.held, n * POSE_STRIDE);
    this.simLocal = grow(this.simLocal, n * POSE_STRIDE);
    this.heldMatrix = grow(this.heldMatrix, n * MATRIX_STRIDE);
    this.simMatrix = grow(this.simMatrix, n * MATRIX_STRIDE);
  }

  /** Gives every array back (the tracker is empty): `fit` grows them again. */
  clear(): void {
    this.nodes.length = 0;
    this.index = new Int32Array(0);
    this.flags = new Uint16Array(0);
    this.held = new Float64Array(0);
    this.simLocal = new Float64Array(0);
    this.heldMatrix = new Float32Array(0);
    this.simMatrix = new Float32Array(0);
    this.worldCount = 0;
    this.wakes++;
  }

  /** Claims `slot` for `node` (instance `index`, -1 for the node itself). */
  claim(slot: number, node: Node, index: number, flags: number): void {
    this.wakes++;
    this.nodes[slot] = node;
    this.index[slot] = index;
    this.flags[slot] = flags;
  }

  /** Clears `bits` (by default `AT_REST` and `SETTLING`) of `slot`: it is awake. */
  wake(slot: number, bits = AT_REST | SETTLING): void {
    this.flags[slot] &= ~bits;
    this.wakes++;
  }

  /** Marks `slot` as simulated in world space, or not. */
  setWorld(slot: number, world: boolean): void {
    if (world === ((this.flags[slot] & SIMULATED_IN_WORLD) !== 0)) return;
    this.flags[slot] ^= SIMULATED_IN_WORLD;
    this.worldCount += world ? 1 : -1;
  }

  /** Frees `slot`. */
  release(slot: number): void {
    this.wakes++;
    if (this.flags[slot] & SIMULATED_IN_WORLD) this.worldCount--;
    this.nodes[slot] = undefined;
    this.index[slot] = -1;
    this.flags[slot] = 0;
  }
}
