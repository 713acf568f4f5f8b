/**
 * Fault injection on the Babylon.js adapter with real Havok (WASM) on a NullEngine: bodies
 * removed between two fixed steps of one frame, between frames, and with their mesh; the loop
 * must keep stepping the other bodies exactly, report nothing, and never show a NaN.
 */
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene } from '../../packages/babylon/test/havok-scene.ts';

function finitePose(node: { position: { x: number; y: number; z: number } }): boolean {
  const p = node.position;
  return Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z);
}

describe('fault injection: Havok bodies removed mid-run', () => {
  it('a Havok body disposed between two steps of one frame: the others keep falling exactly', async () => {
    const scene = await havokScene();
    const boxes = [0, 1, 2, 3].map((i) => dynamicBox(scene, `box${i}`, i * 3, 100, 0));
    const control = await havokScene();
    const reference = dynamicBox(control, 'ref', 0, 100, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    const controlLoop = new BabylonFixedLoop(control, { tickRate: 60 });
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    expect(loop.trackedCount).toBe(4);
    // frame of 3 steps; after the first, box1's body goes away, and in the next frame box2's mesh
    loop.onPostSimulation((_dt, tick) => {
      if (tick === 0) boxes[1].physicsBody?.dispose();
      if (tick === 4) boxes[2].dispose();
    });
    for (let f = 0; f < 120; f++) {
      loop.advance(3 / 60);
      controlLoop.advance(3 / 60);
      for (const b of boxes) if (!b.isDisposed()) expect(finitePose(b)).toBe(true);
    }
    expect(errors).toEqual([]);
    expect(loop.tick).toBe(360);
    // box0 and box3 fell exactly like the lone reference box in its own scene
    expect(boxes[0].position.y).toBe(reference.position.y);
    expect(boxes[3].position.y).toBe(reference.position.y);
    expect(reference.position.y).toBeLessThan(100 - 0.5 * 9.81 * 5.9 ** 2);
    // box1 lost its body after one step: it stays where that step left it, still drawn
    expect(boxes[1].isDisposed()).toBe(false);
    expect(boxes[1].position.y).toBeGreaterThan(99.99);
    expect(boxes[1].position.y).toBeLessThan(100);
    expect(boxes[2].isDisposed()).toBe(true);
    expect(loop.isTracked(boxes[2])).toBe(false);
  });

  it('bodies disposed between frames, every other frame, while others are added: no error, no NaN', async () => {
    const scene = await havokScene();
    const loop = new BabylonFixedLoop(scene, { tickRate: 120 });
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    const alive = [] as ReturnType<typeof dynamicBox>[];
    for (let f = 0; f < 200; f++) {
      if (f % 2 === 0) alive.push(dynamicBox(scene, `b${f}`, f, 50, 0));
      else alive.shift()?.physicsBody?.dispose();
      loop.advance(1 / 144);
      for (const b of alive) expect(finitePose(b)).toBe(true);
    }
    expect(errors).toEqual([]);
    expect(loop.tick).toBe(Math.floor((200 / 144) * 120 + 1e-9));
  });
});
