/**
 * Issue #18, item 5: the Babylon adapter against things that are not what it asks for.
 */
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene, Vector3 } from './havok-scene.ts';

describe('#18.5: the Babylon adapter and what is not a node', () => {
  it('track(notANode) is a clear TypeError and leaves nothing tracked, no error per frame after', async () => {
    const scene = await havokScene();
    const loop = new BabylonFixedLoop(scene, { autoTrack: false });
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    for (const bad of [{}, null, 42, { position: {} }]) {
      expect(() => loop.track(bad as never)).toThrowError(TypeError);
      expect(() => loop.track(bad as never)).toThrowError(
        /^fixedtick: node must be a Babylon\.js TransformNode or Mesh, got /,
      );
    }
    expect(() => loop.track(new Vector3() as never)).toThrowError(
      new TypeError('fixedtick: node must be a Babylon.js TransformNode or Mesh, got a Vector3'),
    );
    expect(loop.trackedCount).toBe(0);
    for (let f = 0; f < 10; f++) loop.advance(1 / 60);
    expect(errors).toEqual([]);
  });

  it('teleport({}, …) is the same clear TypeError', async () => {
    const scene = await havokScene();
    const loop = new BabylonFixedLoop(scene);
    expect(() => loop.teleport({} as never, { x: 0, y: 0, z: 0 })).toThrowError(
      new TypeError(
        'fixedtick: node must be a Babylon.js TransformNode or Mesh, got a plain object',
      ),
    );
  });

  it('dispose() leaves no node tracked, as three’s does', async () => {
    const scene = await havokScene();
    dynamicBox(scene, 'a', 0, 5, 0);
    const loop = new BabylonFixedLoop(scene);
    loop.track(new TransformNode('plain', scene));
    for (let f = 0; f < 5; f++) loop.advance(1 / 60);
    expect(loop.trackedCount).toBe(2);
    loop.dispose();
    expect(loop.trackedCount).toBe(0);
  });
});
