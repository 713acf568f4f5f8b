/**
 * Produces every row of docs/errors.md. The test reads the doc's tables (id → message pattern,
 * with `‹…›` standing for variable parts), triggers each id through the public API, and checks
 * that the message matches. A documented row without a trigger, or a trigger without a row,
 * fails: the doc and the library cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { MeshBuilder } from '@babylonjs/core/Meshes/meshBuilder.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { CannonJSPlugin } from '@babylonjs/core/Physics/v1/Plugins/cannonJSPlugin.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js';
import { BabylonFixedLoop } from '@fixedtick/babylon';
import { enableHavok, loadHavok } from '@fixedtick/babylon/havok';
import { FixedLoop, frameCallbackDriver, rafDriver } from '@fixedtick/core';
import { createTimingGraph, TimingHistory } from '@fixedtick/core/debug';
import { GodotEngine, Node } from '@fixedtick/core/godot';
import { InputLatch, InputRecording, RECORDING_MAX_TEXT_LENGTH } from '@fixedtick/core/input';
import { PoseBuffer } from '@fixedtick/core/interpolation';
import { nodeDriver } from '@fixedtick/core/node';
import { RunService } from '@fixedtick/core/roblox';
import { UnityTime } from '@fixedtick/core/unity';
import { ThreeFixedLoop } from '@fixedtick/three';
import * as CANNON from 'cannon-es';
import { BoxGeometry, Group, InstancedMesh, MeshBasicMaterial } from 'three';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { havokScene } from '../../packages/babylon/test/havok-scene.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

// ---- the doc's rows ----------------------------------------------------------------------

interface Row {
  id: string;
  message: string;
  pattern: RegExp;
}

function readRows(): Row[] {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    const cells = line.match(/^\|\s*`([a-z0-9-]+)`\s*\|\s*(.*)$/);
    if (!cells) continue;
    // the message is the first code span of the second cell (`…` or `` … `` around backticks)
    const span = cells[2].match(/^``\s?(.+?)\s?``|^`([^`]+)`/);
    if (!span) throw new Error(`docs/errors.md row ${cells[1]} has no message code span`);
    const message = span[1] ?? span[2];
    const source = message
      .split(/‹[^›]*›/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*?');
    rows.push({ id: cells[1], message, pattern: new RegExp(`^${source}$`) });
  }
  return rows;
}

// ---- how to get each message ------------------------------------------------------------

/** The message of what `fn` throws (sync or async). */
async function thrown(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a throw');
}

/** `source: ‹source›` of the error a frame of `loop` reports through onError. */
function reportedSource(loop: FixedLoop, run: () => void): string {
  const sources: string[] = [];
  const off = loop.onError((_error, source) => sources.push(source));
  run();
  off();
  expect(sources).toHaveLength(1);
  return `source: ${sources[0]}`;
}

/** The first argument of the first console.error call made by `run`. */
function consoleMessage(run: () => void): string {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  run();
  expect(spy).toHaveBeenCalled();
  return String(spy.mock.calls[0][0]);
}

const fail = (): never => {
  throw new Error('test failure');
};

/** An event target for the input bindings (Node's own). */
const target = (): EventTarget => new EventTarget();

/** A recording that `parseRecording` accepts, to break one field at a time. */
function goodRecording(): Record<string, unknown> {
  return {
    format: 'fixedtick-input',
    version: 1,
    fixedDelta: 1 / 60,
    length: 10,
    start: { held: [], pointer: [0, 0] },
    events: [[1, 'press', 'KeyA']],
  };
}

function badRecording(change: (r: Record<string, unknown>) => void): Promise<string> {
  const r = goodRecording();
  change(r);
  return thrown(() => InputRecording.fromJSON(r));
}

async function thinMeshLoop() {
  const scene = await havokScene();
  const mesh = MeshBuilder.CreateBox('thin', { size: 1 }, scene);
  const matrices = new Float32Array(32);
  Matrix.Compose(Vector3.One(), Quaternion.Identity(), new Vector3(0, 5, 0)).copyToArray(
    matrices,
    0,
  );
  Matrix.Compose(Vector3.One(), Quaternion.Identity(), new Vector3(3, 5, 0)).copyToArray(
    matrices,
    16,
  );
  mesh.thinInstanceSetBuffer('matrix', matrices, 16);
  new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
  return { loop: new BabylonFixedLoop(scene), mesh };
}

