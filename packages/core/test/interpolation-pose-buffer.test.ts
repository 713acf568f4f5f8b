import { FixedLoop } from '@fixedtick/core';
import {
  lerp,
  POSE_STRIDE,
  PoseBuffer,
  ROTATION_OFFSET,
  SCALE_OFFSET,
  slerp,
} from '@fixedtick/core/interpolation';
import { describe, expect, it } from 'vitest';

type Pose = [number, number, number, number, number, number, number, number, number, number];

function yaw(x: number, angle: number, scale = 1): Pose {
  return [x, 0, 0, 0, Math.sin(angle / 2), 0, Math.cos(angle / 2), scale, scale, scale];
}

function row(array: Float64Array, slot: number): number[] {
  return Array.from(array.subarray(slot * POSE_STRIDE, (slot + 1) * POSE_STRIDE));
}

describe('PoseBuffer slots', () => {
  it('hands out slots, reuses freed ones and grows past its capacity', () => {
    const poses = new PoseBuffer(2);
    const a = poses.add();
    const b = poses.add('none');
    const c = poses.add('extrapolate');
    expect([a, b, c]).toEqual([0, 1, 2]);
    expect(poses.capacity).toBe(4);
    expect(poses.count).toBe(3);
    poses.remove(b);
    expect(poses.has(b)).toBe(false);
    const d = poses.add();
    expect(d).toBe(b);
    expect(poses.getMode(d)).toBe('interpolate');
    expect(poses.getMode(c)).toBe('extrapolate');
    expect(poses.size).toBe(3);
  });

  it('keeps poses across growth', () => {
    const poses = new PoseBuffer(1);
    const a = poses.add();
    poses.setPose(a, ...yaw(7, 0.5));
    for (let i = 0; i < 100; i++) poses.add();
    expect(row(poses.current, a)).toEqual(yaw(7, 0.5));
    expect(poses.capacity).toBeGreaterThanOrEqual(101);
  });

  it('starts a slot at the identity pose in every row', () => {
    const poses = new PoseBuffer();
    const a = poses.add();
    for (const array of [poses.previous, poses.current, poses.output]) {
      expect(row(array, a)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
    }
  });

  it('rejects bad modes, slots and capacities with a RangeError', () => {
    const poses = new PoseBuffer();
    expect(() => poses.add('smooth' as never)).toThrow(/option "interpolation".*"smooth"/);
    expect(() => poses.getMode(5)).toThrow(RangeError);
    expect(() => new PoseBuffer(0)).toThrow(/option "capacity".*0/);
  });
});

describe('PoseBuffer.interpolate', () => {
  it("'interpolate' renders lerp/slerp(previous, current, alpha) of every row", () => {
    const poses = new PoseBuffer();
    const a = poses.add();
    poses.setPose(a, ...yaw(0, 0, 1));
    poses.push(a, ...yaw(3, Math.PI / 2, 2));
    for (const alpha of [0, 0.25, 0.5, 0.9, 1]) {
      poses.interpolate(alpha, 1 / 60);
      const out = row(poses.output, a);
      const expectedRotation = [0, 0, 0, 0];
      slerp(expectedRotation, 0, poses.previous, ROTATION_OFFSET, poses.current, 3, alpha);
      expect(out[0]).toBe(lerp(0, 3, alpha));
      expect(out.slice(3, 7)).toEqual(expectedRotation);
      expect(out[SCALE_OFFSET]).toBe(lerp(1, 2, alpha));
    }
    poses.interpolate(0.5, 1 / 60);
    // a 90° turn renders 45° at alpha 0.5
    expect(2 * Math.atan2(poses.output[4], poses.output[6])).toBeCloseTo(Math.PI / 4, 14);
  });

  it('alpha 0 renders previous and alpha 1 renders current, exactly', () => {
    const poses = new PoseBuffer();
    const a = poses.add();
    poses.setPose(a, ...yaw(0.1, 0.2, 0.3));
    poses.push(a, ...yaw(0.7, 1.3, 1.9));
    poses.interpolate(0, 1 / 60);
    expect(row(poses.output, a)).toEqual(row(poses.previous, a));
    poses.interpolate(1, 1 / 60);
    expect(row(poses.output, a)).toEqual(row(poses.current, a));
  });

  it("'none' renders the current pose", () => {
    const poses = new PoseBuffer();
    const a = poses.add('none');
    poses.setPose(a, ...yaw(0, 0));
    poses.push(a, ...yaw(5, 1, 3));
    poses.interpolate(0.3, 1 / 60);
    expect(row(poses.output, a)).toEqual(yaw(5, 1, 3));
  });

  it("'extrapolate' of a constant velocity (estimated) renders the continuous motion", () => {
    const poses = new PoseBuffer();
    const a = poses.add('extrapolate');
    const dt = 1 / 60;
    const v = 4; // units/s
    const w = 2; // rad/s about y
    poses.setPose(a, ...yaw(0, 0));
    poses.push(a, ...yaw(v * dt, w * dt));
    poses.interpolate(0.4, dt);
    const t = dt * 1.4;
    const out = row(poses.output, a);
    expect(out[0]).toBeCloseTo(v * t, 14);
    expect(2 * Math.atan2(out[4], out[6])).toBeCloseTo(w * t, 12);
    expect(out.slice(SCALE_OFFSET)).toEqual([1, 1, 1]);
  });

  it("'extrapolate' prefers a supplied velocity", () => {
    const poses = new PoseBuffer();
    const a = poses.add('extrapolate');
    poses.setPose(a, ...yaw(1, 0));
    poses.setVelocity(a, 6, 0, 0, 0, 3, 0);
    expect(poses.hasVelocity(a)).toBe(true);
    poses.interpolate(0.5, 0.1);
    const out = row(poses.output, a);
    expect(out[0]).toBeCloseTo(1 + 6 * 0.05, 14);
    expect(2 * Math.atan2(out[4], out[6])).toBeCloseTo(3 * 0.05, 14);
    poses.clearVelocity(a);
    poses.interpolate(0.5, 0.1);
    expect(row(poses.output, a)).toEqual(yaw(1, 0));
  });

  it('skips free slots and changes mode live', () => {
    const poses = new PoseBuffer();
    const a = poses.add();
    const b = poses.add();
    poses.setPose(b, ...yaw(0, 0));
    poses.push(b, ...yaw(10, 0));
    poses.remove(a);
    poses.setMode(b, 'none');
    poses.interpolate(0.5, 1 / 60);
    expect(poses.output[b * POSE_STRIDE]).toBe(10);
    poses.setMode(b, 'interpolate');
    poses.interpolate(0.5, 1 / 60);
    expect(poses.output[b * POSE_STRIDE]).toBe(5);
  });

  it('shiftAll then writing current equals push', () => {
    const pushed = new PoseBuffer();
    const shifted = new PoseBuffer();
    for (const poses of [pushed, shifted]) {
      poses.add();
      poses.add();
      poses.setPose(0, ...yaw(1, 0.1));
      poses.setPose(1, ...yaw(2, 0.2));
    }
    pushed.push(0, ...yaw(3, 0.3));
    pushed.push(1, ...yaw(4, 0.4));
    shifted.shiftAll();
    shifted.setCurrent(0, ...yaw(3, 0.3));
    shifted.setCurrent(1, ...yaw(4, 0.4));
    expect(Array.from(shifted.previous.subarray(0, 20))).toEqual(
      Array.from(pushed.previous.subarray(0, 20)),
    );
    expect(Array.from(shifted.current.subarray(0, 20))).toEqual(
      Array.from(pushed.current.subarray(0, 20)),
    );
  });
});

describe('PoseBuffer.reset (teleport)', () => {
  it('makes previous = current, clears velocity and outputs the current pose exactly', () => {
    const poses = new PoseBuffer();
    const a = poses.add('extrapolate');
    poses.setPose(a, ...yaw(0, 0));
    poses.push(a, ...yaw(100, 2));
    poses.setVelocity(a, 5, 5, 5, 1, 1, 1);
    poses.reset(a);
    expect(poses.hasVelocity(a)).toBe(false);
    expect(row(poses.output, a)).toEqual(yaw(100, 2));
    for (const mode of ['none', 'interpolate', 'extrapolate'] as const) {
      poses.setMode(a, mode);
      for (const alpha of [0, 0.37, 1]) {
        poses.interpolate(alpha, 1 / 60);
        expect(row(poses.output, a)).toEqual(yaw(100, 2));
      }
    }
    // motion continues from the new pose
    poses.setMode(a, 'interpolate');
    poses.push(a, ...yaw(110, 2));
    poses.interpolate(0.5, 1 / 60);
    expect(poses.output[a * POSE_STRIDE]).toBe(105);
  });

  it('resetAll resets every slot', () => {
    const poses = new PoseBuffer();
    const a = poses.add();
    const b = poses.add();
    poses.push(a, ...yaw(10, 1));
    poses.push(b, ...yaw(20, 1));
    poses.resetAll();
    poses.interpolate(0.5, 1 / 60);
    expect(poses.output[a * POSE_STRIDE]).toBe(10);
    expect(poses.output[b * POSE_STRIDE]).toBe(20);
  });
});

describe('PoseBuffer in a FixedLoop', () => {
  it('144 frames of 1/144 s, x += 300 * dt at 60 Hz: simulated 300, rendered 295', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const poses = new PoseBuffer();
    const body = poses.add();
    let x = 0;
    poses.setPose(body, ...yaw(0, 0));
    loop.onFixedUpdate((dt) => {
      x += 300 * dt;
    });
    loop.onPostSimulation(() => poses.push(body, ...yaw(x, 0)));
    loop.onUpdate((_dt, alpha) => poses.interpolate(alpha, loop.fixedDelta));
    for (let i = 0; i < 144; i++) loop.advance(1 / 144);
    expect(loop.tick).toBe(60);
    expect(x).toBeCloseTo(300, 9);
    expect(poses.output[body * POSE_STRIDE]).toBeCloseTo(295, 9);
  });
});

