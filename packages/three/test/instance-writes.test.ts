/**
 * Writes to instances moved with `setInstancePose` (docs/three.md, "Instanced meshes"): the loop
 * looks at their matrices for writes made outside the step only in a frame in which someone
 * else set `instanceMatrix.needsUpdate` (three.js needs it to draw the write anyway), and it
 * stores its record of what it drew only when that record is needed. Both must leave what is
 * simulated and drawn exactly as if the loop compared every matrix every frame.
 */
import { ThreeFixedLoop } from '@fixedtick/three';
import { InstancedMesh, Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';

const COUNT = 4;

/**
 * A mesh of `COUNT` instances (plus one untracked, index `COUNT`), each moved in `fixedUpdate`
 * from its own simulation pose: x += 1 and a turn of 0.1 rad per step, given with
 * `setInstancePose`.
 */
function scene(): { loop: ThreeFixedLoop; mesh: InstancedMesh } {
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const mesh = new InstancedMesh(undefined, undefined, COUNT + 1);
  const m = new Matrix4();
  for (let i = 0; i <= COUNT; i++) {
    mesh.setMatrixAt(i, m.compose(new Vector3(0, i, 0), new Quaternion(), new Vector3(2, 2, 2)));
  }
  for (let i = 0; i < COUNT; i++) loop.trackInstance(mesh, i);
  const position = new Vector3();
  const rotation = new Quaternion();
  const turn = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.1);
  loop.onFixedUpdate(() => {
    for (let i = 0; i < COUNT; i++) {
      const pose = loop.getSimulationPose(mesh, i);
      position.fromArray(pose.position).x += 1;
      rotation.fromArray(pose.rotation).premultiply(turn);
      loop.setInstancePose(mesh, i, position, rotation);
    }
  });
  return { loop, mesh };
}

function matrixOf(mesh: InstancedMesh, index: number): number[] {
  return mesh.getMatrixAt(index, new Matrix4()).elements;
}

