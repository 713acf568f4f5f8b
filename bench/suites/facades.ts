/**
 * The engine facades' per-frame cost: heap bytes allocated per frame and time per frame, each
 * against the bare loop running the same user code through plain hooks, at 144 fps with 60 Hz
 * steps (Unity: 50 Hz). The facades allocate no objects; the bytes both sides show are V8 boxing
 * fractional doubles passed to listeners it does not inline (see the `core` suite), so the
 * facade's figure should not exceed the bare loop's.
 */

import { GodotEngine, Node } from '../../packages/core/src/entries/godot.ts';
import { Enum, RunService } from '../../packages/core/src/entries/roblox.ts';
import { UnityTime } from '../../packages/core/src/entries/unity.ts';
import { FixedLoop, presets } from '../../packages/core/src/index.ts';
import { allocationPerCall, compare } from '../lib.ts';

const FRAME = 1 / 144;
const FRAMES = 100_000;

/** User code writes into a typed array (a boxed double in a closure would itself allocate). */
const sink = new Float64Array(1);

function unity(): Record<string, unknown> {
  const loop = new FixedLoop(presets.unity);
  const Time = new UnityTime(loop);
  for (let i = 0; i < 4; i++) {
    Time.register({
      FixedUpdate() {
        sink[0] += Time.deltaTime + Time.time;
      },
      Update() {
        sink[0] += Time.deltaTime + Time.unscaledDeltaTime;
      },
      LateUpdate() {
        sink[0] -= Time.time;
      },
    });
  }
  const bare = new FixedLoop(presets.unity);
  for (let i = 0; i < 4; i++) {
    bare.onFixedUpdate((dt) => {
      sink[0] += dt + bare.fixedTime;
    });
    bare.onUpdate((dt) => {
      sink[0] += dt + bare.lastFrame.unscaledDelta;
    });
    bare.onLateUpdate(() => {
      sink[0] -= bare.time;
    });
  }
  return {
    behaviours: 4,
    allocation: allocationPerCall(() => loop.advance(FRAME), FRAMES),
    bareAllocation: allocationPerCall(() => bare.advance(FRAME), FRAMES),
    time: compare(
      () => loop.advance(FRAME),
      () => bare.advance(FRAME),
      20_000,
    ),
  };
}

function godot(): Record<string, unknown> {
  const loop = new FixedLoop({ ...presets.godot, jitterFix: 0 });
  const engine = new GodotEngine(loop);
  class Body extends Node {
    override _physics_process(delta: number): void {
      sink[0] += delta;
    }
    override _process(delta: number): void {
      sink[0] -= delta * engine.get_physics_interpolation_fraction();
    }
  }
  // 4 parents × 4 children: 20 processing nodes
  for (let p = 0; p < 4; p++) {
    const parent = new Body(`p${p}`);
    engine.root.add_child(parent);
    for (let c = 0; c < 4; c++) parent.add_child(new Body(`c${p}.${c}`));
  }
  const bare = new FixedLoop({ ...presets.godot, jitterFix: 0 });
  for (let i = 0; i < 20; i++) {
    bare.onFixedUpdate((dt) => {
      sink[0] += dt;
    });
    bare.onUpdate((dt, alpha) => {
      sink[0] -= dt * alpha;
    });
  }
  return {
    nodes: 20,
    allocation: allocationPerCall(() => loop.advance(FRAME), FRAMES),
    bareAllocation: allocationPerCall(() => bare.advance(FRAME), FRAMES),
    time: compare(
      () => loop.advance(FRAME),
      () => bare.advance(FRAME),
      20_000,
    ),
  };
}

function roblox(): Record<string, unknown> {
  const loop = new FixedLoop(presets.roblox);
  const runService = new RunService(loop);
  const add = (dt: number) => {
    sink[0] += dt;
  };
  runService.PreAnimation.Connect(add);
  runService.PreSimulation.Connect(add);
  runService.Stepped.Connect((time, dt) => {
    sink[0] += time * dt;
  });
  runService.PostSimulation.Connect(add);
  runService.Heartbeat.Connect(add);
  runService.PreRender.Connect(add);
  runService.BindToRenderStep('input', Enum.RenderPriority.Input.Value, add);
  runService.BindToRenderStep('camera', Enum.RenderPriority.Camera.Value, add);
  runService.BindToRenderStep('last', Enum.RenderPriority.Last.Value, add);
  runService.BindToSimulation(add, Enum.StepFrequency.Hz30);
  runService.BindToSimulation(add, Enum.StepFrequency.Hz1);
  const bare = new FixedLoop(presets.roblox);
  for (let i = 0; i < 3; i++) bare.onFrameStart(add);
  for (let i = 0; i < 2; i++) bare.onUpdate(add);
  for (let i = 0; i < 4; i++) bare.onPreRender(add);
  for (let i = 0; i < 2; i++) bare.onFixedUpdate(add);
  return {
    connections: 11,
    allocation: allocationPerCall(() => loop.advance(FRAME), FRAMES),
    bareAllocation: allocationPerCall(() => bare.advance(FRAME), FRAMES),
    time: compare(
      () => loop.advance(FRAME),
      () => bare.advance(FRAME),
      20_000,
    ),
  };
}

export default function facades(): Record<string, unknown> {
  return { unity: unity(), godot: godot(), roblox: roblox() };
}
