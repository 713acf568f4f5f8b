import { FixedLoop, presets } from '@fixedtick/core';
import { Enum, RunService as RobloxRunService } from '@fixedtick/core/roblox';
import { describe, expect, it } from 'vitest';

function robloxLoop(extra: ConstructorParameters<typeof FixedLoop>[0] = {}) {
  const loop = new FixedLoop({ ...presets.roblox, errorPolicy: 'throw', ...extra });
  return { loop, RunService: new RobloxRunService(loop) };
}

describe('RunService: per-frame events', () => {
  it('fire in Roblox order, each with its delta, around the fixed steps', () => {
    const { loop, RunService } = robloxLoop();
    const log: string[] = [];
    const delta = (name: string) => (dt: number) => log.push(`${name} ${dt.toFixed(4)}`);
    // connected in scrambled order on purpose: the order must come from the events, not from us
    RunService.Heartbeat.Connect(delta('Heartbeat'));
    RunService.PreRender.Connect(delta('PreRender'));
    RunService.PostSimulation.Connect(delta('PostSimulation'));
    RunService.PreSimulation.Connect(delta('PreSimulation'));
    RunService.PreAnimation.Connect(delta('PreAnimation'));
    RunService.Stepped.Connect((time, dt) =>
      log.push(`Stepped ${time.toFixed(4)} ${dt.toFixed(4)}`),
    );
    RunService.RenderStepped.Connect(delta('RenderStepped'));
    loop.onFixedUpdate((dt) => log.push(`physics ${dt.toFixed(4)}`));

    loop.advance(0.05); // 3 steps of 1/60
    expect(log).toEqual([
      'PreAnimation 0.0500',
      'PreSimulation 0.0500',
      'Stepped 0.0500 0.0500',
      'physics 0.0167',
      'physics 0.0167',
      'physics 0.0167',
      'PostSimulation 0.0500',
      'Heartbeat 0.0500',
      'PreRender 0.0500',
      'RenderStepped 0.0500',
    ]);

    log.length = 0;
    loop.advance(0.01); // a frame with no step still fires every per-frame event
    expect(log.map((line) => line.split(' ')[0])).toEqual([
      'PreAnimation',
      'PreSimulation',
      'Stepped',
      'PostSimulation',
      'Heartbeat',
      'PreRender',
      'RenderStepped',
    ]);
    expect(log[0]).toBe('PreAnimation 0.0100');
  });

  it("repeat Roblox's cycle PreRender → PreAnimation → PreSimulation → PostSimulation → Heartbeat", () => {
    const { loop, RunService } = robloxLoop();
    const names: string[] = [];
    for (const name of [
      'PreRender',
      'PreAnimation',
      'PreSimulation',
      'PostSimulation',
      'Heartbeat',
    ] as const) {
      RunService[name].Connect(() => names.push(name));
    }
    for (let i = 0; i < 4; i++) loop.advance(1 / 144);
    // Roblox's frame starts at PreRender (it draws first); read from the first PreRender on
    const fromRender = names.slice(names.indexOf('PreRender'));
    const robloxFrame = [
      'PreRender',
      'PreAnimation',
      'PreSimulation',
      'PostSimulation',
      'Heartbeat',
    ];
    expect(fromRender).toEqual([...robloxFrame, ...robloxFrame, ...robloxFrame, 'PreRender']);
  });

  it('Connect returns a connection: Disconnect, Connected, Once, dispose', () => {
    const { loop, RunService } = robloxLoop();
    let beats = 0;
    let once = 0;
    const connection = RunService.Heartbeat.Connect(() => beats++);
    const single = RunService.Heartbeat.Once(() => once++);
    expect(connection.Connected).toBe(true);
    loop.advance(0.01);
    loop.advance(0.01);
    expect([beats, once, single.Connected]).toEqual([2, 1, false]);
    connection.Disconnect();
    connection.Disconnect(); // twice: harmless
    expect(connection.Connected).toBe(false);
    loop.advance(0.01);
    expect(beats).toBe(2);

    const late = RunService.PreSimulation.Connect(() => beats++);
    RunService.dispose();
    expect(late.Connected).toBe(false);
    loop.advance(0.01);
    expect(beats).toBe(2);
    expect(() => RunService.Heartbeat.Connect(() => {})).toThrow(/disposed/);
    expect(() => new RobloxRunService(loop).Heartbeat.Connect(42 as never)).toThrow(TypeError);
  });
});

