import { FixedLoop, presets } from '@fixedtick/core';
import {
  MonoBehaviour,
  RigidbodyInterpolation,
  type UnityBehaviour,
  UnityTime,
} from '@fixedtick/core/unity';
import { describe, expect, it } from 'vitest';

function unityLoop(extra: ConstructorParameters<typeof FixedLoop>[0] = {}) {
  const loop = new FixedLoop({ ...presets.unity, errorPolicy: 'throw', ...extra });
  return { loop, Time: new UnityTime(loop) };
}

describe('UnityTime: deltaTime and time inside and outside FixedUpdate', () => {
  it('answers the fixed step inside FixedUpdate and the frame outside it', () => {
    const { loop, Time } = unityLoop();
    const inside: Array<[number, number, number, boolean]> = [];
    const outside: Array<[number, number, number, boolean]> = [];
    Time.register({
      FixedUpdate() {
        inside.push([Time.deltaTime, Time.time, Time.fixedTime, Time.inFixedTimeStep]);
      },
      Update() {
        outside.push([Time.deltaTime, Time.time, Time.fixedTime, Time.inFixedTimeStep]);
      },
    });

    loop.advance(0.05); // 2 steps of 0.02, 0.01 left over

    expect(inside).toEqual([
      [0.02, 0, 0, true],
      [0.02, 0.02, 0.02, true],
    ]);
    expect(outside).toHaveLength(1);
    const [dt, time, fixedTime, inStep] = outside[0];
    expect(dt).toBeCloseTo(0.05, 12);
    expect(time).toBeCloseTo(0.05, 12);
    expect(fixedTime).toBeCloseTo(0.04, 12);
    expect(inStep).toBe(false);
    // Unity's invariant between frames: fixedTime <= time < fixedTime + fixedDeltaTime
    expect(Time.fixedTime).toBeLessThanOrEqual(Time.time);
    expect(Time.time).toBeLessThan(Time.fixedTime + Time.fixedDeltaTime);
  });

  it('unscaledDeltaTime and unscaledTime follow the same rule, before timeScale', () => {
    const { loop, Time } = unityLoop({ timeScale: 0.5 });
    const inside: number[][] = [];
    let outside: number[] = [];
    Time.register({
      FixedUpdate() {
        inside.push([Time.unscaledDeltaTime, Time.unscaledTime, Time.fixedUnscaledDeltaTime]);
      },
      Update() {
        outside = [Time.deltaTime, Time.unscaledDeltaTime, Time.unscaledTime];
      },
    });

    loop.advance(0.1); // 0.05 game seconds: 2 steps, each standing for 0.04 real seconds

    expect(inside).toHaveLength(2);
    expect(inside[0][0]).toBeCloseTo(0.04, 12);
    expect(inside[0][1]).toBe(0);
    expect(inside[1][1]).toBeCloseTo(0.04, 12);
    expect(inside[1][2]).toBeCloseTo(0.04, 12);
    expect(outside[0]).toBeCloseTo(0.05, 12);
    expect(outside[1]).toBeCloseTo(0.1, 12);
    expect(outside[2]).toBeCloseTo(0.1, 12);
    expect(Time.fixedUnscaledTime).toBeCloseTo(0.08, 12);
  });
});

describe('UnityTime: maximumDeltaTime', () => {
  it('drops the time of a long frame beyond maximumDeltaTime', () => {
    const { loop, Time } = unityLoop();
    Time.maximumDeltaTime = 0.1;
    let fixedUpdates = 0;
    let deltaInUpdate = Number.NaN;
    Time.register({
      FixedUpdate() {
        fixedUpdates++;
      },
      Update() {
        deltaInUpdate = Time.deltaTime;
      },
    });

    const info = loop.advance(0.5); // a 500 ms hitch

    expect(deltaInUpdate).toBeCloseTo(0.1, 12);
    expect(fixedUpdates).toBe(5);
    expect(info.dropped).toBeCloseTo(0.4, 12);
    expect(Time.time).toBeCloseTo(0.1, 12);
    // real time is never clamped (Unity: unscaledTime is "not affected by Time.timeScale and
    // Time.maximumDeltaTime")
    expect(Time.unscaledDeltaTime).toBe(0.5);
    expect(Time.unscaledTime).toBe(0.5);
  });

  it.each([
    ['a smaller maximumDeltaTime is raised to fixedDeltaTime', 0.005, 0.02, 0.02],
    ['a larger one is kept', 0.2, 0.02, 0.2],
  ])('%s', (_name, maximum, fixed, expected) => {
    const { Time } = unityLoop({ fixedDelta: fixed });
    Time.maximumDeltaTime = maximum;
    expect(Time.maximumDeltaTime).toBe(expected);
  });

  it('never lets fixedDeltaTime exceed maximumDeltaTime, from any side', () => {
    const { loop, Time } = unityLoop();
    Time.fixedDeltaTime = 0.5; // above Unity's default maximum of 1/3
    expect(Time.maximumDeltaTime).toBe(0.5);
    const loop2 = new FixedLoop({ fixedDelta: 0.1, maxDeltaTime: 0.05 });
    expect(new UnityTime(loop2).maximumDeltaTime).toBe(0.1);
    expect(loop.maxDeltaTime).toBe(0.5);
  });

  it('rejects bad values with a RangeError naming the member', () => {
    const { Time } = unityLoop();
    expect(() => {
      Time.maximumDeltaTime = -1;
    }).toThrow(/"maximumDeltaTime".*-1/);
    expect(() => {
      Time.fixedDeltaTime = 0;
    }).toThrow(RangeError);
    expect(() => {
      Time.timeScale = Number.NaN;
    }).toThrow(/"timeScale"/);
  });
});

