/**
 * `@fixedtick/babylon/havok`: loads Havok and turns Physics V2 on for a scene, in one call that
 * works in browsers and in Node. A separate entry so that scenes without Havok never load its
 * WASM glue.
 *
 * @example
 * ```ts
 * import { enableHavok } from '@fixedtick/babylon/havok';
 * await enableHavok(scene, { gravity: { x: 0, y: -9.81, z: 0 } });
 * const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
 * ```
 * @packageDocumentation
 */

import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin.js';
import type { Scene } from '@babylonjs/core/scene.js';
import HavokPhysics from '@babylonjs/havok';
import { optionError } from '@fixedtick/core';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';

/** The Havok WASM module `HavokPhysics()` resolves to. */
export type HavokModule = Awaited<ReturnType<typeof HavokPhysics>>;

/** How to find the Havok WASM binary. */
export interface HavokLoadOptions {
  /**
   * The `HavokPhysics.wasm` bytes, e.g. `readFileSync(require.resolve(
   * '@babylonjs/havok/lib/esm/HavokPhysics.wasm'))` in Node, where fetching a file URL fails.
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where the browser fetches the WASM from (Emscripten `locateFile`), e.g. a Vite `?url`. */
  locateFile?: (path: string, prefix: string) => string;
}

/** Options of {@link enableHavok}. */
export interface EnableHavokOptions extends HavokLoadOptions {
  /** @defaultValue `{ x: 0, y: -9.81, z: 0 }` */
  gravity?: {
    /** X component, m/s². */
    x: number;
    /** Y component, m/s² (−9.81 for Earth's gravity). */
    y: number;
    /** Z component, m/s². */
    z: number;
  };
  /** An already loaded Havok module (share one between scenes). */
  havok?: HavokModule;
}

let shared: Promise<HavokModule> | undefined;

/**
 * Loads the Havok WASM module once per page (later calls share it unless `options` are given).
 */
export function loadHavok(options?: HavokLoadOptions): Promise<HavokModule> {
  const binary = options?.wasmBinary;
  if (binary !== undefined && !(binary instanceof ArrayBuffer || binary instanceof Uint8Array)) {
    return Promise.reject(optionError('wasmBinary', binary, 'an ArrayBuffer or Uint8Array'));
  }
  const locate = options?.locateFile;
  if (locate !== undefined && typeof locate !== 'function') {
    return Promise.reject(optionError('locateFile', locate, 'a function (path, prefix) => URL'));
  }
  if (options?.wasmBinary === undefined && options?.locateFile === undefined) {
    shared ??= HavokPhysics();
    return shared;
  }
  const init: Record<string, unknown> = {};
  if (options.wasmBinary !== undefined) init.wasmBinary = options.wasmBinary;
  if (options.locateFile !== undefined) init.locateFile = options.locateFile;
  return HavokPhysics(init);
}

/**
 * Turns Havok physics on for `scene` (`scene.enablePhysics(gravity, new HavokPlugin(true, hk))`)
 * and returns the plugin. `BabylonFixedLoop` steps it with an explicit `fixedDelta` whatever the
 * plugin's `useDeltaForWorldStep` flag says.
 */
export async function enableHavok(
  scene: Scene,
  options: EnableHavokOptions = {},
): Promise<HavokPlugin> {
  // as everywhere in Fixedtick, only undefined means "not given": null is refused
  const g = options.gravity === undefined ? { x: 0, y: -9.81, z: 0 } : options.gravity;
  if (g === null || typeof g !== 'object' || ![g.x, g.y, g.z].every(Number.isFinite)) {
    throw optionError('gravity', g, 'an { x, y, z } of finite numbers (m/s²)');
  }
  if (
    options.havok !== undefined &&
    (options.havok === null || typeof options.havok !== 'object')
  ) {
    throw optionError('havok', options.havok, 'a Havok module from HavokPhysics()');
  }
  const hk = options.havok === undefined ? await loadHavok(options) : options.havok;
  const plugin = new HavokPlugin(true, hk);
  if (!scene.enablePhysics(new Vector3(g.x, g.y, g.z), plugin)) {
    throw new Error(
      'fixedtick: scene.enablePhysics() refused the Havok plugin (see the Babylon log)',
    );
  }
  return plugin;
}

export { HavokPlugin };
