/**
 * Havok's body transforms read in bulk, to skip the bodies at rest after each step without
 * touching their nodes (docs/performance.md, "Babylon.js"). Havok keeps every body's world
 * transform — a 4 × 4 float matrix — in one body buffer inside its WASM heap, and Babylon's sync
 * (inside `executeStep`) copies each body's pose from Havok into its node every step, moved or
 * not. A body whose twelve transform floats are bit for bit those of the step before got exactly
 * the pose it had back in its node (tested against `HP_Body_GetQTransform`, which Babylon's sync
 * reads): a typed-array load where comparing the node costs a cache miss per vector object.
 *
 * Only bodies Babylon syncs the plain way qualify: a body of its own (not thin instances), no
 * parent (Babylon converts those into the parent's space, which moves with the parent), sync on,
 * no floating-origin regions. For any other node the answer is "cannot tell".
 *
 * Offsets are looked up once per body (Havok's lookups return fresh arrays) and again when the
 * scene's bodies change or the tracker re-sorts its nodes; the typed-array view is re-made when
 * the WASM heap grows (its `ArrayBuffer` is then replaced).
 * @internal
 */
import type { BodyLike, NodeLike, PhysicsEngineV2Like } from './babylon-shapes.ts';

/** The parts of `HavokPlugin` read here (its Havok WASM module is `_hknp`). */
interface HavokPluginLike {
  _hknp?: HavokModuleLike;
  _areFloatingOriginWorldRegionsEnabled?(): boolean;
}

/** The parts of the Havok WASM module read here. */
interface HavokModuleLike {
  HEAPU8: Uint8Array;
  HP_World_GetBodyBuffer(world: unknown): [unknown, number];
  HP_Body_GetWorldTransformOffset(body: unknown): [unknown, number];
}

/** The Havok plugin data Babylon keeps on a body. */
interface BodyPluginDataLike {
  hpBodyId?: unknown;
  worldRegion?: { world: unknown; floatingOrigin?: { x: number; y: number; z: number } };
}

/** Floats kept per body: the transform's rotation columns (3 × 3) and translation. */
const KEPT = 12;
/** A slot's entry before it is looked up. */
const UNSEEN = -1;
/** A slot whose node is not a plainly synced Havok body. */
const NOT_BULK = -2;

/**
 * Whether the twelve pose floats of the transform at `v[at..]` equal those kept at `kept[k..]`;
 * if not, they are kept.
 */
function same(v: Float32Array, at: number, kept: Float32Array, k: number): boolean {
  // hand-unrolled (docs/performance.md, "Babylon.js"); the fourth float of each of the 4 × 4
  // matrix's columns is Havok's own data, not part of the pose
  if (
    v[at + 12] === kept[k + 9] &&
    v[at + 13] === kept[k + 10] &&
    v[at + 14] === kept[k + 11] &&
    v[at] === kept[k] &&
    v[at + 1] === kept[k + 1] &&
    v[at + 2] === kept[k + 2] &&
    v[at + 4] === kept[k + 3] &&
    v[at + 5] === kept[k + 4] &&
    v[at + 6] === kept[k + 5] &&
    v[at + 8] === kept[k + 6] &&
    v[at + 9] === kept[k + 7] &&
    v[at + 10] === kept[k + 8]
  ) {
    return true;
  }
  kept[k] = v[at];
  kept[k + 1] = v[at + 1];
  kept[k + 2] = v[at + 2];
  kept[k + 3] = v[at + 4];
  kept[k + 4] = v[at + 5];
  kept[k + 5] = v[at + 6];
  kept[k + 6] = v[at + 8];
  kept[k + 7] = v[at + 9];
  kept[k + 8] = v[at + 10];
  kept[k + 9] = v[at + 12];
  kept[k + 10] = v[at + 13];
  kept[k + 11] = v[at + 14];
  return false;
}

/** Havok's body transforms for the tracked bodies, by tracker slot; see the module doc. */
export class HavokPoses {
  readonly #engine: () => PhysicsEngineV2Like | null;
  /** The whole WASM heap as floats, or `null` until needed (and when the heap was replaced). */
  #view: Float32Array | null = null;
  #heap: ArrayBufferLike | null = null;
  #module: HavokModuleLike | null = null;
  /** By slot: the index of the body's transform in `#view`, or `UNSEEN` / `NOT_BULK`. */
  #at = new Int32Array(0);
  /** By slot: the node and body its entry was looked up for. */
  #nodes: (NodeLike | undefined)[] = [];
  #bodies: (BodyLike | undefined)[] = [];
  /** By slot: the `KEPT` floats of the body's transform at the slot's last answer. */
  #kept = new Float32Array(0);
  /** The scene's body list when the entries were looked up (its array, length and last body). */
  #list: readonly BodyLike[] | null = null;
  #count = -1;
  #last: BodyLike | undefined;
  /** `stepCount` of the step the checks were made for. */
  #checkedStep = -1;
  /** Off for this step (floating-origin regions on, no Havok module). */
  #off = true;

  /** @param engine the scene's Physics V2 engine, or `null` (the stepper's `physicsEngine`). */
  constructor(engine: () => PhysicsEngineV2Like | null) {
    this.#engine = engine;
  }

