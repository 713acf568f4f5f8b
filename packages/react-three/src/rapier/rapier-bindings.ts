import type { TrackOptions } from '@fixedtick/three';
import type { RapierPhysics, RapierRigidBody } from '@fixedtick/three/rapier';
import type { InstancedMesh, Object3D } from 'three';

/** One mesh the components want bound to one body, with its track options. */
interface Wanted {
  body: RapierRigidBody;
  options: TrackOptions | undefined;
}

/**
 * The meshes one `<FixedRapier>` binds, kept apart from its `RapierPhysics`: components say
 * what they want bound (in their effects, which run before the parent's), and whichever
 * `RapierPhysics` is live gets it — the one made when `<FixedRapier>` mounts binds everything
 * asked for so far, and one made again after a Strict Mode remount binds it all again. So the
 * order in which React runs the effects of parent and children never matters.
 */
export class RapierBindings {
  #physics: RapierPhysics | undefined;
  readonly #wanted = new Map<Object3D, Wanted>();
  /** Instances wanted bound: mesh → index → body and options. */
  readonly #instances = new Map<InstancedMesh, Map<number, Wanted>>();

  /** The live `RapierPhysics`, if `<FixedRapier>` has mounted. */
  get physics(): RapierPhysics | undefined {
    return this.#physics;
  }

  /** `physics` is live: it binds every wanted mesh. */
  attach(physics: RapierPhysics): void {
    this.#physics = physics;
    for (const [object, wanted] of this.#wanted) physics.add(object, wanted.body, wanted.options);
    for (const [mesh, byIndex] of this.#instances) {
      for (const [index, wanted] of byIndex) {
        physics.addInstance(mesh, index, wanted.body, wanted.options);
      }
    }
  }

  /** The live `RapierPhysics` is disposed (it unbinds its meshes; they stay wanted). */
  detach(): void {
    this.#physics?.dispose();
    this.#physics = undefined;
  }

  /**
   * Wants `object` bound to `body`; returns the release, which unbinds it (unless something else
   * has been bound to the mesh since).
   */
  bind(object: Object3D, body: RapierRigidBody, options: TrackOptions | undefined): () => void {
    const wanted: Wanted = { body, options };
    this.#wanted.set(object, wanted);
    this.#physics?.add(object, body, options);
    return () => {
      if (this.#wanted.get(object) !== wanted) return;
      this.#wanted.delete(object);
      this.#physics?.remove(object);
    };
  }

  /**
   * Wants instance `index` of `mesh` bound to `body`; returns the release, which unbinds it
   * (unless something else has been bound to that instance since).
   */
  bindInstance(
    mesh: InstancedMesh,
    index: number,
    body: RapierRigidBody,
    options: TrackOptions | undefined,
  ): () => void {
    const wanted: Wanted = { body, options };
    let byIndex = this.#instances.get(mesh);
    if (byIndex === undefined) {
      byIndex = new Map();
      this.#instances.set(mesh, byIndex);
    }
    byIndex.set(index, wanted);
    this.#physics?.addInstance(mesh, index, body, options);
    return () => {
      const kept = this.#instances.get(mesh);
      if (kept?.get(index) !== wanted) return;
      kept.delete(index);
      if (kept.size === 0) this.#instances.delete(mesh);
      this.#physics?.removeInstance(mesh, index);
    };
  }

  /** Changes the track options of a wanted mesh (its interpolation mode), in place. */
  setOptions(object: Object3D, options: TrackOptions | undefined): void {
    const wanted = this.#wanted.get(object);
    if (wanted === undefined) return;
    wanted.options = options;
    // adding a bound mesh again with its own body changes its mode
    this.#physics?.add(object, wanted.body, options ?? {});
  }
}
