/**
 * Teleports are per component (docs/guarantees.md, "Interpolation and the adapters' rule"): a write to one of position, rotation and scale outside
 * the fixed step teleports that component only; the others keep their simulation values and
 * their interpolation.
 */
import { ThreeFixedLoop } from '@fixedtick/three';
import { InstancedMesh, Matrix4, Object3D, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';

/** One simulated second at 144 fps (60 Hz steps). */
function oneSecond(loop: ThreeFixedLoop): void {
  for (let frame = 0; frame < 144; frame++) loop.advance(1 / 144);
}

describe('per-component teleports (three.js)', () => {
  it('a rotation written every frame outside the step leaves the simulated position alone: x = 3.00 after 1 s', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const turret = new Object3D();
    loop.track(turret);
    loop.onFixedUpdate((dt) => {
      turret.position.x += 3 * dt;
    });
    let yaw = 0;
    loop.onUpdate(() => {
      yaw += 0.01; // mouse-look: a new heading every frame
      turret.rotation.y = yaw;
    });
    oneSecond(loop);
    expect(loop.tick).toBe(60);
    expect(loop.getSimulationPose(turret).position[0]).toBeCloseTo(3, 12);
    // and the written rotation is the simulation's from the next frame on
    loop.advance(0);
    const expected = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), yaw);
    expect(
      new Quaternion().fromArray(loop.getSimulationPose(turret).rotation).angleTo(expected),
    ).toBeLessThan(1e-12);
  });

  it('a position written every frame outside the step leaves the simulated rotation alone', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const wheel = new Object3D();
    loop.track(wheel);
    loop.onFixedUpdate((dt) => {
      wheel.rotation.y += 2 * dt;
    });
    let x = 0;
    loop.onUpdate(() => {
      x += 0.01;
      wheel.position.set(x, 0, 0);
    });
    oneSecond(loop);
    const rotation = new Quaternion().fromArray(loop.getSimulationPose(wheel).rotation);
    const expected = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 2);
    expect(rotation.angleTo(expected)).toBeLessThan(1e-9);
    // the rendered rotation is still interpolated (one step behind), not snapped
    expect(wheel.quaternion.angleTo(expected)).toBeGreaterThan(0);
    expect(wheel.quaternion.angleTo(expected)).toBeLessThanOrEqual(2 / 60 + 1e-9);
  });

  it('a scale written every frame outside the step leaves position and rotation alone', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const blob = new Object3D();
    loop.track(blob);
    loop.onFixedUpdate((dt) => {
      blob.position.x += 3 * dt;
      blob.rotation.z += 1 * dt;
    });
    let pulse = 0;
    loop.onPreRender(() => {
      pulse += 1;
      blob.scale.setScalar(1 + 0.1 * Math.sin(pulse));
    });
    oneSecond(loop);
    const pose = loop.getSimulationPose(blob);
    expect(pose.position[0]).toBeCloseTo(3, 12);
    const expected = new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 1);
    expect(new Quaternion().fromArray(pose.rotation).angleTo(expected)).toBeLessThan(1e-9);
    expect(pose.scale[0]).toBe(1 + 0.1 * Math.sin(pulse));
  });

  it('a component written on a parent teleports that component on its tracked children, no other', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const parent = new Object3D();
    const child = new Object3D();
    parent.add(child);
    loop.track(parent);
    loop.track(child);
    loop.onFixedUpdate((dt) => {
      parent.position.z += dt;
      child.position.x += 6 * dt;
      child.rotation.y += 3 * dt;
    });
    for (let frame = 0; frame < 20; frame++) loop.advance(1 / 144);
    const sim = loop.getSimulationPose(child);
    expect(child.position.x).not.toBe(sim.position[0]);
    parent.rotation.y = 1; // a rotation write on the parent
    loop.advance(0);
    // the child's rotation snapped to its simulation value, its position still interpolated
    expect(child.quaternion.toArray()).toEqual(sim.rotation);
    expect(child.position.x).not.toBe(sim.position[0]);
  });
});

describe('ThreeFixedLoop options', () => {
  it('an unknown option is named with a "did you mean" among the loop’s and the adapter’s own', () => {
    expect(() => new ThreeFixedLoop({ rendrer: {} } as never)).toThrowError(
      /unknown option "rendrer" — did you mean "renderer"\?.*known: .*tickRate.*renderer, scene, camera, defaultInterpolation/,
    );
    expect(() => new ThreeFixedLoop({ tickrate: 30 } as never)).toThrowError(
      /did you mean "tickRate"/,
    );
  });
});

describe('setInstancePose', () => {
  it('inside fixedUpdate it is the step’s pose (drawn interpolated); outside, a teleport', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const mesh = new InstancedMesh(undefined, undefined, 2);
    const m = new Matrix4();
    for (let i = 0; i < 2; i++) mesh.setMatrixAt(i, m.makeScale(2, 2, 2));
    loop.trackInstance(mesh, 0);
    loop.trackInstance(mesh, 1);
    let x = 0;
    loop.onFixedUpdate(() => {
      x += 1;
      loop.setInstancePose(mesh, 0, new Vector3(x, 0, 0));
    });
    const info = loop.advance(1 / 60 + 0.5 / 60); // one step, alpha 0.5
    expect(info.steps).toBe(1);
    expect(loop.getSimulationPose(mesh, 0).position[0]).toBe(1);
    expect(loop.getSimulationPose(mesh, 0).scale[0]).toBeCloseTo(2, 6); // kept its own scale
    const drawn = new Vector3();
    mesh.getMatrixAt(0, m).decompose(drawn, new Quaternion(), new Vector3());
    expect(drawn.x).toBeCloseTo(0.5, 6); // halfway from 0 to 1
    // outside the step: a teleport, drawn at once
    loop.setInstancePose(mesh, 1, new Vector3(0, 7, 0));
    mesh.getMatrixAt(1, m).decompose(drawn, new Quaternion(), new Vector3());
    expect(drawn.y).toBe(7);
    expect(() => loop.setInstancePose(mesh, 5, new Vector3())).toThrowError(RangeError);
  });
});