  /**
   * After step `step` (the stepper's `stepCount`): true when Havok left the body of `node`,
   * tracked in `slot`, exactly where it was at this slot's last answer, so its node holds what it
   * held; false when it moved or this cannot tell. Remembers the transform for the next answer.
   */
  unmoved(node: NodeLike, slot: number, step: number): boolean {
    if (step !== this.#checkedStep) this.#check(step);
    // the first answer for a slot (or a new node in it) is "cannot tell"
    if (!this.#known(node, slot)) {
      this.#enter(node, slot);
      return false;
    }
    const at = this.#at[slot];
    // a parent given since the look-up, or the sync turned off: Babylon then writes another pose
    // to the node (in the parent's space, which may move), or none (the node is the user's)
    if (at < 0 || node.parent || (this.#bodies[slot] as BodyLike).disableSync) return false;
    return same(this.#view as Float32Array, at, this.#kept, slot * KEPT);
  }

  /**
   * Whether Babylon's sync wrote the pose of the body of `node`, tracked in `slot`, into the node
   * in the step just run, the plain way (a body of its own, no parent, sync on). Looks the slot
   * up if needed, after step `step`.
   */
  synced(node: NodeLike, slot: number, step: number): boolean {
    if (step !== this.#checkedStep) this.#check(step);
    if (!this.#known(node, slot)) this.#enter(node, slot);
    return (
      slot < this.#at.length &&
      this.#at[slot] >= 0 &&
      !node.parent &&
      !(this.#bodies[slot] as BodyLike).disableSync
    );
  }

  /** Looks every body up again at the next step (the tracker re-sorted its nodes). */
  forget(): void {
    this.#list = null;
    this.#checkedStep = -1;
  }

  /** Whether the slot has an entry for `node`: where its body's transform is, or `NOT_BULK`. */
  #known(node: NodeLike, slot: number): boolean {
    return slot < this.#at.length && this.#at[slot] !== UNSEEN && this.#nodes[slot] === node;
  }

  /** Gives the slot its entry for `node`, with its body's transform kept (unless off). */
  #enter(node: NodeLike, slot: number): void {
    if (this.#off) return;
    if (slot >= this.#at.length) this.#grow(slot);
    const at = this.#lookUp(node, slot);
    if (at >= 0) same(this.#view as Float32Array, at, this.#kept, slot * KEPT);
  }

  /** Once per step: a grown heap, changed bodies, floating-origin regions. */
  #check(step: number): void {
    this.#checkedStep = step;
    const engine = this.#engine();
    const plugin = engine?.getPhysicsPlugin() as HavokPluginLike | undefined;
    const module = plugin?._hknp;
    this.#off =
      engine == null ||
      module === undefined ||
      plugin?._areFloatingOriginWorldRegionsEnabled?.() !== false;
    if (this.#off || engine == null || module === undefined) {
      this.#at.fill(UNSEEN);
      return;
    }
    const list = engine.getBodies();
    if (
      module !== this.#module ||
      list !== this.#list ||
      list.length !== this.#count ||
      list[list.length - 1] !== this.#last
    ) {
      // bodies added or removed (Havok's buffer may have moved): look every body up again
      this.#module = module;
      this.#list = list;
      this.#count = list.length;
      this.#last = list[list.length - 1];
      this.#at.fill(UNSEEN);
    }
    if (module.HEAPU8.buffer !== this.#heap) {
      this.#heap = module.HEAPU8.buffer;
      this.#view = new Float32Array(this.#heap);
    }
  }

  /** The slot's entry for `node`: where its body's transform is, or `NOT_BULK`. */
  #lookUp(node: NodeLike, slot: number): number {
    this.#nodes[slot] = node;
    const body = node.physicsBody ?? undefined;
    this.#bodies[slot] = body;
    const data = (body as { _pluginData?: BodyPluginDataLike } | undefined)?._pluginData;
    const region = data?.worldRegion;
    const origin = region?.floatingOrigin;
    const module = this.#module as HavokModuleLike;
    let at = NOT_BULK;
    if (
      body !== undefined &&
      body.isDisposed !== true &&
      body.numInstances < 1 &&
      !node.parent &&
      data?.hpBodyId !== undefined &&
      region !== undefined &&
      (origin === undefined || (origin.x === 0 && origin.y === 0 && origin.z === 0))
    ) {
      const buffer = module.HP_World_GetBodyBuffer(region.world)[1];
      const offset = module.HP_Body_GetWorldTransformOffset(data.hpBodyId)[1];
      at = (buffer + offset) >> 2;
      // the heap may have grown while looking up
      if (module.HEAPU8.buffer !== this.#heap) {
        this.#heap = module.HEAPU8.buffer;
        this.#view = new Float32Array(this.#heap);
      }
    }
    this.#at[slot] = at;
    return at;
  }

  #grow(slot: number): void {
    const size = Math.max(64, 2 * (slot + 1));
    const at = new Int32Array(size).fill(UNSEEN);
    at.set(this.#at);
    this.#at = at;
    const kept = new Float32Array(size * KEPT);
    kept.set(this.#kept);
    this.#kept = kept;
  }
}
