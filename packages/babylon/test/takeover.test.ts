import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin.js';
import { Scene } from '@babylonjs/core/scene.js';
import { BabylonFixedLoop, FixedLoop } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokModule, havokScene, Vector3 } from './havok-scene.ts';

describe('BabylonFixedLoop takes physics stepping over from the scene', () => {
  it('turns the scene’s own physics step off, and restores it on dispose', async () => {
    const scene = await havokScene();
    expect(scene.physicsEnabled).toBe(true);
    const loop = new BabylonFixedLoop(scene);
    expect(loop).toBeInstanceOf(FixedLoop);
    expect(scene.physicsEnabled).toBe(false);
    loop.dispose();
    expect(scene.physicsEnabled).toBe(true);
  });

  it('scene.render() no longer moves bodies; only fixed steps do', async () => {
    const scene = await havokScene();
    new FreeCamera('cam', new Vector3(0, 5, -20), scene);
    const box = dynamicBox(scene, 'box', 0, 10, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    for (let i = 0; i < 10; i++) scene.render();
    expect(loop.getSimulationPose(box)?.position[1]).toBe(10);
    expect(box.position.y).toBe(10);
    loop.advance(1 / 60);
    expect(loop.tick).toBe(1);
    expect(loop.getSimulationPose(box)?.position[1]).toBeLessThan(10);
    // turned back on by some other code: switched off again at the next frame, before it renders
    scene.physicsEnabled = true;
    let steps = 0;
    scene.onBeforePhysicsObservable.add(() => steps++);
    for (let f = 0; f < 60; f++) loop.advance(1 / 60);
    expect(steps).toBe(60);
    expect(scene.physicsEnabled).toBe(false);
  });

  it('a deterministicLockstep engine gets a clear error', async () => {
    const engine = new NullEngine({
      deterministicLockstep: true,
      lockstepMaxSteps: 4,
    } as ConstructorParameters<typeof NullEngine>[0]);
    const scene = new Scene(engine);
    scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, await havokModule()));
    expect(() => new BabylonFixedLoop(scene)).toThrowError(/deterministicLockstep/);
    expect(() => new BabylonFixedLoop(scene)).toThrowError(/Migrating from deterministicLockstep/);
    // and the scene was left alone
    expect(scene.physicsEnabled).toBe(true);
  });

  it('fires onBeforePhysicsObservable / onAfterPhysicsObservable once per step, around Havok’s step, between fixedUpdate and postSimulation', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 10, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 30, errorPolicy: 'throw' });
    const log: string[] = [];
    const heights: number[] = [];
    loop.onFixedUpdate((_dt, tick) => log.push(`fixedUpdate ${tick}`));
    scene.onBeforePhysicsObservable.add(() => {
      log.push('before');
      heights.push(box.position.y);
    });
    scene.onAfterPhysicsObservable.add(() => {
      log.push('after');
      heights.push(box.position.y);
    });
    loop.onPostSimulation((_dt, tick) => log.push(`postSimulation ${tick}`));
    for (let f = 0; f < 144; f++) loop.advance(1 / 144);
    expect(loop.tick).toBe(30);
    expect(log.filter((e) => e === 'before')).toHaveLength(30);
    expect(log.filter((e) => e === 'after')).toHaveLength(30);
    expect(log.slice(0, 8)).toEqual([
      'fixedUpdate 0',
      'before',
      'after',
      'postSimulation 0',
      'fixedUpdate 1',
      'before',
      'after',
      'postSimulation 1',
    ]);
    // Havok moved the body between "before" and "after", never outside
    for (let i = 0; i + 2 < heights.length; i += 2) {
      expect(heights[i + 1]).toBeLessThan(heights[i]);
      expect(heights[i + 2]).toBe(heights[i + 1]);
    }
  });

  it('steps Havok with exactly fixedDelta, even when the plugin was built to use its own time step', async () => {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    // useDeltaForWorldStep = false: Havok steps by its own _fixedTimeStep (1/60 by default)
    const plugin = new HavokPlugin(false, await havokModule());
    scene.enablePhysics(new Vector3(0, 0, 0), plugin);
    const box = dynamicBox(scene, 'box', 0, 0, 0);
    box.physicsBody?.setLinearVelocity(new Vector3(3, 0, 0));
    box.physicsBody?.setLinearDamping(0);
    const deltas: number[] = [];
    const executeStep = plugin.executeStep.bind(plugin);
    plugin.executeStep = (delta, bodies) => {
      deltas.push(delta);
      executeStep(delta, bodies);
    };
    const loop = new BabylonFixedLoop(scene, { tickRate: 20, errorPolicy: 'throw' });
    for (let f = 0; f < 60; f++) loop.advance(1 / 60);
    expect(loop.tick).toBe(20);
    expect(deltas).toEqual(new Array(20).fill(1 / 20));
    expect(plugin.getTimeStep()).toBe(1 / 20);
    // 3 m/s for 1 s of 20 Hz steps (float32 inside Havok)
    expect(loop.getSimulationPose(box)?.position[0]).toBeCloseTo(3, 4);
    loop.dispose();
    expect(plugin.getTimeStep()).toBe(1 / 60);
  });

  it('renders the scene once per frame when it has a camera, never without one, never with render: false', async () => {
    const scene = await havokScene();
    dynamicBox(scene, 'box', 0, 10, 0);
    let renders = 0;
    scene.onAfterRenderObservable.add(() => renders++);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60, errorPolicy: 'throw' });
    loop.advance(1 / 60); // no camera: nothing to render, no "No camera defined" error
    expect(renders).toBe(0);
    new FreeCamera('cam', new Vector3(0, 5, -20), scene);
    for (let f = 0; f < 10; f++) loop.advance(1 / 144);
    expect(renders).toBe(10);
    loop.dispose();
    const quiet = new BabylonFixedLoop(scene, { render: false });
    quiet.advance(1 / 60);
    expect(renders).toBe(10);
  });

  it('splits its own options from the loop’s and validates both', async () => {
    const scene = await havokScene();
    const loop = new BabylonFixedLoop(scene, {
      tickRate: 50,
      maxStepsPerFrame: 3,
      autoTrack: false,
      defaultInterpolation: 'extrapolate',
      render: false,
    });
    expect(loop.fixedDelta).toBe(1 / 50);
    expect(loop.maxStepsPerFrame).toBe(3);
    const box = dynamicBox(scene, 'box', 0, 10, 0);
    loop.advance(0.02);
    expect(loop.isTracked(box)).toBe(false);
    loop.track(box);
    expect(loop.interpolationOf(box)).toBe('extrapolate');
    loop.dispose();
    expect(() => new BabylonFixedLoop(scene, { autoTrack: 'yes' as never })).toThrowError(
      new RangeError('fixedtick: option "autoTrack" must be true or false, got "yes"'),
    );
    expect(
      () => new BabylonFixedLoop(scene, { defaultInterpolation: 'smooth' as never }),
    ).toThrowError(
      /option "defaultInterpolation" must be "none", "interpolate" or "extrapolate", got "smooth"/,
    );
    expect(() => new BabylonFixedLoop(scene, { fixedDeltaTime: 0.02 } as never)).toThrowError(
      /unknown option "fixedDeltaTime"/,
    );
    expect(() => new BabylonFixedLoop(scene, { tickRate: -1 })).toThrowError(RangeError);
    expect(() => new BabylonFixedLoop({} as never)).toThrowError(TypeError);
  });

  it('defaultInterpolation is live: auto-tracked bodies and nodes tracked without a mode follow it', async () => {
    const scene = await havokScene();
    const a = dynamicBox(scene, 'a', 0, 10, 0);
    const b = dynamicBox(scene, 'b', 3, 10, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    loop.track(b, { interpolation: 'none' });
    expect(loop.interpolationOf(a)).toBe('interpolate');
    loop.defaultInterpolation = 'extrapolate';
    expect(loop.defaultInterpolation).toBe('extrapolate');
    expect(loop.interpolationOf(a)).toBe('extrapolate');
    expect(loop.interpolationOf(b)).toBe('none');
    const late = dynamicBox(scene, 'late', 6, 10, 0);
    loop.advance(1 / 60);
    expect(loop.interpolationOf(late)).toBe('extrapolate');
    expect(() => {
      loop.defaultInterpolation = 'lerp' as never;
    }).toThrowError(RangeError);
  });

  it('auto-tracks dynamic bodies, including ones created later, and not static or animated ones', async () => {
    const scene = await havokScene();
    const early = dynamicBox(scene, 'early', 0, 10, 0);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    expect(loop.isTracked(early)).toBe(true);
    const late = dynamicBox(scene, 'late', 3, 10, 0);
    const still = dynamicBox(scene, 'static', 6, 0, 0);
    still.physicsBody?.setMotionType(0);
    const moved = dynamicBox(scene, 'animated', 9, 0, 0);
    moved.physicsBody?.setMotionType(1);
    expect(loop.isTracked(late)).toBe(false);
    loop.advance(1 / 60);
    expect(loop.isTracked(late)).toBe(true);
    expect(loop.isTracked(still)).toBe(false);
    expect(loop.isTracked(moved)).toBe(false);
    expect(loop.trackedCount).toBe(2);
    // an untracked auto body stays untracked; a disposed one is forgotten
    loop.untrack(late);
    early.dispose();
    loop.advance(1 / 60);
    expect(loop.isTracked(late)).toBe(false);
    expect(loop.isTracked(early)).toBe(false);
    expect(loop.trackedCount).toBe(0);
    loop.track(moved, { interpolation: 'none' });
    expect(loop.isTracked(moved)).toBe(true);
    expect(loop.interpolationOf(moved)).toBe('none');
  });

  it('a body disposed and another created between two frames (same count) swap places at once', async () => {
    const scene = await havokScene();
    const boxes = [0, 1, 2].map((i) => dynamicBox(scene, `b${i}`, i * 3, 10, 0));
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    loop.advance(1 / 60);
    expect(loop.trackedCount).toBe(3);
    // the middle one (spliced out of the engine's list) and the last one
    for (const gone of [boxes[1], boxes[2]]) {
      gone.dispose();
      const next = dynamicBox(scene, `next-${gone.name}`, 9, 10, 0);
      loop.advance(1 / 60);
      expect(loop.isTracked(gone)).toBe(false);
      expect(loop.isTracked(next)).toBe(true);
      expect(loop.trackedCount).toBe(3);
    }
  });
});
