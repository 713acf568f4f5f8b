/**
 * Record and replay against a real physics engine: Babylon.js on `NullEngine`, Havok WASM,
 * stepped by `BabylonFixedLoop` (the @fixedtick/babylon adapter). Lives with the core's replay
 * tests because it checks the core's guarantee; it needs the Babylon adapter only as a host.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';
import { BabylonFixedLoop, InputLatch, InputRecording } from '@fixedtick/babylon';
import { enableHavok, type HavokModule, loadHavok } from '@fixedtick/babylon/havok';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/support/random.ts';

Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;

const require = createRequire(import.meta.url);
let havok: Promise<HavokModule> | undefined;
function havokModule(): Promise<HavokModule> {
  havok ??= loadHavok({
    wasmBinary: readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm')),
  });
  return havok;
}

const TICKS = 240; // 4 s at 60 Hz

/**
 * A small Havok game: a stack of boxes on the ground and a player ball. ArrowLeft/ArrowRight
 * (held) push the ball, Space (pressed) shoots a new sphere at the stack — bodies created inside
 * `fixedUpdate` from input, the hardest case for a replay. After every step the pose of every
 * body is appended to `trace`.
 */
async function havokGame() {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  await enableHavok(scene, { havok: await havokModule() });
  const ground = MeshBuilder.CreateBox('ground', { width: 40, height: 1, depth: 40 }, scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const bodies: Mesh[] = [];
  for (let i = 0; i < 6; i++) {
    const box = MeshBuilder.CreateBox(`box${i}`, { size: 1 }, scene);
    box.position.set((i % 2) * 0.2, 0.5 + i * 1.01, 4);
    new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1, friction: 0.6 }, scene);
    bodies.push(box);
  }
  const ball = MeshBuilder.CreateSphere('ball', { diameter: 1 }, scene);
  ball.position.set(0, 0.5, -2);
  const ballAggregate = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 2 }, scene);
  bodies.push(ball);

  const loop = new BabylonFixedLoop(scene, { tickRate: 60, render: false, errorPolicy: 'throw' });
  const input = new InputLatch(loop);
  const trace: number[] = [];
  let shots = 0;
  const push = new Vector3();
  loop.onFixedUpdate((dt) => {
    if (input.held('ArrowLeft')) push.set(-20 * dt, 0, 0);
    else if (input.held('ArrowRight')) push.set(20 * dt, 0, 0);
    else push.set(0, 0, 0);
    if (push.x !== 0) ballAggregate.body.applyImpulse(push, ball.getAbsolutePosition());
    if (input.pressed('Space')) {
      const shot = MeshBuilder.CreateSphere(`shot${shots++}`, { diameter: 0.4 }, scene);
      shot.position.copyFrom(ball.position).addInPlaceFromFloats(0, 0.6, 0.5);
      const agg = new PhysicsAggregate(shot, PhysicsShapeType.SPHERE, { mass: 0.5 }, scene);
      agg.body.setLinearVelocity(new Vector3(0, 2, 12));
      bodies.push(shot);
    }
  });
  loop.onPostSimulation(() => {
    // Inside the step every tracked node holds its simulation pose.
    for (const body of bodies) {
      const p = body.position;
      const q = body.rotationQuaternion;
      trace.push(p.x, p.y, p.z, q?.x ?? 0, q?.y ?? 0, q?.z ?? 0, q?.w ?? 1);
    }
  });
  return {
    loop,
    input,
    trace,
    ball,
    get shots() {
      return shots;
    },
    dispose() {
      input.dispose();
      loop.dispose();
      engine.dispose();
    },
  };
}

const bits = (xs: number[]) => Buffer.from(Float64Array.from(xs).buffer);

describe('InputRecording with Havok on NullEngine', () => {
  it('recorded at 144 fps, replayed at 30 fps: every body at every tick, bit for bit', async () => {
    const live = await havokGame();
    const rec = new InputRecording();
    rec.record(live.input);
    const rnd = mulberry32(2026);
    while (live.loop.tick < TICKS) {
      const r = rnd();
      if (r < 0.015) live.input.press('Space');
      else if (r < 0.04) live.input.release('Space');
      else if (r < 0.05) live.input.press('ArrowRight');
      else if (r < 0.06) live.input.release('ArrowRight');
      else if (r < 0.065) live.input.press('ArrowLeft');
      else if (r < 0.075) live.input.release('ArrowLeft');
      live.loop.advance(1 / 144);
    }
    rec.stop();
    const json = JSON.stringify(rec);
    const liveShots = live.shots;
    const liveTrace = live.trace.slice(0, live.trace.length);
    const liveTicks = live.loop.tick;
    const liveBallX = live.ball.position.x;
    live.dispose();
    expect(Math.abs(liveBallX)).toBeGreaterThan(0.05); // the held keys pushed the ball
    expect(liveShots).toBeGreaterThan(2); // bodies really were created from input

    const again = await havokGame();
    InputRecording.fromJSON(json).replay(again.input);
    while (again.loop.tick < liveTicks) again.loop.advance(1 / 30);
    expect(again.loop.tick).toBe(liveTicks);
    expect(again.shots).toBe(liveShots);
    expect(again.trace.length).toBe(liveTrace.length);
    expect(Buffer.compare(bits(again.trace), bits(liveTrace))).toBe(0);
    expect(again.ball.position.x).toBe(liveBallX);
    again.dispose();

    // Control: the same scene without the inputs ends elsewhere, so the trace is input-driven.
    const idle = await havokGame();
    while (idle.loop.tick < liveTicks) idle.loop.advance(1 / 30);
    expect(idle.trace.length).toBeLessThan(liveTrace.length);
    expect(idle.ball.position.x).not.toBe(liveBallX);
    idle.dispose();
  });
});