describe('RunService: BindToRenderStep', () => {
  it('runs bindings by priority, ties in bind order, and PreRender at Last', () => {
    const { loop, RunService } = robloxLoop();
    const order: string[] = [];
    const bind = (name: string, priority: number | (typeof Enum.RenderPriority)['Last']) =>
      RunService.BindToRenderStep(name, priority, () => order.push(name));
    bind('character', Enum.RenderPriority.Character.Value);
    bind('camera', Enum.RenderPriority.Camera.Value);
    bind('input', Enum.RenderPriority.Input.Value);
    bind('camera-shake', Enum.RenderPriority.Camera.Value + 0); // tie with 'camera'
    bind('first', Enum.RenderPriority.First.Value);
    bind('last', Enum.RenderPriority.Last); // the EnumItem itself is accepted too
    RunService.PreRender.Connect(() => order.push('PreRender'));
    bind('after-everything', 5000);

    loop.advance(1 / 60);
    expect(order).toEqual([
      'first',
      'input',
      'camera',
      'camera-shake',
      'character',
      'last',
      'PreRender',
      'after-everything',
    ]);
  });

  it('passes the frame delta, and rebinding a name replaces the old binding', () => {
    const { loop, RunService } = robloxLoop();
    const calls: string[] = [];
    RunService.BindToRenderStep('a', 100, (dt) => calls.push(`a1 ${dt}`));
    RunService.BindToRenderStep('b', 200, (dt) => calls.push(`b ${dt}`));
    RunService.BindToRenderStep('a', 300, (dt) => calls.push(`a2 ${dt}`));
    loop.advance(0.02);
    expect(calls).toEqual(['b 0.02', 'a2 0.02']);
  });

  it('unbinding an unknown name is not an error; unbinding a known one stops it', () => {
    const { loop, RunService } = robloxLoop();
    let runs = 0;
    RunService.BindToRenderStep('camera', Enum.RenderPriority.Camera.Value, () => runs++);
    expect(() => RunService.UnbindFromRenderStep('never-bound')).not.toThrow();
    loop.advance(1 / 60);
    RunService.UnbindFromRenderStep('camera');
    RunService.UnbindFromRenderStep('camera');
    loop.advance(1 / 60);
    expect(runs).toBe(1);
  });

  it('rejects a bad priority with a RangeError naming it', () => {
    const { RunService } = robloxLoop();
    expect(() => RunService.BindToRenderStep('x', Number.NaN, () => {})).toThrow(/"priority".*NaN/);
    expect(() => RunService.BindToRenderStep('x', '200' as never, () => {})).toThrow(RangeError);
  });
});

