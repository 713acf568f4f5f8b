/**
 * The tracker's contract, tested once in core over the fake platform (test/support/
 * fake-platform.ts): the adapters' rule (simulation pose inside the step, interpolated outside),
 * per-component teleports, resets through the hierarchy, resting and waking, the modes,
 * instances, and letting go. Engine adapters' tests cover only what their platform fills in.
 * External streams: tracker-streams.test.ts; regressions: tracker-regressions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FakeBodyPlatform, fakeMesh, fakeNode, trackerOver } from './support/fake-platform.ts';

const setup = trackerOver;

describe('the rule', () => {
  it('a node holds its simulation pose inside the step and the interpolated one outside', () => {
    const { loop, tracker } = setup();
    const node = fakeNode('n');
    tracker.track(node);
    const seen: number[] = [];
    loop.onFixedUpdate(() => {
      seen.push(node.pose[0]);
      node.pose[0] += 1;
    });
    loop.advance(0.1);
    loop.advance(0.05);
    expect(node.pose[0]).toBeCloseTo(0.5, 12);
    loop.advance(0.1);
    expect(seen).toEqual([0, 1]);
    expect(node.pose[0]).toBeCloseTo(1.5, 12);
    expect(tracker.getSimulationPose(node).position[0]).toBe(2);
  });
});

describe('per-component teleports', () => {
  it('a position written outside the step teleports the position only', () => {
    const { loop, tracker } = setup();
    const node = fakeNode('n');
    tracker.track(node);
    loop.onFixedUpdate(() => {
      node.pose[0] += 1;
      node.pose[7] += 1;
    });
    loop.advance(0.1);
    loop.advance(0.05); // x 0.5, scale 1.5
    node.pose[0] = 10;
    loop.advance(0.001);
    expect(node.pose[0]).toBe(10);
    expect(node.pose[7]).toBeCloseTo(1.51, 9);
    expect(tracker.getSimulationPose(node).position[0]).toBe(10);
  });

  it('the engine body is moved to an adopted write', () => {
    const platform = new FakeBodyPlatform();
    const { loop, tracker } = setup(platform);
    const node = fakeNode('n');
    node.body = [...node.pose];
    tracker.track(node);
    loop.advance(0.1);
    node.pose[1] = 5;
    loop.advance(0.1);
    expect((node.body as number[])[1]).toBe(5);
    expect(platform.calls.adopted).toBe(1);
  });
});

describe('hierarchy', () => {
  it('a reset reaches tracked descendants, not siblings', () => {
    const { loop, tracker } = setup();
    const root = fakeNode('root');
    const child = fakeNode('child', 0, 0, 0, root);
    const other = fakeNode('other');
    for (const node of [root, child, other]) tracker.track(node);
    loop.onFixedUpdate(() => {
      child.pose[0] += 1;
      other.pose[0] += 1;
    });
    loop.advance(0.1);
    loop.advance(0.05);
    expect(tracker.reset(root)).toBe(2);
    loop.advance(0.001);
    expect(child.pose[0]).toBe(1);
    expect(other.pose[0]).toBeCloseTo(0.51, 9);
  });
});

describe('resting and waking', () => {
  it('a still node comes to rest, is skipped, and wakes when a step moves it', () => {
    const { loop, tracker, platform } = setup();
    const nodes = Array.from({ length: 300 }, (_, i) => fakeNode(`n${i}`, i));
    for (const node of nodes) tracker.track(node);
    for (let i = 0; i < 4; i++) loop.advance(0.1);
    expect(tracker.restingCount).toBe(300);
    const before = platform.calls.writePosition ?? 0;
    for (let i = 0; i < 10; i++) loop.advance(0.03);
    expect(platform.calls.writePosition ?? 0).toBe(before);
    loop.onFixedUpdate(() => {
      nodes[7].pose[1] += 1;
    });
    loop.advance(0.1);
    expect(tracker.restingCount).toBe(299);
    loop.advance(0.05);
    expect(nodes[7].pose[1]).toBeCloseTo(0.5, 12);
  });
});

describe('modes', () => {
  it("'none' draws the latest step, 'extrapolate' runs ahead along the last motion", () => {
    const { loop, tracker } = setup();
    const none = fakeNode('none');
    const ahead = fakeNode('ahead');
    tracker.track(none, { interpolation: 'none' });
    tracker.track(ahead, { interpolation: 'extrapolate' });
    loop.onFixedUpdate(() => {
      none.pose[0] += 1;
      ahead.pose[0] += 1;
    });
    loop.advance(0.1);
    loop.advance(0.1);
    loop.advance(0.05);
    expect(none.pose[0]).toBe(2);
    expect(ahead.pose[0]).toBeCloseTo(2.5, 12);
    tracker.defaultInterpolation = 'none';
    expect(tracker.modeOf(ahead)).toBe('extrapolate');
  });
});

describe('instances', () => {
  it('are interpolated into the matrix buffer and moved with setInstancePose in the step', () => {
    const { loop, tracker } = setup();
    const mesh = fakeMesh('crowd', 3);
    for (let i = 0; i < 3; i++) tracker.trackInstance(mesh, i);
    loop.onFixedUpdate((_dt, tick) =>
      tracker.setInstancePose(mesh, 2, { x: 10 + tick, y: 0, z: 0 }),
    );
    loop.advance(0.1);
    loop.advance(0.1);
    loop.advance(0.05);
    const matrices = mesh.matrices as Float32Array;
    expect(matrices[2 * 16 + 12]).toBeCloseTo(10.5, 5);
    expect(matrices[16 + 12]).toBe(1);
    expect(tracker.getSimulationPose(mesh, 2).position[0]).toBe(11);
  });
});

describe('letting go', () => {
  it('untrack leaves a node at its simulation pose; detach lets go of everything', () => {
    const { loop, tracker } = setup();
    const node = fakeNode('n');
    const mesh = fakeMesh('crowd', 2);
    tracker.track(node);
    tracker.trackInstance(mesh, 0);
    loop.onFixedUpdate(() => {
      node.pose[0] += 1;
    });
    loop.advance(0.1);
    loop.advance(0.05);
    expect(tracker.untrack(node)).toBe(true);
    expect(node.pose[0]).toBe(1);
    expect(tracker.untrack(node)).toBe(false);
    tracker.detach();
    expect(tracker.size).toBe(0);
    node.alive = false;
    expect(tracker.forgetDead()).toBe(0);
  });
});
