/**
 * A real Babylon.js `NullEngine` scene with real Havok (WASM read from node_modules), for the
 * reliability tests and the soak. Not a test file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';
import { enableHavok, type HavokModule, loadHavok } from '@fixedtick/babylon/havok';

Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;

const require = createRequire(import.meta.url);
let havok: Promise<HavokModule> | undefined;

/** A NullEngine scene with Havok physics (default gravity) and no camera. */
export async function havokScene(): Promise<Scene> {
  havok ??= loadHavok({
    wasmBinary: readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm')),
  });
  const scene = new Scene(new NullEngine());
  await enableHavok(scene, { havok: await havok });
  return scene;
}

/** A 1 m dynamic box of mass 1 at `(x, y, z)`. */
export function dynamicBox(scene: Scene, name: string, x: number, y: number, z: number): Mesh {
  const box = MeshBuilder.CreateBox(name, { size: 1 }, scene);
  box.position.set(x, y, z);
  new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, scene);
  return box;
}
