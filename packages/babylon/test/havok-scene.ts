/**
 * Test helper: a real Babylon.js `NullEngine` scene with real Havok (WASM loaded from
 * node_modules). Not a test file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';
import { enableHavok, type HavokModule, loadHavok } from '@fixedtick/babylon/havok';

const require = createRequire(import.meta.url);
let havok: Promise<HavokModule> | undefined;

/** The Havok module, loaded once per test file from the package's WASM. */
export function havokModule(): Promise<HavokModule> {
  havok ??= loadHavok({
    wasmBinary: readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm')),
  });
  return havok;
}

/** A NullEngine scene with Havok physics (gravity −9.81 y unless given) and no camera. */
export async function havokScene(
  engineOptions: Partial<NonNullable<ConstructorParameters<typeof NullEngine>[0]>> = {},
  gravity = { x: 0, y: -9.81, z: 0 },
): Promise<Scene> {
  const engine = new NullEngine(engineOptions as ConstructorParameters<typeof NullEngine>[0]);
  const scene = new Scene(engine);
  await enableHavok(scene, { havok: await havokModule(), gravity });
  return scene;
}

/** A 1 m dynamic box at `(x, y, z)`, mass 1. */
export function dynamicBox(scene: Scene, name: string, x: number, y: number, z: number): Mesh {
  const box = MeshBuilder.CreateBox(name, { size: 1 }, scene);
  box.position.set(x, y, z);
  new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene);
  return box;
}

/** A static ground box whose top is at y = 0. */
export function ground(scene: Scene): Mesh {
  const g = MeshBuilder.CreateBox('ground', { width: 100, height: 1, depth: 100 }, scene);
  g.position.y = -0.5;
  new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, scene);
  return g;
}

export { Vector3 };

Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
