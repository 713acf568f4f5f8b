/**
 * Fixedtick's optional parts — `InputLatch` (core), `ThreeFixedLoop` (@fixedtick/three) and
 * `BabylonFixedLoop` (@fixedtick/babylon) — loaded from source if they exist, so that the
 * comparison still runs (with "n/a (not built)" cells naming the reason) when one is missing.
 */
import type { Scene } from '@babylonjs/core';
import type { Object3D } from 'three';
import type { FixedLoop } from '../../packages/core/src/index.ts';

/** What the harness uses of an `InputLatch`. */
export interface LatchLike {
  press(key: string): void;
  release(key: string): void;
  pressed(key: string): boolean;
}
/** What the harness uses of a `ThreeFixedLoop`. */
export interface ThreeLoopLike {
  track(object: Object3D): unknown;
  onFixedUpdate(fn: (dt: number) => void): unknown;
  frame(timestampMs: number): unknown;
  dispose(): void;
}
/** What the harness uses of a `BabylonFixedLoop`. */
export interface BabylonLoopLike {
  start(): void;
  teleport(node: unknown, position: { x: number; y: number; z: number }): void;
  dispose(): void;
}

/** The parts found, and why the others are missing. */
export interface FixedtickParts {
  InputLatch?: (new (loop: FixedLoop) => LatchLike) | undefined;
  ThreeFixedLoop?: (new (options: { tickRate: number }) => ThreeLoopLike) | undefined;
  BabylonFixedLoop?:
    | (new (
        scene: Scene,
        options: { tickRate: number },
      ) => BabylonLoopLike)
    | undefined;
  /** Why a part is missing. */
  missing: Partial<
    Record<'InputLatch' | 'ThreeFixedLoop' | 'BabylonFixedLoop', string | undefined>
  >;
}

let cached: Promise<FixedtickParts> | undefined;

/**
 * Parts listed in `BENCH_COMPARE_WITHOUT` (comma-separated) are treated as missing, to check how
 * the report reads when one has not been built.
 */
const without = new Set((process.env.BENCH_COMPARE_WITHOUT ?? '').split(',').filter(Boolean));

async function find(
  specifiers: readonly string[],
  name: string,
): Promise<{ value?: unknown; reason?: string }> {
  if (without.has(name)) return { reason: `not built (left out by BENCH_COMPARE_WITHOUT)` };
  let reason = 'not exported';
  for (const specifier of specifiers) {
    try {
      const mod = (await import(specifier)) as Record<string, unknown>;
      if (typeof mod[name] === 'function') return { value: mod[name] };
      reason = `${specifier} does not export ${name}`;
    } catch (error) {
      const code = (error as { code?: string }).code;
      const message = error instanceof Error ? error.message : String(error);
      reason =
        code === 'ERR_MODULE_NOT_FOUND' && message.includes(specifier.replace('../../', ''))
          ? `not built (${specifier.replace('../../', '')} does not exist yet)`
          : `${specifier.replace('../../', '')} failed to load: ${message.split('\n')[0]}`;
    }
  }
  return { reason };
}

/** Loads the parts once. */
export function loadFixedtick(): Promise<FixedtickParts> {
  cached ??= (async () => {
    const parts: FixedtickParts = { missing: {} };
    const latch = await find(
      ['../../packages/core/src/index.ts', '../../packages/core/src/input/input-latch.ts'],
      'InputLatch',
    );
    if (latch.value) parts.InputLatch = latch.value as FixedtickParts['InputLatch'];
    else parts.missing.InputLatch = latch.reason;
    const three = await find(['../../packages/three/src/index.ts'], 'ThreeFixedLoop');
    if (three.value) parts.ThreeFixedLoop = three.value as FixedtickParts['ThreeFixedLoop'];
    else parts.missing.ThreeFixedLoop = three.reason;
    const babylon = await find(['../../packages/babylon/src/index.ts'], 'BabylonFixedLoop');
    if (babylon.value) {
      parts.BabylonFixedLoop = babylon.value as FixedtickParts['BabylonFixedLoop'];
    } else {
      parts.missing.BabylonFixedLoop = babylon.reason;
    }
    return parts;
  })();
  return cached;
}
