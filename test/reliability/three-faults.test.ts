/**
 * Fault injection on the three.js adapter (real three.js objects): tracking an object twice, and
 * untracking objects *during* the adapter's own interpolation pass — from a three.js
 * `Quaternion` change callback fired while the tracker writes rotations — and from an adapter
 * that runs in the same pass.
 */
import { ThreeFixedLoop } from '@fixedtick/three';
import { BoxGeometry, Group, InstancedMesh, Matrix4, MeshBasicMaterial, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';

function spinner(x: number): Group {
  const g = new Group();
  g.position.set(x, 0, 0);
  return g;
}

describe('fault injection: three adapter', () => {
  it('tracking an object twice keeps one slot and its motion; only the mode changes', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const cube = spinner(0);
    loop.track(cube);
    loop.onFixedUpdate((dt) => {
      cube.position.x += 6 * dt;
    });
    loop.advance(1 / 60);
    loop.advance(1 / 120);
    expect(cube.position.x).toBeCloseTo(0.05, 12); // one step (0 → 0.1) drawn at alpha 0.5
    // twice from outside the step, once inside it, once in the interpolation-sensitive preRender
    loop.track(cube);
    const offStep = loop.onFixedUpdate(() => loop.track(cube));
    const offPre = loop.onPreRender(() => loop.track(cube, { interpolation: 'interpolate' }));
    expect(loop.trackedCount).toBe(1);
    for (let i = 0; i < 30; i++) loop.advance(1 / 120);
    expect(loop.trackedCount).toBe(1);
    // no reset happened: still drawn half a step behind the simulation, not snapped to it
    const sim = loop.getSimulationPose(cube).position[0];
    expect(cube.position.x).toBeCloseTo(sim - 0.05, 9);
    // a second track with another mode changes the mode from the next interpolation pass
    offStep();
    offPre();
    loop.track(cube, { interpolation: 'none' });
    loop.advance(1 / 120);
    expect(cube.position.x).toBe(loop.getSimulationPose(cube).position[0]);
    expect(loop.trackedCount).toBe(1);
  });

  it('tracking one InstancedMesh instance twice keeps one slot and the instance’s own scale', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 4);
    const m = new Matrix4().compose(
      new Vector3(1, 2, 3),
      new Group().quaternion,
      new Vector3(2, 2, 2),
    );
    mesh.setMatrixAt(2, m);
    loop.trackInstance(mesh, 2);
    loop.trackInstance(mesh, 2);
    loop.onFixedUpdate(() => loop.trackInstance(mesh, 2, { interpolation: 'none' }));
    expect(loop.trackedCount).toBe(1);
    for (let i = 0; i < 10; i++) loop.advance(1 / 90);
    expect(loop.trackedCount).toBe(1);
    const pose = loop.getSimulationPose(mesh, 2);
    expect(pose.scale).toEqual([2, 2, 2]);
    expect(pose.position).toEqual([1, 2, 3]);
  });

  it('untracking objects during the interpolation pass itself (from inside the adapter’s own write)', () => {
    const loop = new ThreeFixedLoop({ tickRate: 30, errorPolicy: 'throw' });
    const objects = [0, 1, 2, 3, 4, 5].map((i) => spinner(i));
    for (const o of objects) loop.track(o);
    loop.onFixedUpdate((dt) => {
      for (const o of objects) {
        if (!loop.isTracked(o)) continue;
        o.position.y += dt;
        o.rotation.y += dt;
      }
    });
    for (let i = 0; i < 5; i++) loop.advance(1 / 60);
    // object 1's position.y reports its writes; armed after the last step of a frame, the next
    // write is the interpolation pass's: from inside it, untrack 1 itself, 0 (written) and 4 (not)
    const position = objects[1].position;
    let y = position.y;
    let enabled = false;
    let armed = false;
    let fired = 0;
    Object.defineProperty(position, 'y', {
      configurable: true,
      get: () => y,
      set: (value: number) => {
        y = value;
        if (!armed) return;
        armed = false;
        fired++;
        expect(loop.inFixedStep).toBe(false);
        for (const k of [1, 0, 4]) loop.untrack(objects[k]);
      },
    });
    loop.onFixedUpdate(
      () => {
        armed = false;
      },
      { priority: Number.NEGATIVE_INFINITY },
    );
    loop.onPostSimulation(() => {
      armed = enabled;
    });
    enabled = true;
    loop.advance(1 / 30); // one step, then the interpolation pass trips the setter
    enabled = false;
    expect(fired).toBe(1);
    expect(loop.trackedCount).toBe(3);
    for (const o of objects) {
      for (const v of [...o.position.toArray(), ...o.quaternion.toArray()]) {
        expect(Number.isFinite(v)).toBe(true);
      }
      expect(o.quaternion.length()).toBeCloseTo(1, 12);
    }
    // the untracked ones are left alone from now on; the others still move and interpolate
    const left = [0, 1, 4].map((k) => objects[k].position.y);
    for (let i = 0; i < 30; i++) loop.advance(1 / 60);
    expect([0, 1, 4].map((k) => objects[k].position.y)).toEqual(left);
    for (const k of [2, 3, 5]) {
      const sim = loop.getSimulationPose(objects[k]).position[1];
      expect(objects[k].position.y).toBeCloseTo(sim - (1 - loop.alpha) / 30, 9);
    }
  });

  it('untracking every object from an adapter that runs in the same interpolation pass', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const objects = [0, 1, 2].map((i) => spinner(i));
    for (const o of objects) loop.track(o);
    loop.onFixedUpdate((dt) => {
      for (const o of objects) if (loop.isTracked(o)) o.position.z += 60 * dt;
    });
    loop.advance(1 / 60);
    let armed = false;
    loop.addAdapter({
      interpolate: () => {
        if (!armed) return;
        for (const o of objects) expect(loop.untrack(o)).toBe(true);
      },
    });
    armed = true;
    loop.advance(1.5 / 60); // a step, then alpha 0.5 drawn, then all untracked in the same pass
    expect(loop.trackedCount).toBe(0);
    // untracked outside the step: each is left at its simulation pose (2 steps × 1 = z 2)
    for (const o of objects) expect(o.position.z).toBe(2);
    armed = false;
    loop.advance(1 / 60);
    for (const o of objects) expect(o.position.z).toBe(2);
  });
});