describe('PoseBuffer slerp cache', () => {
  it('renders bit for bit the uncached slerp across steps, frames between steps and growth', () => {
    const poses = new PoseBuffer(5);
    // angular speeds per step: nlerp range, trig range, a constant speed (same dot every step
    // for different rotations), a turn past 180° (negative dot) and no turn at all
    const speeds = [0.01, 0.4, 0.4, 2.5, 0];
    const angles = speeds.map(() => 0);
    const slots = speeds.map((_, i) => {
      const slot = poses.add();
      poses.setPose(slot, ...yaw(i, 0));
      return slot;
    });
    const expected = [0, 0, 0, 0];
    let compared = 0;
    for (let step = 0; step < 40; step++) {
      slots.forEach((slot, i) => {
        angles[i] += i === 2 ? speeds[i] : speeds[i] * (1 + (step % 3) * 0.25);
        poses.push(slot, ...yaw(i + step, angles[i]));
      });
      if (step === 20) poses.add(); // grows past capacity 5: the cache must survive
      for (const alpha of [0.1, 0.35, 0.6, 0.85, 0.35]) {
        poses.interpolate(alpha, 1 / 60);
        for (const slot of slots) {
          const r = slot * POSE_STRIDE + ROTATION_OFFSET;
          slerp(expected, 0, poses.previous, r, poses.current, r, alpha);
          expect(Array.from(poses.output.subarray(r, r + 4))).toEqual(expected);
          for (let k = 0; k < 4; k++)
            expect(Object.is(poses.output[r + k], expected[k])).toBe(true);
          compared++;
        }
      }
    }
    expect(compared).toBe(40 * 5 * speeds.length);
    expect(poses.capacity).toBe(10);
  });
});

