import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CannonJSPlugin } from '@babylonjs/core/Physics/v1/Plugins/cannonJSPlugin.js';
import { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';

describe('Physics V1', () => {
  it('is refused with a clear error (only V2 / Havok is stepped), also when enabled later', () => {
    const scene = new Scene(new NullEngine());
    scene.enablePhysics(new Vector3(0, -9.81, 0), new CannonJSPlugin(true, 10, CANNON));
    expect(() => new BabylonFixedLoop(scene)).toThrowError(/Physics V2 \(Havok\) only/);
    const later = new Scene(new NullEngine());
    const loop = new BabylonFixedLoop(later, { tickRate: 60, errorPolicy: 'throw' });
    const reported: string[] = [];
    loop.onError((_error, source) => reported.push(source));
    later.enablePhysics(new Vector3(0, -9.81, 0), new CannonJSPlugin(true, 10, CANNON));
    expect(() => loop.advance(1 / 60)).toThrowError(/Physics V2 \(Havok\) only/);
    expect(reported).toContain('adapter.beginFrame');
  });
});
