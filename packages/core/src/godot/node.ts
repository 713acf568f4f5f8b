/**
 * A Godot `Node` for ported GDScript: a tree of objects whose `_physics_process(delta)` and
 * `_process(delta)` a {@link GodotEngine} calls in tree order, with Godot's per-node physics
 * interpolation switch (`physics_interpolation_mode`) resolved down the tree.
 *
 * Only the timing-related part of Godot's `Node` is here; a node carries whatever else your port
 * needs (for example the three.js or Babylon.js object it drives).
 */

/**
 * Godot's `Node.PhysicsInterpolationMode`. `INHERIT` takes the parent's resolved value; the root
 * resolves `INHERIT` as `ON` (Godot 4 does the same: a node is interpolated unless a node on its
 * path to the root says `OFF`).
 * @see https://docs.godotengine.org/en/stable/classes/class_node.html#enum-node-physicsinterpolationmode
 */
export const PhysicsInterpolationMode = Object.freeze({
  /** Take the parent's resolved mode (the root counts as `ON`). Godot's default. */
  INHERIT: 0,
  /** Interpolate this node and, unless they say otherwise, its descendants. */
  ON: 1,
  /** Do not interpolate this node nor, unless they say otherwise, its descendants. */
  OFF: 2,
} as const);

/** One of the {@link PhysicsInterpolationMode} values. */
export type PhysicsInterpolationMode =
  (typeof PhysicsInterpolationMode)[keyof typeof PhysicsInterpolationMode];

/**
 * Godot's `Node.NOTIFICATION_RESET_PHYSICS_INTERPOLATION`: sent by
 * `reset_physics_interpolation()` to the node and every descendant.
 */
export const NOTIFICATION_RESET_PHYSICS_INTERPOLATION = 2001;

/** What a node needs from the engine whose tree it is in (kept as an interface: no import cycle). */
export interface NodeTree {
  /** `SceneTree.physics_interpolation`: the global switch. */
  interpolationEnabled(): boolean;
  /** Seconds of the current fixed step. */
  physicsDelta(): number;
  /** Seconds of the current frame. */
  processDelta(): number;
  /** Called for each node a reset reaches, so adapters can reset the object it drives. */
  notifyReset(node: Node): void;
}

const EMPTY: readonly Node[] = Object.freeze([]);
const trees = new WeakMap<Node, NodeTree>();

/** Makes `root` the root of `tree` (used by {@link GodotEngine}; not part of the public API). */
export function attachTree(root: Node, tree: NodeTree): void {
  trees.set(root, tree);
}

/**
 * A node of the scene tree. Subclass it and define `_physics_process(delta)` and/or
 * `_process(delta)`; as in Godot, defining one turns that processing on (see `set_process`).
 *
 * @example
 * ```ts
 * class Player extends Node {
 *   velocity = 0;
 *   override _physics_process(delta: number) { this.velocity -= 9.8 * delta; }
 * }
 * engine.root.add_child(new Player('Player'));
 * ```
 */
export class Node {
  /** The node's name (Godot's `name`); not required to be unique here. */
  name: string;
  /**
   * Whether the object this node drives is interpolated; see {@link PhysicsInterpolationMode}.
   * @defaultValue `PhysicsInterpolationMode.INHERIT`
   */
  physics_interpolation_mode: PhysicsInterpolationMode = PhysicsInterpolationMode.INHERIT;

  #parent: Node | null = null;
  #children: readonly Node[] = EMPTY;
  #process: boolean | undefined;
  #physicsProcess: boolean | undefined;
  #ready = false;

  /** Godot's `PhysicsInterpolationMode.INHERIT`, as `Node.PHYSICS_INTERPOLATION_MODE_INHERIT`. */
  static readonly PHYSICS_INTERPOLATION_MODE_INHERIT = PhysicsInterpolationMode.INHERIT;
  /** Godot's `PhysicsInterpolationMode.ON`. */
  static readonly PHYSICS_INTERPOLATION_MODE_ON = PhysicsInterpolationMode.ON;
  /** Godot's `PhysicsInterpolationMode.OFF`. */
  static readonly PHYSICS_INTERPOLATION_MODE_OFF = PhysicsInterpolationMode.OFF;
  /** Godot's `NOTIFICATION_RESET_PHYSICS_INTERPOLATION` (2001). */
  static readonly NOTIFICATION_RESET_PHYSICS_INTERPOLATION =
    NOTIFICATION_RESET_PHYSICS_INTERPOLATION;

  /** @param name Godot's `name`. */
  constructor(name = 'Node') {
    this.name = name;
  }

  /** Every fixed step, when physics processing is on (on by default if defined). */
  _physics_process?(delta: number): void;
  /** Every frame, when processing is on (on by default if defined). */
  _process?(delta: number): void;
  /** When the node enters the engine's tree (parents before children). */
  _enter_tree?(): void;
  /** Once, the first time the node enters the tree, after its children are ready. */
  _ready?(): void;
  /** When the node leaves the engine's tree (children before parents). */
  _exit_tree?(): void;
  /** Godot notifications; here `NOTIFICATION_RESET_PHYSICS_INTERPOLATION`. */
  _notification?(what: number): void;

  // ---- tree -----------------------------------------------------------------------------

  /** The parent node, or `null`. */
  get_parent(): Node | null {
    return this.#parent;
  }

  /** The children, in order. The array is a snapshot: adding or removing makes a new one. */
  get_children(): readonly Node[] {
    return this.#children;
  }