const triggers: Record<string, () => string | Promise<string>> = {
  // loop options and hooks
  'fixed-delta': () => thrown(() => new FixedLoop({ fixedDelta: 0 })),
  'tick-rate': () => thrown(() => nodeDriver({ tickRate: -60 })),
  'max-delta-time': () =>
    thrown(() => {
      new FixedLoop().maxDeltaTime = Number.NaN;
    }),
  'max-steps': () => thrown(() => new FixedLoop({ maxStepsPerFrame: 2.5 })),
  'time-scale': () => thrown(() => new FixedLoop({ timeScale: -1 })),
  'jitter-fix': () => thrown(() => new FixedLoop({ jitterFix: 3 })),
  'capture-delta-time': () => thrown(() => new FixedLoop({ captureDeltaTime: -0.1 })),
  'error-policy': () => thrown(() => new FixedLoop({ errorPolicy: 'log' as never })),
  'options-object': () => thrown(() => new FixedLoop(60 as never)),
  'unknown-option': () => thrown(() => new FixedLoop({ fixedDeltaTime: 0.02 } as never)),
  'delta-rate-disagree': () => thrown(() => new FixedLoop({ fixedDelta: 0.02, tickRate: 60 })),
  'hook-function': () => thrown(() => new FixedLoop().onUpdate(undefined as never)),
  priority: () => thrown(() => new FixedLoop().onUpdate(() => {}, { priority: Number.NaN })),
  'listener-options': () => thrown(() => new FixedLoop().onUpdate(() => {}, 5 as never)),
  'overstep-seconds': () => thrown(() => new FixedLoop().discardOverstep(-1)),
  // lifecycle and drivers
  'start-disposed': () =>
    thrown(() => {
      const loop = new FixedLoop();
      loop.dispose();
      loop.start();
    }),
  're-entrant-frame': () => {
    const loop = new FixedLoop();
    let message = '';
    loop.onError((error) => {
      message = (error as Error).message;
    });
    loop.onUpdate(() => loop.advance(0.01));
    loop.advance(0.01);
    return message;
  },
  'raf-host': () => thrown(() => rafDriver({ host: null as never })),
  'callback-driver-now': () =>
    thrown(() => frameCallbackDriver({ start() {}, stop() {} }, { now: 0 as never })),
  'raf-missing': () => thrown(() => new FixedLoop().start(rafDriver({ host: {} as never }))),
  'node-driver-options': () => thrown(() => nodeDriver(30 as never)),
  'node-driver-late': () => thrown(() => nodeDriver({ lateThresholdMs: -1 })),
  'node-driver-spin': () => thrown(() => nodeDriver({ spinMs: Number.POSITIVE_INFINITY })),
  'node-driver-jump': () => thrown(() => nodeDriver({ clockJumpMs: 0 })),
  'node-driver-anomaly': () => thrown(() => nodeDriver({ onClockAnomaly: 'log' as never })),
  'node-driver-now': () => thrown(() => nodeDriver({ now: 5 as never })),
  'node-driver-scheduler': () => thrown(() => nodeDriver({ scheduler: {} as never })),
  // reported while running
  'listener-error': () => {
    const loop = new FixedLoop();
    loop.onPostSimulation(fail);
    return reportedSource(loop, () => loop.advance(1 / 60));
  },
  'adapter-error': () => {
    const loop = new FixedLoop();
    loop.addAdapter({ physicsStep: fail });
    return reportedSource(loop, () => loop.advance(1 / 60));
  },
  'console-default': () => {
    const loop = new FixedLoop();
    loop.onLateUpdate(fail);
    return consoleMessage(() => loop.advance(0));
  },
  'on-error-threw': () => {
    const loop = new FixedLoop();
    loop.onError(fail);
    loop.onUpdate(fail);
    return consoleMessage(() => loop.advance(0));
  },
  'error-policy-rethrow': () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const mine = new Error('mine');
    loop.onError(() => {}); // reported and rethrown: keep the console quiet
    let rendered = false;
    loop.onFixedUpdate(() => {
      throw mine;
    });
    loop.onPostRender(() => {
      rendered = true;
    });
    try {
      loop.advance(1 / 60);
    } catch (error) {
      expect(error).toBe(mine);
      expect(rendered).toBe(true);
      return (error as Error).message;
    }
    throw new Error('expected the error to be rethrown');
  },
  'godot-aggregate': () => {
    const loop = new FixedLoop();
    const engine = new GodotEngine(loop);
    for (const name of ['a', 'b']) {
      const node = new Node(name);
      node._physics_process = fail;
      engine.root.add_child(node);
    }
    let message = '';
    loop.onError((error, source) => {
      expect(error).toBeInstanceOf(AggregateError);
      expect((error as AggregateError).errors).toHaveLength(2);
      expect(source).toBe('onFixedUpdate');
      message = (error as Error).message;
    });
    loop.advance(1 / 60);
    return message;
  },
  // interpolation buffers
  'pose-mode': () => thrown(() => new PoseBuffer().add('lerp' as never)),
  'pose-capacity': () => thrown(() => new PoseBuffer(0)),
  'pose-slot': () => thrown(() => new PoseBuffer().reset(3)),
  // input
  'input-loop': () => thrown(() => new InputLatch(undefined as never)),
  'input-options': () =>
    thrown(() => new InputLatch(new FixedLoop()).bindKeyboard(target(), 5 as never)),
  'input-unknown-option': () =>
    thrown(() =>
      new InputLatch(new FixedLoop()).bindKeyboard(target(), { preventDefaults: true } as never),
    ),
  'input-timing': () => thrown(() => new InputLatch(new FixedLoop(), { timing: 'stamp' as never })),
  'input-key': () => thrown(() => new InputLatch(new FixedLoop()).held(42 as never)),
  'input-time': () => thrown(() => new InputLatch(new FixedLoop()).press('KeyA', Number.NaN)),
  'input-keys': () =>
    thrown(() => {
      const latch = new InputLatch(new FixedLoop());
      for (let i = 0; i <= 1024; i++) latch.press(`K${i}`);
    }),
  'input-listener': () => thrown(() => new InputLatch(new FixedLoop()).onInput(5 as never)),
  'input-target': () =>
    thrown(() => new InputLatch(new FixedLoop()).bindKeyboard(undefined as never)),
  'input-flag': () =>
    thrown(() => new InputLatch(new FixedLoop()).bindPointer(target(), { capture: 1 as never })),
  'input-prevent': () =>
    thrown(() =>
      new InputLatch(new FixedLoop()).bindKeyboard(target(), { preventDefault: 'Space' as never }),
    ),
  'recording-latch': () => thrown(() => new InputRecording().record({} as never)),
  'replay-on-end': () =>
    thrown(() =>
      new InputRecording().replay(new InputLatch(new FixedLoop()), { onEnd: 'done' as never }),
    ),
  'replay-recording': () =>
    thrown(() => {
      const latch = new InputLatch(new FixedLoop());
      const recording = new InputRecording();
      recording.record(latch);
      recording.replay(latch);
    }),
  'replay-step': () =>
    thrown(() => {
      const latch = new InputLatch(new FixedLoop());
      const recording = new InputRecording();
      recording.record(latch);
      latch.press('KeyA');
      latch.loop.advance(1 / 60);
      recording.stop();
      recording.replay(new InputLatch(new FixedLoop({ tickRate: 30 })));
    }),
  'recording-json': () => thrown(() => InputRecording.fromJSON('{not json')),
  'recording-text-length': () =>
    thrown(() => InputRecording.fromJSON(' '.repeat(RECORDING_MAX_TEXT_LENGTH + 1))),
  'recording-depth': () => thrown(() => InputRecording.fromJSON('[[[[[]]]]]')),
  'recording-text-size': () =>
    thrown(() => InputRecording.fromJSON(`{${'"a":1,'.repeat(20)}"b":2}`)),
  'recording-unreadable': () =>
    thrown(() =>
      InputRecording.fromJSON(
        new Proxy(goodRecording(), {
          get: () => {
            throw new Error('gone');
          },
        }),
      ),
    ),
  'recording-object': () => thrown(() => InputRecording.fromJSON('[1]')),
  'recording-format': () => badRecording((r) => Object.assign(r, { format: 'x' })),
  'recording-version': () => badRecording((r) => Object.assign(r, { version: 99 })),
  'recording-whole': () => badRecording((r) => Object.assign(r, { length: -1 })),
  'recording-finite': () => badRecording((r) => Object.assign(r, { fixedDelta: 'fast' })),
  'recording-fixed-delta': () => badRecording((r) => Object.assign(r, { fixedDelta: 0 })),
  'recording-start': () => badRecording((r) => Object.assign(r, { start: null })),
  'recording-held': () => badRecording((r) => Object.assign(r, { start: { pointer: [0, 0] } })),
  'recording-too-many': () =>
    badRecording((r) => Object.assign(r, { events: new Array(1_000_001) })),
  'recording-held-twice': () =>
    badRecording((r) => Object.assign(r, { start: { held: ['KeyA', 'KeyA'], pointer: [0, 0] } })),
  'recording-key': () =>
    badRecording((r) => Object.assign(r, { start: { held: [''], pointer: [0, 0] } })),
  'recording-distinct-keys': () =>
    badRecording((r) =>
      Object.assign(r, {
        length: 2000,
        events: Array.from({ length: 1025 }, (_, i) => [i, 'press', `K${i}`]),
      }),
    ),
  'recording-pointer': () =>
    badRecording((r) => Object.assign(r, { start: { held: [], pointer: [0] } })),
  'recording-events': () => badRecording((r) => Object.assign(r, { events: {} })),
  'recording-event': () => badRecording((r) => Object.assign(r, { events: [5] })),
  'recording-order': () =>
    badRecording((r) =>
      Object.assign(r, {
        events: [
          [3, 'press', 'KeyA'],
          [2, 'release', 'KeyA'],
        ],
      }),
    ),
  'recording-length': () =>
    badRecording((r) => Object.assign(r, { events: [[10, 'press', 'KeyA']] })),
  'recording-key-event': () => badRecording((r) => Object.assign(r, { events: [[1, 'press']] })),
  'recording-press-held': () =>
    badRecording((r) =>
      Object.assign(r, {
        events: [
          [1, 'press', 'KeyA'],
          [2, 'press', 'KeyA'],
        ],
      }),
    ),
  'recording-release-free': () =>
    badRecording((r) => Object.assign(r, { events: [[1, 'release', 'KeyA']] })),
  'recording-move': () => badRecording((r) => Object.assign(r, { events: [[1, 'move', 3]] })),
  'recording-kind': () => badRecording((r) => Object.assign(r, { events: [[1, 'jump', 'KeyA']] })),
  // debug overlay
  'graph-loop': () => thrown(() => createTimingGraph(undefined as never)),
  'graph-positive': () => thrown(() => createTimingGraph(new FixedLoop(), { width: -5 })),
  'graph-position': () =>
    thrown(() => createTimingGraph(new FixedLoop(), { position: 'middle' as never })),
  'graph-visible': () =>
    thrown(() => createTimingGraph(new FixedLoop(), { visible: null as never })),
  'graph-toggle': () => thrown(() => createTimingGraph(new FixedLoop(), { toggleKey: '' })),
  'graph-height': () => thrown(() => createTimingGraph(new FixedLoop(), { height: 10 })),
  'graph-container': () =>
    thrown(() => createTimingGraph(new FixedLoop(), { container: {} as never })),
  'graph-dom': () => thrown(() => createTimingGraph(new FixedLoop())),
  'graph-context': () => {
    const canvas = { style: {}, setAttribute() {}, getContext: () => null };
    const doc = { createElement: () => canvas, defaultView: null, body: {} };
    const container = { ownerDocument: doc, appendChild() {} } as unknown as HTMLElement;
    return thrown(() => createTimingGraph(new FixedLoop(), { container }));
  },
  'history-frames': () => thrown(() => new TimingHistory(1e308)),
  // facades
  'unity-loop': () => thrown(() => new UnityTime(undefined as never)),
  'unity-capture-framerate': () =>
    thrown(() => {
      new UnityTime(new FixedLoop()).captureFramerate = 29.97;
    }),
  'unity-register-disposed': () =>
    thrown(() => {
      const time = new UnityTime(new FixedLoop());
      time.dispose();
      time.register({ Update() {} });
    }),
  'unity-register-object': () =>
    thrown(() => new UnityTime(new FixedLoop()).register(null as never)),
  'godot-loop': () => thrown(() => new GodotEngine({} as never)),
  'godot-ticks': () =>
    thrown(() => {
      new GodotEngine(new FixedLoop()).physics_ticks_per_second = 0.5;
    }),
  'godot-reset-listener': () =>
    thrown(() => new GodotEngine(new FixedLoop()).onResetPhysicsInterpolation(5 as never)),
  'godot-add-child-node': () => thrown(() => new Node('a').add_child({} as never)),
  'godot-add-child-parent': () =>
    thrown(() => {
      const child = new Node('child');
      new Node('first').add_child(child);
      new Node('second').add_child(child);
    }),
  'godot-add-child-cycle': () =>
    thrown(() => {
      const parent = new Node('parent');
      const child = new Node('child');
      parent.add_child(child);
      child.add_child(parent);
    }),
  'godot-remove-child': () => thrown(() => new Node('a').remove_child(new Node('b'))),
  'roblox-loop': () => thrown(() => new RunService(null as never)),
  'roblox-disposed': () =>
    thrown(() => {
      const run = new RunService(new FixedLoop());
      run.dispose();
      run.Heartbeat.Connect(() => {});
    }),
  'roblox-bind-name': () =>
    thrown(() => new RunService(new FixedLoop()).BindToRenderStep(7 as never, 1, () => {})),
  'roblox-simulation-priority': () =>
    thrown(() => new RunService(new FixedLoop()).BindToSimulation(() => {}, 'Hz30', Number.NaN)),
  'roblox-bind-priority': () =>
    thrown(() =>
      new RunService(new FixedLoop()).BindToRenderStep('camera', undefined as never, () => {}),
    ),
  'roblox-bind-function': () =>
    thrown(() => new RunService(new FixedLoop()).BindToRenderStep('camera', 200, null as never)),
  'roblox-simulation-function': () =>
    thrown(() => new RunService(new FixedLoop()).BindToSimulation(null as never)),
  'roblox-frequency': () =>
    thrown(() => new RunService(new FixedLoop()).BindToSimulation(() => {}, 0 as never)),
  'roblox-connect-function': () =>
    thrown(() => new RunService(new FixedLoop()).Heartbeat.Connect('x' as never)),
  // three
  'three-renderer': () => thrown(() => new ThreeFixedLoop({ renderer: {} as never })),
  'three-scene': () =>
    thrown(() => new ThreeFixedLoop({ renderer: { setAnimationLoop() {}, render() {} } as never })),
  'three-camera': () =>
    thrown(
      () =>
        new ThreeFixedLoop({
          renderer: { setAnimationLoop() {}, render() {} } as never,
          scene: new Group(),
        }),
    ),
  'three-default-interpolation': () =>
    thrown(() => new ThreeFixedLoop({ defaultInterpolation: 'smooth' as never })),
  'three-object': () => thrown(() => new ThreeFixedLoop().track({} as never)),
  'three-instanced-mesh': () =>
    thrown(() => new ThreeFixedLoop().trackInstance(new Group() as never, 0)),
  'three-instance-index': () =>
    thrown(() =>
      new ThreeFixedLoop().trackInstance(
        new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 4),
        4,
      ),
    ),
  'three-not-tracked': () => thrown(() => new ThreeFixedLoop().getSimulationPose(new Group())),
  // tracking (core, both adapters)
  'tracking-position': () => {
    const loop = new ThreeFixedLoop();
    const box = new Group();
    loop.track(box);
    return thrown(() => loop.teleport(box, { x: Number.NaN, y: 0, z: 0 }));
  },
  'tracking-rotation': () => {
    const loop = new ThreeFixedLoop();
    const box = new Group();
    loop.track(box);
    return thrown(() => loop.teleport(box, { x: 0, y: 0, z: 0 }, [0, 0, 0, 1] as never));
  },
  'tracking-instance-index': () =>
    thrown(() => {
      const loop = new ThreeFixedLoop();
      const mesh = new InstancedMesh(undefined, undefined, 2);
      loop.trackInstance(mesh, 0);
      loop.setInstancePose(mesh, 1, { x: 0, y: 0, z: 0 });
    }),
  'tracking-restore': () =>
    thrown(() =>
      new ThreeFixedLoop().trackInstance(new InstancedMesh(undefined, undefined, 1), 0, {
        restore: 'yes' as never,
      }),
    ),
  'three-track-options': () =>
    thrown(() => new ThreeFixedLoop().track(new Group(), 'none' as never)),
  // babylon
  'babylon-scene': () => thrown(() => new BabylonFixedLoop({} as never)),
  'babylon-lockstep': () =>
    thrown(() => {
      const lockstep = { deterministicLockstep: true } as ConstructorParameters<
        typeof NullEngine
      >[0];
      return new BabylonFixedLoop(new Scene(new NullEngine(lockstep)));
    }),
  'babylon-mode': async () => {
    const scene = await havokScene();
    return thrown(() => new BabylonFixedLoop(scene, { defaultInterpolation: 'lerp' as never }));
  },
  'babylon-boolean': async () => {
    const scene = await havokScene();
    return thrown(() => new BabylonFixedLoop(scene, { autoTrack: 'yes' as never }));
  },
  'babylon-physics-v1': () => {
    const scene = new Scene(new NullEngine());
    scene.enablePhysics(new Vector3(0, -9.81, 0), new CannonJSPlugin(true, 10, CANNON));
    return thrown(() => new BabylonFixedLoop(scene));
  },
  'babylon-thin-teleport': async () => {
    const { loop, mesh } = await thinMeshLoop();
    return thrown(() => loop.teleport(mesh, { x: 0, y: 1, z: 0 }));
  },
  'babylon-node': async () => {
    const scene = await havokScene();
    const loop = new BabylonFixedLoop(scene);
    return thrown(() => loop.track({} as never));
  },
  'babylon-not-tracked': async () => {
    const scene = await havokScene();
    const loop = new BabylonFixedLoop(scene);
    return thrown(() => loop.getSimulationPose(new TransformNode('plain', scene)));
  },
  'babylon-thin-index': async () => {
    const { loop, mesh } = await thinMeshLoop();
    return thrown(() => loop.teleportInstance(mesh, 5, { x: 0, y: 1, z: 0 }));
  },
  'havok-gravity': () =>
    thrown(() => enableHavok(new Scene(new NullEngine()), { gravity: null as never })),
  'havok-module': () =>
    thrown(() => enableHavok(new Scene(new NullEngine()), { havok: null as never })),
  'havok-wasm-binary': () => thrown(() => loadHavok({ wasmBinary: null as never })),
  'havok-locate-file': () => thrown(() => loadHavok({ locateFile: '/havok.wasm' as never })),
  'havok-refused': () => {
    const levels = Logger.LogLevels;
    Logger.LogLevels = Logger.NoneLogLevel; // Babylon logs why; the test only needs our error
    const scene = new Scene(new NullEngine());
    // a Havok module that creates a world but cannot set its gravity (an incompatible build)
    const broken = new Proxy(
      {},
      {
        get: (_target, name) =>
          name === 'HP_World_SetGravity'
            ? () => {
                throw new Error('not in this build');
              }
            : () => [0, 1],
      },
    );
    return thrown(() => enableHavok(scene, { havok: broken as never })).finally(() => {
      Logger.LogLevels = levels;
    });
  },
};

// ---- the test -----------------------------------------------------------------------------

const rows = readRows();

describe('docs/errors.md: every row is produced by a test', () => {
  it('every documented row has a trigger and every trigger a row', () => {
    expect(rows.length).toBeGreaterThan(90);
    const documented = rows.map((r) => r.id).sort();
    expect(new Set(documented).size).toBe(documented.length);
    expect(documented).toEqual(Object.keys(triggers).sort());
  });

  it.each(rows)('$id: $message', async ({ id, pattern }) => {
    const trigger = triggers[id];
    expect(trigger, `no trigger for ${id}`).toBeDefined();
    const message = await trigger();
    expect(message).toMatch(pattern);
  });
});
