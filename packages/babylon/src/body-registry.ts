/**
 * Which Babylon nodes the tracker follows: explicit `track` calls, every dynamic Havok body of
 * the scene when auto-tracking (bodies created later included), thin-instanced bodies instance by
 * instance, and forgetting what went away (a disposed node, a body removed from the engine).
 *
 * The engine's body list is scanned only when it changed: Babylon's engine appends a new body
 * and splices a removed one out of the same array, so any change shows in the array, its length
 * or its last body — three compares per frame instead of one per body — unless a body is removed
 * and another added within one frame, which the next change of the list then reveals.
 * @internal
 */
import type { InterpolationMode, LoopAdapter } from '@fixedtick/core';
import type { Tracker } from '@fixedtick/core/tracking';
import { type BodyLike, MOTION_DYNAMIC, type NodeLike } from './babylon-shapes.ts';
import type { HavokStepper, ScaledInstances } from './havok-stepper.ts';
import { pushThinInstances } from './thin-instances.ts';

/** A tracked thin-instanced body. */
interface ThinEntry extends ScaledInstances {
  /** Tracked by auto-tracking (not by an explicit `track`). */
  auto: boolean;
  /** The mode it was tracked with (`undefined`: it follows the default). */
  mode: InterpolationMode | undefined;
}

/** Tracks and forgets Babylon nodes for the tracker; see the module doc. */
export class BodyRegistry implements LoopAdapter {
  readonly #tracker: Tracker<NodeLike>;
  readonly #stepper: HavokStepper;
  readonly #autoTrack: boolean;
  /** Nodes tracked with a physics body (not thin-instanced), and that body. */
  readonly #bodies = new Map<NodeLike, BodyLike>();
  /** Tracked nodes without a body: checked for disposal every frame. */
  readonly #plain = new Set<NodeLike>();
  readonly #thin = new Map<NodeLike, ThinEntry>();
  /** Nodes tracked by auto-tracking. */
  readonly #auto = new Set<NodeLike>();
  /** Bodies untracked by hand: auto-tracking leaves them alone. */
  readonly #optedOut = new WeakSet<BodyLike>();
  /** The engine's body list when last scanned: the array, its length, its last body. */
  #seen: unknown[] = [];

  /**
   * @param tracker the loop's tracker.
   * @param stepper the Havok stepper (thin-instanced bodies are rescaled and pushed through it).
   * @param autoTrack track every dynamic body of the scene.
   */
  constructor(tracker: Tracker<NodeLike>, stepper: HavokStepper, autoTrack: boolean) {
    this.#tracker = tracker;
    this.#stepper = stepper;
    this.#autoTrack = autoTrack;
  }

  /** Scans the engine's bodies (when they changed) and drops disposed plain nodes. */
  beginFrame(): void {
    if (this.#scan()) this.#tracker.refresh();
    for (const node of this.#plain) if (node.isDisposed()) this.#forget(node);
  }

  /**
   * Tracks `node` (every thin instance, for a thin-instanced physics mesh) with `mode`, or
   * following the default mode when `mode` is undefined; tracking a tracked node changes its mode.
   */
  track(node: NodeLike, mode: InterpolationMode | undefined, auto = false): void {
    const body = node.physicsBody ?? null;
    if (body) this.#optedOut.delete(body);
    if (!auto) this.#auto.delete(node);
    const options = mode === undefined ? {} : { interpolation: mode };
    const thin = this.#thin.get(node);
    if (thin !== undefined) {
      if (!auto) thin.auto = false;
      thin.mode = mode;
      for (const index of this.#tracker.instancesOf(node)) {
        this.#tracker.trackInstance(node, index, { ...options, restore: true });
      }
      return;
    }
    if (body && body.numInstances >= 1) {
      this.#trackThin(node, body, options, auto);
      return;
    }
    const tracked = this.#tracker.isTracked(node);
    this.#tracker.track(node, options);
    if (tracked) return;
    if (auto) this.#auto.add(node);
    if (body) this.#bodies.set(node, body);
    else this.#plain.add(node);
    // the tracker classified the new node (world or local space) itself: no pass over the others
  }

  /** Stops tracking `node` (all its instances), left at its simulation pose. */
  untrack(node: NodeLike): boolean {
    const thin = this.#thin.get(node);
    const body = this.#bodies.get(node) ?? thin?.body;
    const was = this.#tracker.untrack(node) || this.#tracker.untrackInstances(node) > 0;
    if (body && (this.#auto.has(node) || thin?.auto)) this.#optedOut.add(body);
    this.#drop(node);
    return was;
  }

  /** True if `node` (or a thin-instanced mesh) is tracked. */
  isTracked(node: NodeLike): boolean {
    return this.#tracker.isTracked(node) || this.#thin.has(node);
  }

  #trackThin(
    mesh: NodeLike,
    body: BodyLike,
    options: { interpolation?: InterpolationMode },
    auto: boolean,
  ): void {
    const storage = mesh._thinInstanceDataStorage;
    if (!storage?.matrixData) return;
    const n = Math.min(body.numInstances, storage.instancesCount);
    const slots = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      slots[i] = this.#tracker.trackInstance(mesh, i, { ...options, restore: true });
    }
    this.#thin.set(mesh, { mesh, body, slots, auto, mode: options.interpolation });
    if (auto) this.#auto.add(mesh);
    this.#stepper.scaled = [...this.#thin.values()];
    // Babylon (9.x) creates instance bodies with the motion type set after the transform, which
    // leaves every instance at the origin inside Havok; the matrices are the intended poses.
    pushThinInstances(this.#stepper, this.#tracker, mesh, body);
  }

  /** Forgets `node` without touching it (it is gone, or its body left the engine). */
  #forget(node: NodeLike): void {
    this.#tracker.forget(node);
    this.#drop(node);
  }

  #drop(node: NodeLike): void {
    this.#bodies.delete(node);
    this.#plain.delete(node);
    this.#auto.delete(node);
    if (this.#thin.delete(node)) this.#stepper.scaled = [...this.#thin.values()];
  }

  /** Rescans the engine's body list when it changed; returns true if it did. */
  #scan(): boolean {
    const bodies = this.#stepper.physicsEngine()?.getBodies();
    if (!bodies) return false;
    const seen = this.#seen;
    let same = bodies === seen[0] && bodies.length === seen[1] && bodies.at(-1) === seen[2];
    for (const entry of this.#thin.values()) {
      same &&= entry.body.numInstances === entry.slots.length;
    }
    if (same) return false;
    this.#seen = [bodies, bodies.length, bodies.at(-1)];
    const present = new Set(bodies);
    for (const [node, body] of [...this.#bodies]) {
      if (present.has(body)) continue;
      if (node.isDisposed()) {
        this.#forget(node);
      } else {
        // the body went away, the node stays: it is interpolated as a plain node from now on
        this.#bodies.delete(node);
        this.#plain.add(node);
      }
    }
    for (const entry of [...this.#thin.values()]) {
      const { body, mesh, slots } = entry;
      if (present.has(body) && body.numInstances === slots.length) continue;
      // gone, or instances added or removed: forget it, and track the new set
      this.#forget(mesh);
      if (present.has(body) && !mesh.isDisposed()) this.track(mesh, entry.mode, entry.auto);
    }
    if (!this.#autoTrack) return true;
    for (const body of bodies) {
      const node = body.transformNode;
      if (
        node &&
        !this.#optedOut.has(body) &&
        !node.isDisposed() &&
        !this.isTracked(node) &&
        body.getMotionType() === MOTION_DYNAMIC
      ) {
        this.track(node, undefined, true);
      }
    }
    return true;
  }
}
