/**
 * Issue #29, item 8: one rule for `null` in options. Only `undefined` (or leaving the option
 * out) means "not given, use the default"; `null` is refused with the option's usual error,
 * everywhere — as TypeScript's optional properties (`x?: T`) and the loop's own options always
 * had it. Where `null` is a value of its own it is documented as one (`document: null`,
 * `keyboard: null`: none). See docs/errors.md.
 */
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import RAPIER from '@dimforge/rapier3d-compat';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { enableHavok } from '@fixedtick/babylon/havok';
import { FixedLoop, frameCallbackDriver, LOOP_OPTION_NAMES, rafDriver } from '@fixedtick/core';
import { createTimingGraph } from '@fixedtick/core/debug';
import { InputLatch, InputRecording } from '@fixedtick/core/input';
import { nodeDriver } from '@fixedtick/core/node';
import { Enum, RunService } from '@fixedtick/core/roblox';
import { ThreeFixedLoop } from '@fixedtick/three';
import { RapierPhysics } from '@fixedtick/three/rapier';
import { beforeAll, describe, expect, it } from 'vitest';
import { ListenerTarget } from '../support/listener-target.ts';

beforeAll(async () => {
  await RAPIER.init();
});

/** The message of what `fn` throws (sync or async). */
async function thrown(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('null is refused wherever undefined means "not given"', () => {
  it.each(LOOP_OPTION_NAMES)('FixedLoop and both adapters: { %s: null }', async (name) => {
    const pattern = new RegExp(`option "${name}" must be .*got null`);
    expect(() => new FixedLoop({ [name]: null })).toThrow(pattern);
    expect(() => new ThreeFixedLoop({ [name]: null })).toThrow(pattern);
    const scene = new Scene(new NullEngine());
    expect(() => new BabylonFixedLoop(scene, { [name]: null })).toThrow(pattern);
  });

  it('defaultInterpolation: null, in ThreeFixedLoop, BabylonFixedLoop and RapierPhysics', () => {
    const pattern =
      /option "defaultInterpolation" must be "none", "interpolate" or "extrapolate", got null/;
    expect(() => new ThreeFixedLoop({ defaultInterpolation: null as never })).toThrow(pattern);
    const scene = new Scene(new NullEngine());
    expect(() => new BabylonFixedLoop(scene, { defaultInterpolation: null as never })).toThrow(
      pattern,
    );
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    expect(
      () => new RapierPhysics(new ThreeFixedLoop(), world, { defaultInterpolation: null as never }),
    ).toThrow(pattern);
    for (const name of ['autoTrack', 'render'] as const) {
      expect(() => new BabylonFixedLoop(scene, { [name]: null as never })).toThrow(
        new RegExp(`"${name}".*got null`),
      );
    }
  });

  it.each([
    'tickRate',
    'lateThresholdMs',
    'spinMs',
    'clockJumpMs',
    'now',
    'scheduler',
    'onClockAnomaly',
  ] as const)('nodeDriver({ %s: null })', (name) => {
    expect(() => nodeDriver({ [name]: null as never })).toThrow(
      new RegExp(`option "${name}" must be .*got null`),
    );
  });

  it('the drivers, the input latch, replays and the timing graph', async () => {
    expect(() => rafDriver({ host: null as never })).toThrow(/option "host" must be .*got null/);
    expect(() => rafDriver(null as never)).toThrow(/option "options" must be an object, got null/);
    const source = { start() {}, stop() {} };
    expect(() => frameCallbackDriver(source, { now: null as never })).toThrow(
      /option "now" must be .*got null/,
    );
    // document: null is a value of its own (no document): accepted
    expect(() => frameCallbackDriver(source, { document: null })).not.toThrow();
    const loop = new FixedLoop();
    expect(() => new InputLatch(loop, { timing: null as never })).toThrow(/"timing".*got null/);
    const latch = new InputLatch(loop);
    for (const name of ['preventDefault', 'releaseOnBlur'] as const) {
      expect(() => latch.bindKeyboard(new ListenerTarget(), { [name]: null as never })).toThrow(
        new RegExp(`"${name}".*got null`),
      );
    }
    expect(() => latch.bindPointer(new ListenerTarget(), { capture: null as never })).toThrow(
      /"capture".*got null/,
    );
    const rec = InputRecording.fromJSON({
      format: 'fixedtick-input',
      version: 1,
      fixedDelta: loop.fixedDelta,
      length: 1,
      start: { held: [], pointer: [0, 0] },
      events: [],
    });
    expect(() => rec.replay(latch, { onEnd: null as never })).toThrow(/"onEnd".*got null/);
    const container = { appendChild() {}, ownerDocument: undefined };
    for (const name of [
      'frames',
      'position',
      'visible',
      'width',
      'height',
      'maxFrameMs',
      'toggleKey',
    ]) {
      const error = await thrown(() =>
        createTimingGraph(loop, { container, [name]: null } as never),
      );
      expect(error.message).toMatch(new RegExp(`option "${name}" must be .*got null`));
    }
    expect(() => loop.onUpdate(() => {}, { priority: null as never })).toThrow(/got null/);
  });

  it('enableHavok: gravity and havok null are refused, not the defaults', async () => {
    const scene = new Scene(new NullEngine());
    expect((await thrown(() => enableHavok(scene, { gravity: null as never }))).message).toMatch(
      /option "gravity" must be .*got null/,
    );
    expect((await thrown(() => enableHavok(scene, { havok: null as never }))).message).toMatch(
      /option "havok" must be .*got null/,
    );
  });
});

describe('BindToSimulation takes an Enum.StepFrequency item, as Roblox documents it', () => {
  it.each([0, 1, 5, 30, null, 'Hz7', {}])('frequency %s is a RangeError', (frequency) => {
    const RunServiceLike = new RunService(new FixedLoop());
    expect(() => RunServiceLike.BindToSimulation(() => {}, frequency as never)).toThrow(
      /option "frequency" must be an Enum.StepFrequency item \(Hz60 … Hz1\), got/,
    );
  });

  it('items and their names are taken; leaving it out is Hz30', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const run = new RunService(loop);
    const deltas: Record<string, number[]> = { item: [], name: [], default: [] };
    run.BindToSimulation((dt) => deltas.item.push(dt), Enum.StepFrequency.Hz15);
    run.BindToSimulation((dt) => deltas.name.push(dt), 'Hz15');
    run.BindToSimulation((dt) => deltas.default.push(dt));
    for (let i = 0; i < 60; i++) loop.advance(1 / 60);
    expect(deltas.item).toEqual(new Array(15).fill(1 / 15));
    expect(deltas.name).toEqual(deltas.item);
    expect(deltas.default).toEqual(new Array(30).fill(1 / 30));
  });
});
