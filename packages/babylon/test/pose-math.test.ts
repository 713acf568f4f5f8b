import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { Scene } from '@babylonjs/core/scene.js';
import { describe, expect, it } from 'vitest';
import { composeMatrix, decomposeMatrix, scaleBasisRows, worldToLocal } from '../src/pose-math.ts';

const q = Quaternion.RotationYawPitchRoll(0.4, -1.1, 2.3);

describe('pose math agrees with Babylon.js', () => {
  it('composeMatrix writes exactly what Matrix.ComposeToRef writes (unit scale unless scaled)', () => {
    // Babylon matrices (and thin-instance buffers) are Float32Arrays
    const expected = Matrix.Compose(new Vector3(0.5, 2, 3), q, new Vector3(1, -2, 7)).toArray();
    const out = new Float32Array(16);
    composeMatrix(out, 0, [1, -2, 7, q.x, q.y, q.z, q.w, 0.5, 2, 3], 0, true);
    expect(Array.from(out)).toEqual(Array.from(expected));
    composeMatrix(out, 0, [1, -2, 7, q.x, q.y, q.z, q.w, 0.5, 2, 3], 0, false);
    const unit = Matrix.Compose(Vector3.One(), q, new Vector3(1, -2, 7)).toArray();
    expect(Array.from(out)).toEqual(Array.from(unit));
  });

  it('decomposeMatrix gives back position, rotation and scale (mirrored too)', () => {
    for (const scale of [new Vector3(0.5, 2, 3), new Vector3(-1, 1, 1)]) {
      const m = Matrix.Compose(scale, q, new Vector3(1, -2, 7));
      const out = new Float64Array(10);
      decomposeMatrix(m.m, 0, out, 0);
      const back = new Float64Array(16);
      composeMatrix(back, 0, out, 0, true);
      Array.from(m.m).forEach((v, i) => {
        expect(back[i]).toBeCloseTo(v, 6);
      });
      expect(Math.hypot(out[3], out[4], out[5], out[6])).toBeCloseTo(1, 14);
    }
  });

  it('scaleBasisRows turns Havok’s unscaled matrix into the instance’s scaled one', () => {
    const unscaled = Float32Array.from(Matrix.Compose(Vector3.One(), q, new Vector3(3, 4, 5)).m);
    scaleBasisRows(unscaled, 0, [0.5, 2, 3], 0);
    const scaled = Matrix.Compose(new Vector3(0.5, 2, 3), q, new Vector3(3, 4, 5)).m;
    Array.from(scaled).forEach((v, i) => {
      expect(unscaled[i]).toBeCloseTo(v, 6);
    });
  });

  it('worldToLocal inverts a parent with position, rotation and scale', () => {
    const scene = new Scene(new NullEngine());
    const parent = new TransformNode('p', scene);
    parent.position.set(5, -1, 2);
    parent.rotationQuaternion = Quaternion.RotationYawPitchRoll(1, 0.3, -0.2);
    parent.scaling.set(2, 2, 2);
    const child = new TransformNode('c', scene);
    child.parent = parent;
    const world = new Vector3(3, 8, -4);
    const out = new Float64Array(7);
    const pq = parent.computeWorldMatrix(true) && parent.absoluteRotationQuaternion;
    worldToLocal(
      parent.getWorldMatrix().m,
      pq,
      [world.x, world.y, world.z, q.x, q.y, q.z, q.w],
      0,
      out,
      0,
    );
    child.position.set(out[0], out[1], out[2]);
    child.rotationQuaternion = new Quaternion(out[3], out[4], out[5], out[6]);
    child.computeWorldMatrix(true);
    expect(child.absolutePosition.x).toBeCloseTo(3, 5);
    expect(child.absolutePosition.y).toBeCloseTo(8, 5);
    expect(child.absolutePosition.z).toBeCloseTo(-4, 5);
    const aq = child.absoluteRotationQuaternion;
    expect(Math.abs(Quaternion.Dot(aq, q))).toBeCloseTo(1, 6);
  });
});