describe('UnityTime: timeScale 0', () => {
  it('runs no FixedUpdate while Update still runs with deltaTime 0', () => {
    const { loop, Time } = unityLoop();
    const log: string[] = [];
    Time.register({
      FixedUpdate() {
        log.push('F');
      },
      Update() {
        log.push(`U ${Time.deltaTime} ${Time.unscaledDeltaTime}`);
      },
    });
    Time.timeScale = 0;
    for (let i = 0; i < 3; i++) loop.advance(0.1);
    expect(log).toEqual(['U 0 0.1', 'U 0 0.1', 'U 0 0.1']);
    expect(Time.time).toBe(0);
    expect(Time.fixedTime).toBe(0);
    expect(Time.unscaledTime).toBeCloseTo(0.3, 12);
    expect(Time.frameCount).toBe(3);

    Time.timeScale = 1;
    log.length = 0;
    loop.advance(0.04);
    expect(log).toEqual(['F', 'F', 'U 0.04 0.04']);
  });
});

describe('UnityTime: capture members', () => {
  it('captureFramerate sets captureDeltaTime and every frame lasts exactly that', () => {
    const { loop, Time } = unityLoop();
    Time.captureFramerate = 25;
    expect(Time.captureDeltaTime).toBe(1 / 25);
    let steps = 0;
    Time.register({
      FixedUpdate() {
        steps++;
      },
    });
    const info = loop.advance(1.0); // the real clock says one second; capture says 0.04
    expect(info.delta).toBe(0.04);
    expect(Time.deltaTime).toBe(0.04);
    expect(steps).toBe(2);
  });

  it.each([
    [1 / 30, 30],
    [0.0333, 30],
    [0.016, 63],
    [0, 0],
  ])('captureDeltaTime %d reads back as captureFramerate %d', (delta, rate) => {
    const { Time } = unityLoop();
    Time.captureDeltaTime = delta;
    expect(Time.captureFramerate).toBe(rate);
  });

  it('captureFramerate 0 turns capture off, and bad values throw naming the member', () => {
    const { loop, Time } = unityLoop();
    Time.captureFramerate = 60;
    Time.captureFramerate = 0;
    expect(Time.captureDeltaTime).toBe(0);
    loop.advance(0.05);
    expect(Time.deltaTime).toBeCloseTo(0.05, 12);
    expect(() => {
      Time.captureFramerate = 2.5;
    }).toThrow(/"captureFramerate".*2\.5/);
    expect(() => {
      Time.captureDeltaTime = -0.1;
    }).toThrow(/"captureDeltaTime"/);
  });
});

describe('UnityTime: behaviours', () => {
  it('runs FixedUpdate × steps, then Update, then LateUpdate, in registration order', () => {
    const { loop, Time } = unityLoop();
    const log: string[] = [];
    const make = (name: string): UnityBehaviour => ({
      Start: () => log.push(`${name}.Start`),
      FixedUpdate: () => log.push(`${name}.FixedUpdate`),
      Update: () => log.push(`${name}.Update`),
      LateUpdate: () => log.push(`${name}.LateUpdate`),
    });
    Time.register(make('A'));
    Time.register(make('B'));

    loop.advance(0.06); // 3 steps
    expect(log).toEqual([
      'A.Start',
      'A.FixedUpdate',
      'B.Start',
      'B.FixedUpdate',
      'A.FixedUpdate',
      'B.FixedUpdate',
      'A.FixedUpdate',
      'B.FixedUpdate',
      'A.Update',
      'B.Update',
      'A.LateUpdate',
      'B.LateUpdate',
    ]);

    log.length = 0;
    loop.advance(0.01); // no step this frame
    expect(log).toEqual(['A.Update', 'B.Update', 'A.LateUpdate', 'B.LateUpdate']);
  });

  it('MonoBehaviour subclasses, enabled = false, unregister and a throwing script', () => {
    const loop = new FixedLoop(presets.unity);
    const Time = new UnityTime(loop);
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    class Counter extends MonoBehaviour {
      fixed = 0;
      frames = 0;
      override FixedUpdate(): void {
        this.fixed++;
      }
      override Update(): void {
        this.frames++;
      }
    }
    const broken = {
      Update() {
        throw new Error('broken script');
      },
    };
    const a = new Counter();
    const b = new Counter();
    Time.register(broken);
    const offA = Time.register(a);
    Time.register(b);
    expect(Time.register(a)).toBe(offA); // registering twice does nothing more

    loop.advance(0.04);
    expect([a.fixed, a.frames, b.fixed, b.frames]).toEqual([2, 1, 2, 1]);
    expect(errors).toHaveLength(1);

    a.enabled = false;
    loop.advance(0.04);
    expect([a.fixed, a.frames, b.fixed, b.frames]).toEqual([2, 1, 4, 2]);

    a.enabled = true;
    offA();
    Time.unregister(b);
    Time.unregister(b); // unknown: no error
    loop.advance(0.04);
    expect([a.fixed, a.frames, b.fixed, b.frames]).toEqual([2, 1, 4, 2]);

    Time.dispose();
    loop.advance(0.04);
    expect(errors).toHaveLength(3);
  });
});

describe('RigidbodyInterpolation', () => {
  it('its values are the core interpolation mode strings', () => {
    expect(RigidbodyInterpolation).toEqual({
      None: 'none',
      Interpolate: 'interpolate',
      Extrapolate: 'extrapolate',
    });
    const mode: 'none' | 'interpolate' | 'extrapolate' = RigidbodyInterpolation.Extrapolate;
    expect(mode).toBe('extrapolate');
    expect(Object.isFrozen(RigidbodyInterpolation)).toBe(true);
  });
});
