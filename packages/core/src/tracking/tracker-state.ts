/**
 * What the tracker's passes share: the platform, the pose buffer, the per-slot table, which node
 * and which instanced mesh has which slot, scratch rows, and whether nodes hold their simulation
 * poses right now. The per-slot steps (write-check.ts, node-drawing.ts, node-capture.ts, instance-slots.ts, hierarchy.ts) are
 * functions over it; `Tracker` owns one and is the only public face.
 * @internal
 */
import { PoseBuffer } from '../interpolation/pose-buffer.ts';
import { type InterpolationMode, POSE_STRIDE } from '../interpolation/pose-layout.ts';
import type { TrackingPlatform } from './platform.ts';
import { SlotTable } from './slot-table.ts';

/** What the passes ask of an external stream (pose-stream.ts). */
export interface StreamSource {
  /** Fills its slots' previous, current and output rows for the frame's render tick. */
  draw(frame: { readonly tick: number; readonly alpha: number; readonly fixedDelta: number }): void;
  /** The tracker freed `slot`: forget it. */
  released(slot: number): void;
}

/** One instanced mesh with tracked instances. */
export interface MeshEntry<Node> {
  readonly mesh: Node;
  /** Its slots by instance index. */
  readonly slots: Map<number, number>;
  /** By instance index: its slot + 1, or 0 (the per-step lookup of `setInstancePose`). */
  dense: Int32Array;
  /** Its matrix buffer, as the platform gave it at the start of the frame. */
  matrices: Float32Array | null;
  /** Its matrix buffer was rewritten this pass: upload it. */
  needsUpload: boolean;
  /**
   * The platform's `instancesVersion` of the mesh once the tracker had seen every write up to
   * it (checked the matrices, or raised it with its own upload); -1: check at the next pass.
   */
  version: number;
  /** Its version moved past `version`: the next write check looks at every instance. */
  unseen: boolean;
}

/** The state a tracker's passes share; see the module doc. */
export class TrackerState<Node extends object> {
  readonly platform: TrackingPlatform<Node>;
  readonly poses = new PoseBuffer();
  readonly slots = new SlotTable<Node>();
  /**
   * Every node above a tracked node or instanced mesh, as seen when it was tracked or a write to
   * it adopted (hierarchy.ts, `noteTrackedBelow`).
   */
  readonly above = new WeakSet<Node>();
  /** Node → its own slot. */
  readonly objects = new Map<Node, number>();
  /** Instanced mesh → its tracked instances. */
  readonly meshes = new Map<Node, MeshEntry<Node>>();
  /** The same entries, for allocation-free iteration. */
  meshList: MeshEntry<Node>[] = [];
  /** By slot: the mesh entry of an instance. */
  readonly entryOf: (MeshEntry<Node> | undefined)[] = [];
  /** Three scratch rows (at 0, 10, 20) and a velocity row (at 30). */
  readonly scratch = new Float64Array(3 * POSE_STRIDE + 6);
  /** The awake slots a frame pass lerps in one loop (`interpolateList`), then writes. */
  awake = new Int32Array(64);
  /**
   * By block of node slots (frame-passes.ts): 1 if the last interpolation pass through it left
   * every node there at rest. While `slots.wakes` is still `quietAsOf`, a frame without steps
   * skips such a block, and the restore before the steps does.
   */
  quiet = new Uint8Array(1);
  /** `slots.wakes` when the interpolation pass that set `quiet` began (-1: never). */
  quietAsOf = -1;
  /** Slots collected by a reset (hierarchy.ts). */
  list = new Int32Array(16);
  /** Nodes hold their simulation poses (from the restore to the interpolation pass). */
  holding = false;
  /** The frame's first pass over the nodes has not checked them for writes yet. */
  checkPending = false;
  /** The frame's last step ran and is still to be captured (by the interpolation pass). */
  capturePending = false;
  /** The mesh entry `setInstancePose` used last (instances are moved mesh by mesh). */
  lastEntry: MeshEntry<Node> | undefined = undefined;
  /** The external streams feeding slots (pose-stream.ts), drawn first in the interpolation pass. */
  streams: StreamSource[] = [];
  /** Non-finite poses left by steps and refused (docs/guarantees.md, "Non-finite poses"). */
  refused = 0;
  /** The mode of nodes tracked without one. */
  defaultMode: InterpolationMode = 'interpolate';

  /** @param platform what the engine supplies. */
  constructor(platform: TrackingPlatform<Node>) {
    this.platform = platform;
  }
}
