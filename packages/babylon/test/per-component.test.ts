/**
 * Teleports are per component (docs/guarantees.md, "Interpolation and the adapters' rule"), with real Havok: a write to one of a body's position,
 * rotation and scale outside the fixed step teleports that component only (into Havok too); the
 * others keep their simulation values, so the body moves as it does untouched. Havok keeps poses
 * in float32 and a teleport (`HP_Body_SetQTransform`) rounds once more: 60 of them move a falling
 * body by micrometres, which the bounds below allow — the bug they guard against rolled the
 * position back by up to a step (a body fell 3.72 m instead of 4.92 m).
 */

import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { BabylonFixedLoop, type SimulationPose } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene } from './havok-scene.ts';

/**
 * One simulated second at 144 fps (60 Hz steps) of a box dropped from 20 m (spinning at 2 rad/s
 * about y if `spin`), with `write(box, frame)` run in `update` every frame; its simulation pose.
 */
async function run(
  spin: boolean,
  write?: (box: Mesh, frame: number) => void,
): Promise<SimulationPose> {
  const scene = await havokScene();
  const box = dynamicBox(scene, 'box', 0, 20, 0);
  if (spin) box.physicsBody?.setAngularVelocity(new Vector3(0, 2, 0));
  const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
  let frame = 0;
  if (write) loop.onUpdate(() => write(box, ++frame));
  for (let f = 0; f < 144; f++) loop.advance(1 / 144);
  expect(loop.tick).toBe(60);
  const pose = loop.getSimulationPose(box);
  loop.dispose();
  scene.getEngine().dispose();
  return pose;
}

describe('per-component teleports (Babylon.js + Havok)', () => {
  it('a body turned every frame outside the step falls as far as an untouched one', async () => {
    const untouched = await run(false);
    let yaw = 0;
    const turned = await run(false, (box) => {
      yaw += 0.02;
      box.rotationQuaternion = Quaternion.RotationYawPitchRoll(yaw, 0, 0);
    });
    expect(20 - untouched.position[1]).toBeGreaterThan(4.8); // about g/2 in one second
    for (let k = 0; k < 3; k++) expect(turned.position[k]).toBeCloseTo(untouched.position[k], 4);
    // the rotation written last is the simulation's (asking for it adopts a pending write)
    const expected = Quaternion.RotationYawPitchRoll(yaw, 0, 0);
    const q = turned.rotation;
    const dot = q[0] * expected.x + q[1] * expected.y + q[2] * expected.z + q[3] * expected.w;
    expect(Math.abs(dot)).toBeCloseTo(1, 6);
  });

  it('a body given a new scale every frame falls as far as an untouched one', async () => {
    const untouched = await run(false);
    let last = 1;
    const pulsing = await run(false, (box, frame) => {
      last = 1 + 0.1 * Math.sin(frame);
      box.scaling.setAll(last);
    });
    expect(pulsing.position).toEqual(untouched.position);
    expect(pulsing.rotation).toEqual(untouched.rotation);
    expect(pulsing.scale[0]).toBe(last);
  });

  it('a spinning body whose position is written every frame turns as an untouched one', async () => {
    const untouched = await run(true);
    const moved = await run(true, (box, frame) => {
      box.position.set(0.001 * frame, 30, 0); // held up, sliding along x
    });
    for (let k = 0; k < 4; k++) expect(moved.rotation[k]).toBeCloseTo(untouched.rotation[k], 4);
    expect(Math.abs(untouched.rotation[1])).toBeGreaterThan(0.5); // it did turn (2 rad in 1 s)
    expect(moved.position[1]).toBeGreaterThan(29); // and stayed where it was put
  });
});

describe('BabylonFixedLoop options', () => {
  it('an unknown option is named with a "did you mean" among the loop’s and the adapter’s own', async () => {
    const scene = await havokScene();
    expect(() => new BabylonFixedLoop(scene, { autotrack: false } as never)).toThrowError(
      /unknown option "autotrack" — did you mean "autoTrack"\?.*known: .*maxDeltaTime.*autoTrack, defaultInterpolation, render/,
    );
    scene.getEngine().dispose();
  });
});
