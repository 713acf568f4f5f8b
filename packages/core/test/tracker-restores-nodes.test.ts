/**
 * `TrackingPlatform.restoresNodes`, on the core tracker over a fake engine that holds the
 * simulation pose itself (`capture`), as a physics engine's platform does: by default every node
 * gets its simulation pose back before the steps; with `false` it keeps the pose it was drawn at,
 * and is written once per frame instead of twice.
 */
import { FixedLoop } from '@fixedtick/core';
import { Tracker, type TrackingPlatform } from '@fixedtick/core/tracking';
import { describe, expect, it } from 'vitest';

/** A node of the fake engine: the pose it stores, and its body's pose (x y z, quaternion). */
interface Node {
  stored: number[];
  body: number[];
}

/** The engine side, keeping each node's body by slot; counts position writes. */
class EnginePlatform implements TrackingPlatform<Node> {
  readonly bySlot: Node[] = [];
  readonly restoresNodes: boolean;
  positionWrites = 0;
  constructor(restoresNodes: boolean) {
    this.restoresNodes = restoresNodes;
  }
  read(node: Node, _slot: number, rows: Float64Array, at: number): void {
    for (let k = 0; k < 10; k++) rows[at + k] = node.stored[k];
  }
  writePosition(node: Node, _slot: number, rows: Float64Array, at: number): void {
    this.positionWrites++;
    for (let k = 0; k < 3; k++) node.stored[k] = rows[at + k];
  }
  writeRotation(node: Node, _slot: number, rows: Float64Array, at: number): void {
    for (let k = 3; k < 7; k++) node.stored[k] = rows[at + k];
  }
  writeScale(node: Node, _slot: number, rows: Float64Array, at: number): void {
    for (let k = 7; k < 10; k++) node.stored[k] = rows[at + k];
  }
  parentOf(): Node | null {
    return null;
  }
  capture(_node: Node, slot: number, rows: Float64Array, at: number): boolean {
    const node = this.bySlot[slot];
    for (let k = 0; k < 7; k++) rows[at + k] = node.body[k];
    for (let k = 7; k < 10; k++) rows[at + k] = node.stored[k];
    return true;
  }
}

/**
 * One body moving +1 m per step at 10 Hz, drawn half a step behind; returns where its node was
 * seen inside the next step and how many times the node was written in that frame.
 */
function seenInsideTheStep(restoresNodes: boolean): { stored: number; writes: number } {
  const loop = new FixedLoop({ tickRate: 10 });
  const platform = new EnginePlatform(restoresNodes);
  const tracker = new Tracker<Node>(platform);
  loop.addAdapter(tracker);
  const body: Node = { stored: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1], body: [0, 0, 0, 0, 0, 0, 1] };
  platform.bySlot[tracker.track(body)] = body;
  loop.addAdapter({
    physicsStep: () => {
      body.body[0] += 1;
    },
  });
  loop.advance(0.1); // step 1: the body at 1
  loop.advance(0.05); // drawn between 0 and 1
  expect(body.stored[0]).toBeCloseTo(0.5, 12);
  let stored = Number.NaN;
  loop.onFixedUpdate(() => {
    stored = body.stored[0];
  });
  platform.positionWrites = 0;
  loop.advance(0.1); // step 2, then drawn between 1 and 2
  expect(body.stored[0]).toBeCloseTo(1.5, 12);
  return { stored, writes: platform.positionWrites };
}

describe('restoresNodes', () => {
  it('by default puts the simulation pose back into the node before the steps', () => {
    const { stored, writes } = seenInsideTheStep(true);
    expect(stored).toBe(1);
    expect(writes).toBe(2); // the restore, then the frame's drawn pose
  });

  it('false: the node keeps the pose it was drawn at inside the step, and is written once', () => {
    const { stored, writes } = seenInsideTheStep(false);
    expect(stored).toBeCloseTo(0.5, 12);
    expect(writes).toBe(1); // only the frame's drawn pose
  });
});
