import type { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { BabylonFixedLoop, renderLoopDriver } from '@fixedtick/babylon';
import { describe, expect, it } from 'vitest';
import { dynamicBox, havokScene, Vector3 } from './havok-scene.ts';

describe('extrapolation', () => {
  it('advances the latest Havok pose by Havok’s own linear and angular velocity', async () => {
    const scene = await havokScene();
    const box = dynamicBox(scene, 'box', 0, 50, 0);
    box.physicsBody?.setLinearVelocity(new Vector3(2, 0, 0));
    box.physicsBody?.setAngularVelocity(new Vector3(0, 3, 0));
    const loop = new BabylonFixedLoop(scene, {
      tickRate: 30,
      defaultInterpolation: 'extrapolate',
      errorPolicy: 'throw',
    });
    const velocity = new Vector3();
    loop.onPostSimulation(() => box.physicsBody?.getLinearVelocityToRef(velocity));
    for (let f = 0; f < 100; f++) {
      loop.advance(1 / 144);
      const sim = loop.getSimulationPose(box);
      if (!sim || loop.tick === 0) continue;
      const ahead = loop.alpha / 30;
      expect(box.position.x).toBeCloseTo(sim.position[0] + velocity.x * ahead, 9);
      expect(box.position.y).toBeCloseTo(sim.position[1] + velocity.y * ahead, 9);
      // rendered ahead of the simulation, not behind it
      expect(box.position.y).toBeLessThanOrEqual(sim.position[1]);
    }
  });
});

describe('renderLoopDriver', () => {
  it('feeds the loop from engine.runRenderLoop with the clock it is given, and stops', async () => {
    const scene = await havokScene();
    const engine = scene.getEngine() as NullEngine;
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    let now = 1000;
    loop.start(renderLoopDriver(engine, { now: () => now, document: null }));
    expect(loop.running).toBe(true);
    const run = () => (engine as unknown as { _renderFrame(): void })._renderFrame();
    run(); // origin
    for (let i = 0; i < 60; i++) {
      now += 1000 / 60;
      run();
    }
    expect(loop.tick).toBe(60);
    loop.stop();
    expect(engine.activeRenderLoops).toHaveLength(0);
    run();
    expect(loop.frameCount).toBe(61);
  });

  it('drops the time the page was hidden instead of catching up', async () => {
    const scene = await havokScene();
    const engine = scene.getEngine() as NullEngine;
    const loop = new BabylonFixedLoop(scene, {
      tickRate: 60,
      maxDeltaTime: Number.POSITIVE_INFINITY,
    });
    const listeners: (() => void)[] = [];
    const doc = {
      hidden: false,
      addEventListener: (_: string, fn: () => void) => listeners.push(fn),
      removeEventListener: () => {},
    };
    let now = 0;
    loop.start(renderLoopDriver(engine, { now: () => now, document: doc as never }));
    const run = () => (engine as unknown as { _renderFrame(): void })._renderFrame();
    run();
    now += 100;
    run();
    expect(loop.tick).toBe(6);
    doc.hidden = true;
    for (const fn of listeners) fn();
    now += 10_000;
    run();
    doc.hidden = false;
    for (const fn of listeners) fn();
    now += 1000 / 60;
    run();
    expect(loop.tick).toBe(6);
    expect(loop.stats.droppedTime).toBeGreaterThan(10);
    loop.dispose();
  });
});