describe('RunService: BindToSimulation', () => {
  it('Hz30 (the default) fires on every second 60 Hz step with delta 1/30', () => {
    const { loop, RunService } = robloxLoop();
    const fired: Array<[number, number]> = [];
    RunService.BindToSimulation((dt) => fired.push([loop.tick, dt]));
    for (let i = 0; i < 10; i++) loop.advance(1 / 60);
    expect(loop.tick).toBe(10);
    expect(fired).toEqual([
      [1, 1 / 30],
      [3, 1 / 30],
      [5, 1 / 30],
      [7, 1 / 30],
      [9, 1 / 30],
    ]);
  });

  it('Hz1 fires once per simulated second with delta 1, whatever the frame rate', () => {
    const { loop, RunService } = robloxLoop();
    const fired: Array<[number, number]> = [];
    RunService.BindToSimulation((dt) => fired.push([loop.tick, dt]), Enum.StepFrequency.Hz1);
    for (let i = 0; i < 3 * 144; i++) loop.advance(1 / 144); // 3 s at 144 fps
    expect(fired).toEqual([
      [59, 1],
      [119, 1],
      [179, 1],
    ]);
  });

  it.each([
    ['Hz60', 1, 1 / 60],
    ['Hz30', 2, 1 / 30],
    ['Hz15', 4, 1 / 15],
    ['Hz10', 6, 1 / 10],
    ['Hz5', 12, 1 / 5],
    ['Hz1', 60, 1],
  ] as const)('%s runs every %i steps of the 60 Hz pipeline with delta %d', (name, every, dt) => {
    const { loop, RunService } = robloxLoop();
    const deltas: number[] = [];
    RunService.BindToSimulation((d) => deltas.push(d), Enum.StepFrequency[name]);
    for (let i = 0; i < 120; i++) loop.advance(1 / 60);
    expect(deltas).toEqual(new Array(120 / every).fill(dt));
  });

  it.each([
    ['120 Hz: every 4th step, delta 1/30', 1 / 120, 12, [1 / 30, 1 / 30, 1 / 30]],
    [
      '50 Hz: every 2nd step, delta 0.04 (nearest whole number of steps)',
      0.02,
      6,
      [0.04, 0.04, 0.04],
    ],
    ['30 Hz: every step, delta 1/30', 1 / 30, 3, [1 / 30, 1 / 30, 1 / 30]],
  ])('with a loop step other than 1/60: %s', (_name, fixedDelta, steps, expected) => {
    const { loop, RunService } = robloxLoop({ fixedDelta });
    const deltas: number[] = [];
    RunService.BindToSimulation((d) => deltas.push(d), 'Hz30');
    for (let i = 0; i < steps; i++) loop.stepOnce();
    expect(deltas).toHaveLength(expected.length);
    deltas.forEach((d, i) => {
      expect(d).toBeCloseTo(expected[i], 12);
    });
  });

  it('runs inside the fixed step, stops on Disconnect, and rejects an unknown frequency', () => {
    const { loop, RunService } = robloxLoop();
    const inStep: boolean[] = [];
    const connection = RunService.BindToSimulation(
      () => inStep.push(loop.inFixedStep),
      Enum.StepFrequency.Hz60,
    );
    loop.advance(2 / 60);
    connection.Disconnect();
    loop.advance(2 / 60);
    expect(inStep).toEqual([true, true]);
    expect(() => RunService.BindToSimulation(() => {}, 'Hz7')).toThrow(/"frequency".*Hz7/);
  });

  it('BindToSimulation priority order: lower runs first within a step, the default 2000 after onFixedUpdate', () => {
    const { loop, RunService } = robloxLoop();
    const order: string[] = [];
    const log = (name: string) => () => order.push(`${name}@${loop.tick}`);
    RunService.BindToSimulation(log('default'), Enum.StepFrequency.Hz60);
    RunService.BindToSimulation(log('late'), Enum.StepFrequency.Hz60, 3000);
    RunService.BindToSimulation(log('early'), Enum.StepFrequency.Hz60, 100);
    RunService.BindToSimulation(log('early-too'), Enum.StepFrequency.Hz60, 100);
    loop.onFixedUpdate(log('onFixedUpdate'));
    loop.advance(2 / 60);
    // onFixedUpdate listeners have priority 0, so they run before all of these
    expect(order).toEqual([
      'onFixedUpdate@0',
      'early@0',
      'early-too@0',
      'default@0',
      'late@0',
      'onFixedUpdate@1',
      'early@1',
      'early-too@1',
      'default@1',
      'late@1',
    ]);
    expect(() => RunService.BindToSimulation(() => {}, 'Hz30', Number.NaN)).toThrow(
      /"priority".*NaN/,
    );
  });
});

describe('Enum', () => {
  it('RenderPriority and StepFrequency carry Roblox names and values', () => {
    expect(
      Object.values(Enum.RenderPriority).map((item) => [item.Name, item.Value, item.EnumType]),
    ).toEqual([
      ['First', 0, 'RenderPriority'],
      ['Input', 100, 'RenderPriority'],
      ['Camera', 200, 'RenderPriority'],
      ['Character', 300, 'RenderPriority'],
      ['Last', 2000, 'RenderPriority'],
    ]);
    expect(Object.values(Enum.StepFrequency).map((item) => [item.Name, item.Value])).toEqual([
      ['Hz60', 0],
      ['Hz30', 1],
      ['Hz15', 2],
      ['Hz10', 3],
      ['Hz5', 4],
      ['Hz1', 5],
    ]);
  });
});