  /** Number of children. */
  get_child_count(): number {
    return this.#children.length;
  }

  /** The child at `index` (negative counts from the end, as in Godot), or `null`. */
  get_child(index: number): Node | null {
    const list = this.#children;
    return list[index < 0 ? list.length + index : index] ?? null;
  }

  /** True if `node` is a descendant of this node. */
  is_ancestor_of(node: Node): boolean {
    for (let p = node.#parent; p !== null; p = p.#parent) if (p === this) return true;
    return false;
  }

  /**
   * Appends `child`. Like Godot, refuses a node that already has a parent, the node itself or
   * one of its ancestors. Takes effect from the next traversal if called during one.
   */
  add_child(child: Node): void {
    if (!(child instanceof Node)) throw new TypeError('fixedtick: add_child expects a Node');
    if (child.#parent !== null) {
      throw new Error(
        `fixedtick: can't add child "${child.name}" to "${this.name}": it already has a parent "${child.#parent.name}"`,
      );
    }
    if (child === this || child.is_ancestor_of(this)) {
      throw new Error(`fixedtick: can't add "${child.name}" as a child of its own descendant`);
    }
    child.#parent = this;
    this.#children = Object.freeze([...this.#children, child]);
    if (this.is_inside_tree()) child.#enterTree();
  }

  /** Removes `child` (an error if it is not a child of this node, as in Godot). */
  remove_child(child: Node): void {
    const at = this.#children.indexOf(child);
    if (at < 0) {
      throw new Error(`fixedtick: "${child?.name}" is not a child of "${this.name}"`);
    }
    const inside = this.is_inside_tree();
    if (inside) child.#exitTree();
    const next = this.#children.slice();
    next.splice(at, 1);
    this.#children = Object.freeze(next);
    child.#parent = null;
  }

  /** True when the node is connected to a {@link GodotEngine}'s root. */
  is_inside_tree(): boolean {
    return this.#tree() !== undefined;
  }

  #tree(): NodeTree | undefined {
    let node: Node = this;
    while (node.#parent !== null) node = node.#parent;
    return trees.get(node);
  }

  #enterTree(): void {
    this._enter_tree?.();
    for (const child of this.#children) child.#enterTree();
    if (!this.#ready) {
      this.#ready = true;
      this._ready?.();
    }
  }

  #exitTree(): void {
    for (const child of this.#children) child.#exitTree();
    this._exit_tree?.();
  }

  // ---- processing -----------------------------------------------------------------------

  /** Turns `_process` on or off (Godot's `set_process`). */
  set_process(enable: boolean): void {
    this.#process = Boolean(enable);
  }
  /** True when `_process` runs: set by `set_process`, else whether `_process` is defined. */
  is_processing(): boolean {
    return this.#process ?? typeof this._process === 'function';
  }
  /** Turns `_physics_process` on or off (Godot's `set_physics_process`). */
  set_physics_process(enable: boolean): void {
    this.#physicsProcess = Boolean(enable);
  }
  /** True when `_physics_process` runs: set explicitly, else whether it is defined. */
  is_physics_processing(): boolean {
    return this.#physicsProcess ?? typeof this._physics_process === 'function';
  }

  /** Seconds of a fixed step (the `delta` `_physics_process` receives); 0 outside a tree. */
  get_physics_process_delta_time(): number {
    return this.#tree()?.physicsDelta() ?? 0;
  }
  /** Seconds of the current frame (the `delta` `_process` receives); 0 outside a tree. */
  get_process_delta_time(): number {
    return this.#tree()?.processDelta() ?? 0;
  }

  // ---- physics interpolation ------------------------------------------------------------

  /**
   * The resolved mode: this node's own `ON`/`OFF`, else the nearest ancestor's, else `ON` at the
   * root (Godot 4's default for `INHERIT` all the way up).
   */
  is_physics_interpolated(): boolean {
    for (let node: Node | null = this; node !== null; node = node.#parent) {
      const mode = node.physics_interpolation_mode;
      if (mode === PhysicsInterpolationMode.ON) return true;
      if (mode === PhysicsInterpolationMode.OFF) return false;
    }
    return true;
  }

  /**
   * `is_physics_interpolated()` and the tree's global switch (`GodotEngine.physics_interpolation`)
   * both on. This is what an adapter should use to pick the node's interpolation mode.
   */
  is_physics_interpolated_and_enabled(): boolean {
    const tree = this.#tree();
    return (tree?.interpolationEnabled() ?? false) && this.is_physics_interpolated();
  }

  /**
   * After a teleport: tells this node and every descendant to forget the previous pose, so the
   * next frame shows the new one with no streak. Each node gets
   * `_notification(NOTIFICATION_RESET_PHYSICS_INTERPOLATION)` and the engine's
   * `onResetPhysicsInterpolation` listeners are called with it (parents before children).
   * Like Godot, it does nothing outside a tree or while `physics_interpolation` is off.
   */
  reset_physics_interpolation(): void {
    const tree = this.#tree();
    if (tree === undefined || !tree.interpolationEnabled()) return;
    this.#propagateReset(tree);
  }

  #propagateReset(tree: NodeTree): void {
    this._notification?.(NOTIFICATION_RESET_PHYSICS_INTERPOLATION);
    tree.notifyReset(this);
    const children = this.#children;
    for (let i = 0; i < children.length; i++) children[i].#propagateReset(tree);
  }
}
