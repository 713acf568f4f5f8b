/**
 * `RapierPhysics`'s options, and the argument checks of its calls: a `TypeError` for the wrong
 * kind of object, a `RangeError` naming the argument for a bad value (docs/rapier.md, "Bodies and
 * meshes").
 */
import {
  checkInterpolationMode,
  type FixedLoop,
  type InterpolationMode,
  optionError,
} from '@fixedtick/core';
import { kindError, type TrackOptions } from '@fixedtick/core/tracking';
import { type InstancedMesh, Matrix4, type Object3D } from 'three';
import type { RapierEventQueue, RapierRigidBody, RapierWorld } from './rapier-types.ts';

/** Options of {@link RapierPhysics}. */
export interface RapierPhysicsOptions {
  /**
   * Interpolation mode of bodies added without one; live as
   * {@link RapierPhysics.defaultInterpolation}.
   * @defaultValue `'interpolate'`
   */
  defaultInterpolation?: InterpolationMode;
  /**
   * The `EventQueue` the world is stepped with (`new RAPIER.EventQueue(true)`), needed by
   * `onCollision` and `onContactForce`. Without listeners it is passed to `world.step` and left
   * for you to drain in `postSimulation`. Yours to `free()`.
   */
  events?: RapierEventQueue;
}

/** The options `RapierPhysics` knows. */
const PHYSICS_OPTIONS = new Set(['defaultInterpolation', 'events']);

/** Throws unless `new RapierPhysics(loop, world, options)` was given what it needs. */
export function checkPhysicsArguments(
  loop: FixedLoop,
  world: RapierWorld,
  options: RapierPhysicsOptions,
): void {
  if (typeof loop?.addAdapter !== 'function' || typeof loop.onPreRender !== 'function') {
    throw new TypeError(optionError('loop', loop, 'a FixedLoop (ThreeFixedLoop)').message);
  }
  if (typeof world?.step !== 'function' || typeof world.getRigidBody !== 'function') {
    throw new TypeError(optionError('world', world, 'a Rapier World').message);
  }
  if (options === null || typeof options !== 'object') {
    throw optionError('options', options, 'an object');
  }
  for (const key of Object.keys(options)) {
    if (!PHYSICS_OPTIONS.has(key)) {
      throw new RangeError(
        `fixedtick: unknown option "${key}" (known: ${[...PHYSICS_OPTIONS].join(', ')})`,
      );
    }
  }
  const { events } = options;
  if (events !== undefined && typeof events?.drainCollisionEvents !== 'function') {
    throw new TypeError(optionError('events', events, 'a Rapier EventQueue').message);
  }
}

/** Throws unless `object3d` is a three.js object, not instanced, that `loop` does not track. */
export function checkMesh(loop: FixedLoop, object3d: Object3D): void {
  if (object3d?.isObject3D !== true) throw kindError('object3d', object3d, 'a three.js Object3D');
  if ((object3d as InstancedMesh).isInstancedMesh === true) {
    throw new TypeError(
      'fixedtick: physics.add binds one body to one whole object; an InstancedMesh has a body per instance: physics.addInstance(mesh, index, body)',
    );
  }
  if ((loop as { isTracked?: (o: Object3D) => boolean }).isTracked?.(object3d) === true) {
    throw optionError('object3d', object3d, 'an Object3D the loop does not track (untrack it)');
  }
}

/** Throws unless `rigidBody` is a Rapier body of `world`. */
export function checkBody(world: RapierWorld, rigidBody: RapierRigidBody): void {
  if (typeof rigidBody?.translation !== 'function' || typeof rigidBody.isSleeping !== 'function') {
    throw kindError('rigidBody', rigidBody, 'a Rapier RigidBody');
  }
  if (world.getRigidBody(rigidBody.handle) !== rigidBody) {
    throw optionError('rigidBody', rigidBody, 'a rigid body of this physics world');
  }
}

/**
 * Throws unless `mesh` is an `InstancedMesh` that sits untransformed in the world and `index` one
 * of its instances.
 */
export function checkInstance(mesh: InstancedMesh, index: number): void {
  if (mesh?.isInstancedMesh !== true) throw kindError('mesh', mesh, 'a three.js InstancedMesh');
  const count = mesh.instanceMatrix.count;
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw optionError('index', index, `a whole number from 0 to ${count - 1}`);
  }
  if (!untransformedInWorld(mesh)) {
    throw optionError(
      'mesh',
      mesh,
      'an InstancedMesh untransformed in the world (at the origin, unturned, unscaled, under untransformed parents): Rapier simulates in world space',
    );
  }
}

/** Throws unless `options` is an object whose `interpolation`, if given, is a mode. */
export function checkTrackOptions(options: TrackOptions): void {
  if (options === null || typeof options !== 'object') {
    throw optionError('options', options, 'an object');
  }
  if (options.interpolation !== undefined) {
    checkInterpolationMode(options.interpolation, 'interpolation');
  }
}

/** True if `object` and every parent of it has the identity transform. */
function untransformedInWorld(object: Object3D): boolean {
  for (let node: Object3D | null = object; node !== null; node = node.parent) {
    if (node.matrixAutoUpdate) {
      const { position: p, quaternion: q, scale: s } = node;
      if (p.x !== 0 || p.y !== 0 || p.z !== 0) return false;
      if (q.x !== 0 || q.y !== 0 || q.z !== 0 || q.w !== 1) return false;
      if (s.x !== 1 || s.y !== 1 || s.z !== 1) return false;
    } else if (!node.matrix.equals(IDENTITY)) {
      return false;
    }
  }
  return true;
}

const IDENTITY = new Matrix4();
