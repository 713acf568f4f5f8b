import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, ground, havokScene, Vector3 } from './havok-scene.ts';

/** The parts of the Havok WASM module and of Babylon's body data these tests read. */
interface HavokModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  HP_Body_GetQTransform(body: unknown): [unknown, [number[], number[]]];
}

function havokOf(scene: Scene): HavokModule {
  const plugin = scene.getPhysicsEngine()?.getPhysicsPlugin() as unknown as { _hknp: HavokModule };
  return plugin._hknp;
}

/**
 * The pose Babylon's own sync writes to the node of `box`'s body (no parent, no floating origin):
 * Havok's translation plus a zero origin, its quaternion as it is.
 */
function babylonSyncPose(hk: HavokModule, box: Mesh): number[] {
  const data = (box.physicsBody as unknown as { _pluginData: { hpBodyId: unknown } })._pluginData;
  const [translation, orientation] = hk.HP_Body_GetQTransform(data.hpBodyId)[1];
  return [...translation.map((x) => x + 0), ...orientation];
}

function simulationPose(loop: BabylonFixedLoop, box: Mesh): number[] {
  const pose = loop.getSimulationPose(box);
  return [...pose.position, ...pose.rotation];
}

/** A spinning stack of boxes dropped onto the ground: they fall, collide, tumble and settle. */
async function tumblingStack(count: number): Promise<{ scene: Scene; boxes: Mesh[] }> {
  const scene = await havokScene();
  ground(scene);
  const boxes: Mesh[] = [];
  for (let i = 0; i < count; i++) {
    const box = dynamicBox(scene, `b${i}`, (i % 3) * 1.2, 1 + Math.floor(i / 3) * 1.5, 0);
    box.physicsBody?.setAngularVelocity(new Vector3(0.5 * (i % 4), 1, -0.3 * (i % 3)));
    boxes.push(box);
  }
  return { scene, boxes };
}

/**
 * After a frame that ran steps, how many of `boxes` have a simulation pose other than Babylon's
 * sync pose (before a body's first step, its pose is its node's own).
 */
function mismatches(loop: BabylonFixedLoop, hk: HavokModule, boxes: readonly Mesh[]): number {
  if (loop.lastFrame.steps === 0) return 0;
  let wrong = 0;
  for (const box of boxes) {
    const expected = babylonSyncPose(hk, box);
    const actual = simulationPose(loop, box);
    if (actual.some((x, k) => !Object.is(x, expected[k]))) wrong++;
  }
  return wrong;
}

describe('Havok poses read in bulk', () => {
  it('the simulation pose of every body is exactly what Babylon’s sync writes to its node, after every frame, from the fall until the stack is at rest', async () => {
    const { scene, boxes } = await tumblingStack(12);
    const hk = havokOf(scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    let wrong = 0;
    for (let f = 0; f < 144 * 8; f++) {
      loop.advance(1 / 144);
      wrong += mismatches(loop, hk, boxes);
    }
    expect(wrong).toBe(0);
    // the boxes did turn, and ended at rest (the poses that are skipped, not read)
    expect(boxes.every((box) => Math.abs(box.rotationQuaternion?.w ?? 1) < 0.999)).toBe(true);
    expect(loop.tracker.restingCount).toBe(12);
    loop.dispose();
    scene.getEngine().dispose();
  });

  it('stays exact after Havok’s WASM heap grows (its buffer is replaced) and while bodies are added and removed', async () => {
    const { scene, boxes } = await tumblingStack(6);
    const hk = havokOf(scene);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    for (let f = 0; f < 144; f++) loop.advance(1 / 144);
    const heap = hk.HEAPU8.buffer;
    const block = hk._malloc(64 << 20);
    expect(hk.HEAPU8.buffer).not.toBe(heap);
    let wrong = 0;
    for (let f = 0; f < 144; f++) {
      loop.advance(1 / 144);
      wrong += mismatches(loop, hk, boxes);
    }
    // bodies added (Havok's body buffer may move) and one removed, mid-run
    for (let i = 0; i < 4; i++) boxes.push(dynamicBox(scene, `late${i}`, 5 + i * 1.2, 3, 0));
    const removed = boxes.splice(1, 1)[0] as Mesh;
    removed.physicsBody?.dispose();
    removed.dispose();
    for (let f = 0; f < 144 * 2; f++) {
      loop.advance(1 / 144);
      wrong += mismatches(loop, hk, boxes);
    }
    hk._free(block);
    expect(wrong).toBe(0);
    expect(loop.trackedCount).toBe(9);
    // the late boxes fell onto the ground
    expect(boxes.slice(-4).every((box) => Math.abs(box.position.y - 0.5) < 0.01)).toBe(true);
    loop.dispose();
    scene.getEngine().dispose();
  });

  it('a scale written inside the fixed step to a body at rest becomes its simulation scale, with its pose kept', async () => {
    const scene = await havokScene();
    ground(scene);
    const box = dynamicBox(scene, 'box', 0, 0.5, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    for (let f = 0; f < 144 * 3; f++) loop.advance(1 / 144);
    expect(loop.tracker.restingCount).toBe(1);
    const before = loop.getSimulationPose(box);
    const once = loop.onFixedUpdate(() => {
      box.scaling.set(2, 3, 4);
      once();
    });
    for (let f = 0; f < 12; f++) loop.advance(1 / 144);
    const after = loop.getSimulationPose(box);
    expect(after.scale).toEqual([2, 3, 4]);
    expect([box.scaling.x, box.scaling.y, box.scaling.z]).toEqual([2, 3, 4]);
    expect(after.position).toEqual(before.position);
    expect(after.rotation).toEqual(before.rotation);
    loop.dispose();
    scene.getEngine().dispose();
  });

  it('a scale written inside the fixed step to a falling body becomes its simulation scale, and it falls as far as one left alone', async () => {
    const scene = await havokScene();
    const scaled = dynamicBox(scene, 'scaled', 0, 10, 0);
    const alone = dynamicBox(scene, 'alone', 5, 10, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    let steps = 0;
    loop.onFixedUpdate(() => {
      if (++steps === 20) scaled.scaling.set(0.5, 0.5, 0.5);
    });
    for (let f = 0; f < 144; f++) loop.advance(1 / 144);
    expect(loop.getSimulationPose(scaled).scale).toEqual([0.5, 0.5, 0.5]);
    expect(loop.getSimulationPose(alone).scale).toEqual([1, 1, 1]);
    expect([scaled.scaling.x, scaled.scaling.y, scaled.scaling.z]).toEqual([0.5, 0.5, 0.5]);
    const y = loop.getSimulationPose(alone).position[1];
    expect(y).toBeLessThan(6);
    expect(loop.getSimulationPose(scaled).position[1]).toBe(y);
    loop.dispose();
    scene.getEngine().dispose();
  });

  it('a body whose Babylon sync is turned off is read from its node, which keeps its pose', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 10, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    for (let f = 0; f < 72; f++) loop.advance(1 / 144);
    const y = loop.getSimulationPose(box).position[1];
    expect(y).toBeLessThan(10);
    (box.physicsBody as { disableSync: boolean }).disableSync = true;
    for (let f = 0; f < 144; f++) loop.advance(1 / 144);
    // Havok's body fell on; the node was not synced, and the tracker follows the node
    expect(babylonSyncPose(havokOf(scene), box)[1]).toBeLessThan(y - 1);
    expect(loop.getSimulationPose(box).position[1]).toBe(y);
    expect(box.position.y).toBe(y);
    loop.dispose();
    scene.getEngine().dispose();
  });
});
