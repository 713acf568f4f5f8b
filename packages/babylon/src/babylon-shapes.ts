/**
 * The parts of Babylon.js objects the adapter touches, as structural types: the adapter's only
 * run-time Babylon import is the math module (`Matrix`, `Quaternion`, `Vector3`), which every
 * Babylon app already loads; nodes, bodies and scenes are only ever reached through these shapes,
 * which the tests exercise against the real classes.
 * @internal
 */
import type { Matrix } from '@babylonjs/core/Maths/math.vector.js';

/** `Vector3`. */
export interface Vec3Like {
  x: number;
  y: number;
  z: number;
  set(x: number, y: number, z: number): unknown;
}

/** `Quaternion`. */
export interface QuatLike {
  x: number;
  y: number;
  z: number;
  w: number;
  set(x: number, y: number, z: number, w: number): unknown;
}

/** Babylon's internal thin-instance storage, the same field the Havok plugin reads and writes. */
export interface ThinStorageLike {
  matrixData: Float32Array | null;
  instancesCount: number;
}

/** `TransformNode` / `Mesh` / `InstancedMesh`. */
export interface NodeLike {
  name: string;
  position: Vec3Like;
  rotation: Vec3Like & { toQuaternion(): QuatLike };
  rotationQuaternion: QuatLike | null;
  scaling: Vec3Like;
  parent: unknown;
  physicsBody?: BodyLike | null;
  readonly absolutePosition: Vec3Like;
  readonly absoluteRotationQuaternion: QuatLike;
  computeWorldMatrix(force?: boolean): Matrix;
  isDisposed(): boolean;
  _thinInstanceDataStorage?: ThinStorageLike;
  thinInstanceBufferUpdated?(kind: string): void;
}

/** `PhysicsBody` (Physics V2). */
export interface BodyLike {
  transformNode: NodeLike;
  disableSync: boolean;
  readonly numInstances: number;
  readonly isDisposed?: boolean;
  getMotionType(instanceIndex?: number): number;
  getPrestepType(): number;
  setPrestepType(type: number): void;
  getLinearVelocityToRef(ref: Vec3Like, instanceIndex?: number): void;
  getAngularVelocityToRef(ref: Vec3Like, instanceIndex?: number): void;
}

/** `IPhysicsEnginePluginV2` (Havok's `HavokPlugin`). */
export interface PluginLike {
  executeStep(delta: number, bodies: BodyLike[]): void;
  setTimeStep(timeStep: number): void;
  getTimeStep(): number;
  setPhysicsBodyTransformation(body: BodyLike, node: NodeLike): void;
}

/** `PhysicsEngine` (V1 or V2; the adapter checks the version). */
export interface PhysicsEngineLike {
  getPluginVersion(): number;
  getPhysicsPlugin(): PluginLike;
  getBodies?(): BodyLike[];
  getTimeStep(): number;
}

/** A Physics V2 engine: `getBodies` is there. */
export interface PhysicsEngineV2Like extends PhysicsEngineLike {
  getBodies(): BodyLike[];
}

/** `Observable<Scene>`. */
export interface ObservableLike {
  notifyObservers(event: unknown): unknown;
}

/** `AbstractEngine`. */
export interface EngineLike {
  isDeterministicLockStep(): boolean;
  runRenderLoop(fn: () => void): void;
  stopRenderLoop(fn?: () => void): void;
}

/** `Scene`. */
export interface SceneLike {
  physicsEnabled: boolean;
  activeCamera: unknown;
  activeCameras: unknown[] | null;
  readonly isDisposed: boolean;
  getEngine(): EngineLike;
  getPhysicsEngine?(): PhysicsEngineLike | null;
  onBeforePhysicsObservable?: ObservableLike;
  onAfterPhysicsObservable?: ObservableLike;
  render(updateCameras?: boolean, ignoreAnimations?: boolean): void;
}

/** `PhysicsMotionType.DYNAMIC`. */
export const MOTION_DYNAMIC = 2;
/** `PhysicsPrestepType.TELEPORT`. */
export const PRESTEP_TELEPORT = 1;
