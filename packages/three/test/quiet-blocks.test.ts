/**
 * Frames without steps skip the blocks of slots the last interpolation pass left all at rest
 * (core frame-passes.ts, "quiet blocks"). These tests wake one object in a pile of 300 at rest
 * (three blocks of 128 slots) in each way there is, and check it is drawn right in the frames
 * without steps that follow, while the rest of the pile stays at rest.
 */
import { Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { ThreeFixedLoop } from '../src/index.ts';

const N = 300;
const FRAME = 1 / 144;

/** 300 objects at rest on a 60 Hz loop; `speed[i]` (m/s along y) sets object i moving. */
function pile() {
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  const objects: Object3D[] = [];
  for (let i = 0; i < N; i++) {
    const o = new Object3D();
    o.position.set(i, 0, 0);
    loop.track(o);
    objects.push(o);
  }
  const speed = new Float64Array(N);
  let steps = 0;
  loop.onFixedUpdate((dt) => {
    steps++;
    for (let i = 0; i < N; i++) objects[i].position.y += speed[i] * dt;
  });
  // steps that leave every object where it was: settled, then at rest
  for (let k = 0; k < 3; k++) loop.advance(1 / 60);
  return { loop, objects, speed, steps: () => steps };
}

/** Runs frames of 1/144 s until one runs no step; returns the loop's alpha in it. */
function frameWithoutSteps(loop: ThreeFixedLoop): number {
  for (let k = 0; k < 10; k++) {
    loop.advance(FRAME);
    if (loop.lastFrame.steps === 0) return loop.alpha;
  }
  throw new Error('no frame without steps in 10 frames');
}

/**
 * Runs `frames` frames; in each that runs no step, once two steps ran, checks that `drawn()`
 * lies between the simulated values `at(k - 1)` and `at(k)` of the last two steps at the loop's
 * alpha (`k` steps since the call). Returns how many frames it checked.
 */
function checkInterpolated(
  loop: ThreeFixedLoop,
  frames: number,
  steps: () => number,
  drawn: () => number,
  at: (k: number) => number,
): number {
  const start = steps();
  let checked = 0;
  for (let f = 0; f < frames; f++) {
    loop.advance(FRAME);
    const k = steps() - start;
    if (loop.lastFrame.steps !== 0 || k < 2) continue;
    expect(drawn()).toBeCloseTo(at(k - 1) + (at(k) - at(k - 1)) * loop.alpha, 12);
    checked++;
  }
  return checked;
}

describe('blocks at rest in frames without steps', () => {
  it('starts at rest: every object of the pile', () => {
    const { loop } = pile();
    expect(loop.tracker.restingCount).toBe(N);
  });

  it('draws an object the step sets moving again interpolated, frame by frame', () => {
    const { loop, objects, speed, steps } = pile();
    speed[250] = 6;
    // simulated y after step k is 0.1 k (6 m/s at 60 Hz)
    const checked = checkInterpolated(
      loop,
      48,
      steps,
      () => objects[250].position.y,
      (k) => 0.1 * k,
    );
    expect(checked).toBeGreaterThan(20);
    expect(loop.tracker.restingCount).toBe(N - 1);
    expect(objects[249].position.y).toBe(0);
    expect(objects[10].position.y).toBe(0);
  });

  it('shows a teleport made in a frame without steps at once, and keeps it', () => {
    const { loop, objects } = pile();
    frameWithoutSteps(loop);
    loop.teleport(objects[200], { x: 5, y: 6, z: 7 });
    for (let f = 0; f < 12; f++) {
      loop.advance(FRAME);
      expect(objects[200].position.toArray()).toEqual([5, 6, 7]);
    }
    expect(loop.getSimulationPose(objects[200]).position).toEqual([5, 6, 7]);
    expect(loop.tracker.restingCount).toBe(N);
  });

  it('interpolates an object whose mode changes in a frame without steps', () => {
    const { loop, objects, speed, steps } = pile();
    loop.track(objects[140], { interpolation: 'none' });
    frameWithoutSteps(loop);
    loop.track(objects[140], { interpolation: 'interpolate' });
    speed[140] = 6;
    const checked = checkInterpolated(
      loop,
      24,
      steps,
      () => objects[140].position.y,
      (k) => 0.1 * k,
    );
    expect(checked).toBeGreaterThan(8);
  });

  it('draws an object tracked in a frame without steps beside the pile', () => {
    const { loop, objects } = pile();
    frameWithoutSteps(loop);
    const added = new Object3D();
    added.position.set(-1, 0, 0);
    loop.track(added);
    let step = 0;
    loop.onFixedUpdate(() => {
      step++;
      added.position.x = step;
    });
    // simulated x after the loop's step n is n
    const first = step;
    const checked = checkInterpolated(
      loop,
      24,
      () => step,
      () => added.position.x,
      (k) => first + k,
    );
    expect(checked).toBeGreaterThan(8);
    expect(objects.every((o) => o.position.y === 0)).toBe(true);
  });

  it('keeps a write to an object at rest made in a frame without steps, and adopts it', () => {
    const { loop, objects } = pile();
    frameWithoutSteps(loop);
    objects[130].position.z = 3;
    frameWithoutSteps(loop);
    expect(objects[130].position.z).toBe(3);
    loop.advance(1 / 60);
    expect(loop.getSimulationPose(objects[130]).position).toEqual([130, 0, 3]);
    for (let f = 0; f < 12; f++) {
      loop.advance(FRAME);
      expect(objects[130].position.z).toBe(3);
    }
  });
});

describe('blocks at rest before the steps', () => {
  /** Frames of 1/144 s; returns the y the step found object `i` at, step by step. */
  function seenByTheStep(loop: ThreeFixedLoop, objects: Object3D[], i: number, frames: number) {
    const seen: number[] = [];
    loop.onFixedUpdate(() => seen.push(objects[i].position.y), { priority: -1 });
    for (let f = 0; f < frames; f++) loop.advance(FRAME);
    return seen;
  }

  it('gives the step the simulation pose of an object it set moving, not the drawn one', () => {
    const { loop, objects, speed } = pile();
    speed[250] = 6;
    const seen = seenByTheStep(loop, objects, 250, 48);
    // 0.1 m per step from the first: step k + 1 finds the y step k left, 0.1 k
    expect(seen.length).toBeGreaterThan(15);
    for (const [k, value] of seen.entries()) expect(value).toBeCloseTo(0.1 * k, 12);
  });

  it('gives the step the simulation pose of an object that rests, then moves again', () => {
    const { loop, objects, speed } = pile();
    speed[5] = 6;
    for (let f = 0; f < 24; f++) loop.advance(FRAME);
    speed[5] = 0;
    // at rest again, its block quiet
    for (let f = 0; f < 24; f++) loop.advance(FRAME);
    expect(loop.tracker.restingCount).toBe(N);
    const y = loop.getSimulationPose(objects[5]).position[1];
    speed[5] = 6;
    const seen = seenByTheStep(loop, objects, 5, 48);
    expect(seen.length).toBeGreaterThan(15);
    for (const [k, value] of seen.entries()) expect(value).toBeCloseTo(y + 0.1 * k, 12);
  });
});
