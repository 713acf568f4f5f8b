/**
 * The facades' guarantees over random frame sequences (fast-check): whatever the frame times and
 * settings, the Unity, Godot and Roblox views of the loop keep their engine's invariants.
 */
import { FixedLoop } from '@fixedtick/core';
import { GodotEngine, Node } from '@fixedtick/core/godot';
import { Enum, RunService } from '@fixedtick/core/roblox';
import { UnityTime } from '@fixedtick/core/unity';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Frame times from a 240 Hz display's 4 ms up to a 700 ms hitch, plus some zero-length frames. */
const frameTimes = fc.array(
  fc.oneof(fc.double({ min: 0.004, max: 0.05, noNaN: true }), fc.constantFrom(0, 0.7)),
  { minLength: 1, maxLength: 200 },
);

describe('facade guarantees over random frames', () => {
  it('Unity: inside FixedUpdate deltaTime === fixedDeltaTime and time === fixedTime; between frames fixedTime <= time < fixedTime + fixedDeltaTime', () => {
    fc.assert(
      fc.property(
        frameTimes,
        fc.constantFrom(0.02, 1 / 60, 0.01),
        fc.constantFrom(0.5, 1, 2),
        (frames, fixedDelta, timeScale) => {
          const loop = new FixedLoop({ fixedDelta, maxDeltaTime: 1 / 3, timeScale });
          const Time = new UnityTime(loop);
          let bad = 0;
          Time.register({
            FixedUpdate() {
              if (Time.deltaTime !== Time.fixedDeltaTime || Time.time !== Time.fixedTime) bad++;
              if (!Time.inFixedTimeStep) bad++;
            },
          });
          for (const seconds of frames) {
            const info = loop.advance(seconds);
            expect(Time.deltaTime).toBe(info.delta);
            expect(Time.fixedTime).toBeLessThanOrEqual(Time.time + 1e-9);
            expect(Time.time).toBeLessThan(Time.fixedTime + Time.fixedDeltaTime + 1e-9);
            expect(Time.deltaTime).toBeLessThanOrEqual(Time.maximumDeltaTime);
            expect(Time.unscaledDeltaTime).toBe(
              Number.isFinite(seconds) && seconds >= 0 ? seconds : 0,
            );
          }
          expect(bad).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('Godot: the fraction is the loop alpha, no frame exceeds max_physics_steps_per_frame, and get_physics_frames counts every tick', () => {
    fc.assert(
      fc.property(frameTimes, fc.integer({ min: 1, max: 8 }), (frames, maxSteps) => {
        const loop = new FixedLoop({ tickRate: 60, maxDeltaTime: Number.POSITIVE_INFINITY });
        const engine = new GodotEngine(loop);
        engine.max_physics_steps_per_frame = maxSteps;
        let ticks = 0;
        let lastSeen = 0;
        engine.root.add_child(
          new (class extends Node {
            override _physics_process(): void {
              ticks++;
              lastSeen = engine.get_physics_frames();
            }
          })(),
        );
        for (const seconds of frames) {
          const before = ticks;
          loop.advance(seconds);
          expect(ticks - before).toBeLessThanOrEqual(maxSteps);
          expect(engine.get_physics_interpolation_fraction()).toBe(loop.alpha);
          expect(engine.get_physics_frames()).toBe(ticks);
          if (ticks > 0) expect(lastSeen).toBe(ticks);
        }
        expect(engine.get_process_frames()).toBe(frames.length);
      }),
      { numRuns: 150 },
    );
  });

  it('Roblox: BindToSimulation at Hz30 / Hz1 runs floor(ticks / 2) / floor(ticks / 60) times, each with its period', () => {
    fc.assert(
      fc.property(frameTimes, (frames) => {
        const loop = new FixedLoop({ tickRate: 60 });
        const runService = new RunService(loop);
        const hz30: number[] = [];
        const hz1: number[] = [];
        runService.BindToSimulation((dt) => hz30.push(dt), Enum.StepFrequency.Hz30);
        runService.BindToSimulation((dt) => hz1.push(dt), Enum.StepFrequency.Hz1);
        let preSimulation = 0;
        runService.PreSimulation.Connect((dt) => {
          preSimulation += dt;
        });
        for (const seconds of frames) loop.advance(seconds);
        expect(hz30).toEqual(new Array(Math.floor(loop.tick / 2)).fill(1 / 30));
        expect(hz1).toEqual(new Array(Math.floor(loop.tick / 60)).fill(1));
        expect(preSimulation).toBeCloseTo(loop.time, 9);
      }),
      { numRuns: 150 },
    );
  });
});