describe('PoseBuffer.setClock + interpolateSlotAt', () => {
  it('gives exactly what interpolateSlot gives, in every mode, at the clock’s alpha', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const viaClock = new PoseBuffer();
    const viaArgs = new PoseBuffer();
    const modes = ['interpolate', 'none', 'extrapolate'] as const;
    for (const buffer of [viaClock, viaArgs]) {
      for (const mode of modes) {
        const slot = buffer.add(mode);
        buffer.setCurrent(slot, ...yaw(0, 0.2, 1));
        buffer.reset(slot);
      }
      buffer.shiftAll();
      for (let slot = 0; slot < modes.length; slot++) buffer.setCurrent(slot, ...yaw(3, 1.1, 2));
    }
    for (let f = 0; f < 5; f++) {
      loop.advance(1 / 144);
      viaClock.setClock(loop);
      viaArgs.interpolateSlot(0, loop.alpha, loop.fixedDelta);
      viaArgs.interpolateSlot(1, loop.alpha, loop.fixedDelta);
      viaArgs.interpolateSlot(2, loop.alpha, loop.fixedDelta);
      for (let slot = 0; slot < modes.length; slot++) viaClock.interpolateSlotAt(slot);
      expect(loop.alpha).toBeGreaterThan(0);
      expect([...viaClock.output.subarray(0, 3 * POSE_STRIDE)]).toEqual([
        ...viaArgs.output.subarray(0, 3 * POSE_STRIDE),
      ]);
    }
    // the interpolated row is strictly between the two poses, not either end
    const x = viaClock.output[0];
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(3);
  });
});