describe('instances moved with setInstancePose', () => {
  it('a matrix written outside the step, with needsUpdate, is a teleport of that instance', () => {
    const { loop, mesh } = scene();
    for (let frame = 0; frame < 30; frame++) loop.advance(1 / 144);
    // one step is x += 1 from the simulation pose read in the step
    const before = loop.getSimulationPose(mesh, 2).position[0];
    expect(before).toBe(loop.tick);
    expect(before).toBeGreaterThan(5);
    const written = new Matrix4().compose(
      new Vector3(0, 0, 30),
      new Quaternion(),
      new Vector3(3, 3, 3),
    );
    mesh.setMatrixAt(1, written);
    mesh.instanceMatrix.needsUpdate = true;
    loop.advance(0);
    // drawn exactly as written, and the simulation goes on from it
    expect(matrixOf(mesh, 1)).toEqual(written.elements);
    expect(loop.getSimulationPose(mesh, 1).position).toEqual([0, 0, 30]);
    expect(loop.getSimulationPose(mesh, 1).scale[0]).toBeCloseTo(3, 6);
    // the other instances were not touched
    expect(loop.getSimulationPose(mesh, 2).position[0]).toBe(before);
    const info = loop.advance(1 / 60);
    expect(info.steps).toBe(1);
    expect(loop.getSimulationPose(mesh, 1).position[0]).toBe(1);
    expect(loop.getSimulationPose(mesh, 1).position[2]).toBe(30);
    expect(loop.getSimulationPose(mesh, 1).scale[0]).toBeCloseTo(3, 6);
    expect(loop.getSimulationPose(mesh, 2).position[0]).toBe(before + 1);
  });

  it('setInstancePose outside the step after a matrix write: the write is adopted first, the given pose wins', () => {
    const { loop, mesh } = scene();
    for (let frame = 0; frame < 30; frame++) loop.advance(1 / 144);
    mesh.setMatrixAt(
      1,
      new Matrix4().compose(new Vector3(0, 0, 30), new Quaternion(), new Vector3(3, 3, 3)),
    );
    mesh.instanceMatrix.needsUpdate = true;
    loop.setInstancePose(mesh, 1, new Vector3(5, 0, 0));
    // the position given last, the scale of the matrix written before it
    expect(loop.getSimulationPose(mesh, 1).position).toEqual([5, 0, 0]);
    expect(loop.getSimulationPose(mesh, 1).scale[0]).toBeCloseTo(3, 6);
    loop.advance(0);
    expect(matrixOf(mesh, 1)[12]).toBe(5);
    expect(matrixOf(mesh, 1)[14]).toBe(0);
    expect(matrixOf(mesh, 1)[0]).toBeCloseTo(3, 6);
    expect(loop.advance(1 / 60).steps).toBe(1);
    expect(loop.getSimulationPose(mesh, 1).position[0]).toBe(6);
  });

  it('a matrix written outside the step without needsUpdate is drawn over by the loop', () => {
    const { loop, mesh } = scene();
    for (let frame = 0; frame < 30; frame++) loop.advance(1 / 144);
    const simulated = loop.getSimulationPose(mesh, 1).position[0];
    mesh.setMatrixAt(1, new Matrix4().makeTranslation(0, 0, 30));
    loop.advance(1 / 144);
    expect(matrixOf(mesh, 1)[14]).toBe(0);
    expect(loop.getSimulationPose(mesh, 1).position[2]).toBe(0);
    expect(loop.getSimulationPose(mesh, 1).position[0]).toBeGreaterThanOrEqual(simulated);
  });

  it('uploads flagged by others and resets in and out of the step adopt nothing that was not written', () => {
    // the same scene twice: in `busy`, something else writes an untracked instance of the mesh
    // and sets needsUpdate every frame, so every frame looks at every instance's matrix
    const quiet = scene();
    const busy = scene();
    const other = new Matrix4();
    busy.loop.onUpdate(() => {
      busy.mesh.setMatrixAt(COUNT, other.makeTranslation(0, busy.loop.tick, 0));
      busy.mesh.instanceMatrix.needsUpdate = true;
    });
    for (const { loop, mesh } of [quiet, busy]) {
      let steps = 0;
      loop.onFixedUpdate(() => {
        // a reset inside the step, now and then, on one instance
        if (++steps % 7 === 0) loop.resetInterpolation(mesh, 3);
      });
    }
    for (let frame = 0; frame < 200; frame++) {
      for (const { loop, mesh } of [quiet, busy]) {
        loop.advance(frame % 3 === 0 ? 1 / 60 : 1 / 144);
        // and one outside it
        if (frame % 25 === 0) loop.resetInterpolation(mesh, 0);
      }
      for (let i = 0; i < COUNT; i++) {
        expect(quiet.loop.getSimulationPose(quiet.mesh, i).position[0]).toBe(quiet.loop.tick);
        expect(matrixOf(busy.mesh, i)).toEqual(matrixOf(quiet.mesh, i));
        expect(busy.loop.getSimulationPose(busy.mesh, i)).toEqual(
          quiet.loop.getSimulationPose(quiet.mesh, i),
        );
      }
    }
    expect(busy.loop.tick).toBeGreaterThan(100);
    expect(matrixOf(busy.mesh, COUNT)[13]).toBe(busy.loop.tick);
  });

  it('a reset in one step of a frame and a teleport inside the step leave the next step reading the exact pose', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const mesh = new InstancedMesh(undefined, undefined, 2);
    loop.trackInstance(mesh, 0);
    loop.trackInstance(mesh, 1);
    const position = new Vector3();
    const read: number[] = [];
    loop.onFixedUpdate(() => {
      const tick = loop.tick;
      // read back only in the step after the one that reset or teleported
      if (tick % 3 === 1) read.push(loop.getSimulationPose(mesh, 0).position[0]);
      if (tick % 3 === 2) read.push(loop.getSimulationPose(mesh, 1).position[0]);
      loop.setInstancePose(mesh, 0, position.set(tick + 0.1, 0, 0));
      loop.setInstancePose(mesh, 1, position.set(tick + 0.1, 0, 0));
      if (tick % 3 === 0) loop.resetInterpolation(mesh, 0);
      if (tick % 3 === 1) loop.teleportInstance(mesh, 1, position.set(tick + 0.7, 0, 0));
    });
    for (let frame = 0; frame < 12; frame++) {
      loop.advance(1 / 144);
      loop.advance(3 / 60); // three steps in one frame
    }
    expect(read.length).toBeGreaterThan(20);
    // exactly the doubles given, not a float32 matrix decomposed
    for (const x of read) expect([Math.floor(x) + 0.1, Math.floor(x) + 0.7]).toContain(x);
  });

  it('an instance the step stops giving a pose keeps its exact simulation pose', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const mesh = new InstancedMesh(undefined, undefined, 1);
    loop.trackInstance(mesh, 0);
    let moving = true;
    loop.onFixedUpdate(() => {
      if (moving) loop.setInstancePose(mesh, 0, { x: loop.tick + 0.1, y: 0, z: 0 });
    });
    for (let frame = 0; frame < 20; frame++) loop.advance(1 / 144);
    moving = false;
    const last = loop.tick - 1 + 0.1;
    // (not read in between: a read outside the step checks the instance, as a frame may not)
    for (let frame = 0; frame < 20; frame++) loop.advance(1 / 144);
    expect(loop.getSimulationPose(mesh, 0).position[0]).toBe(last);
    expect(mesh.getMatrixAt(0, new Matrix4()).elements[12]).toBe(Math.fround(last));
  });

  it('with restore: true the step reads its simulation matrix', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const mesh = new InstancedMesh(undefined, undefined, 1);
    loop.trackInstance(mesh, 0, { restore: true });
    const m = new Matrix4();
    const seen: number[] = [];
    loop.onFixedUpdate(() => {
      seen.push(mesh.getMatrixAt(0, m).elements[12]);
      loop.setInstancePose(mesh, 0, { x: loop.tick + 1, y: 0, z: 0 });
    });
    for (let frame = 0; frame < 40; frame++) loop.advance(1 / 144);
    expect(seen.length).toBeGreaterThan(10);
    // the pose the step before left, never an interpolated one
    expect(seen).toEqual(seen.map((_x, tick) => tick));
  });
});

describe('untracking an instance moved with setInstancePose', () => {
  it('leaves it at its simulation pose, not where it was first tracked', () => {
    const { loop, mesh } = scene();
    for (let frame = 0; frame <= 30; frame++) loop.frame((frame * 1000) / 144);
    const simulated = loop.getSimulationPose(mesh, 2);
    expect(simulated.position[0]).toBeGreaterThan(5);
    expect(loop.untrackInstance(mesh, 2)).toBe(true);
    const position = new Vector3();
    const rotation = new Quaternion();
    const scale = new Vector3();
    mesh.getMatrixAt(2, new Matrix4()).decompose(position, rotation, scale);
    expect(position.x).toBeCloseTo(simulated.position[0], 5);
    expect(position.y).toBeCloseTo(simulated.position[1], 5);
    expect(rotation.angleTo(new Quaternion(...simulated.rotation))).toBeLessThan(1e-5);
    expect(scale.x).toBeCloseTo(2, 5);
  });
});
