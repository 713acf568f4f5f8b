/**
 * The contenders, each driven the way its own docs drive it, from `requestAnimationFrame` on a
 * {@link FakeDisplay}. Every one runs the same gameplay: `spec.step(dt)` once per fixed step and
 * `spec.render(alpha)` once per frame after the steps (alpha = 1 where the loop has none).
 *
 * - Fixedtick: `new FixedLoop({ tickRate })`, `onFixedUpdate` / `onUpdate`, `loop.start()` on
 *   the default rAF driver.
 * - mainloop.js 1.0.4: the published build, loaded into its own context whose global has the
 *   fake `requestAnimationFrame` (it is a browser singleton that captures rAF at load time);
 *   `setSimulationTimestep(1000 / hz)`, `setUpdate` / `setDraw`, and `setEnd` calling
 *   `resetFrameDelta()` on panic, as its demo does.
 * - @thi.ng/timestep: `defTimeStep({ dt, startTime: performance.now() })` and
 *   `sim.update(timestamp, [item])` per rAF frame, as its README does (with rAF instead of
 *   `setInterval`).
 * - three.js `Timer` + the accumulator a three.js user writes by hand: Fiedler's
 *   "Fix Your Timestep!" loop (`frameTime = min(delta, 0.25)`), fed by `timer.update(timestamp)`
 *   as three's Timer docs show.
 * - Babylon.js `NullEngine({ deterministicLockstep: true, lockstepMaxSteps, timeStep })` with
 *   Havok enabled; gameplay in `scene.onBeforeStepObservable`, rendering in
 *   `onBeforeRenderObservable`, frames from `engine.runRenderLoop(() => scene.render())`.
 * - cannon-es: `world.step(dt, timeSinceLastCalled, maxSubSteps)` per rAF frame (default
 *   `maxSubSteps` 10), gameplay in the world's `preStep` event, alpha = `accumulator / dt` (what
 *   it uses for `interpolatedPosition`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { FixedLoop, rafDriver } from '../../packages/core/src/index.ts';
import type { FakeDisplay } from './fake-clock.ts';

const require = createRequire(import.meta.url);

/** Who is compared. */
export type ContenderId = 'fixedtick' | 'mainloop' | 'thing' | 'three' | 'babylon' | 'cannon';

/** Column order and headings of the report. */
export const CONTENDERS: readonly { id: ContenderId; name: string; version: string }[] = [
  { id: 'fixedtick', name: 'Fixedtick', version: 'workspace' },
  { id: 'mainloop', name: 'mainloop.js', version: pkgVersion('mainloop.js') },
  { id: 'thing', name: '@thi.ng/timestep', version: pkgVersion('@thi.ng/timestep') },
  { id: 'three', name: 'three Timer + hand-written accumulator', version: pkgVersion('three') },
  {
    id: 'babylon',
    name: 'Babylon.js deterministicLockstep + Havok',
    version: pkgVersion('@babylonjs/core'),
  },
  { id: 'cannon', name: 'cannon-es world.step', version: pkgVersion('cannon-es') },
];

/** A file of an installed package, by its path (exports maps do not list package.json). */
export function modulePath(name: string, file: string): URL {
  return new URL(`../../node_modules/${name}/${file}`, import.meta.url);
}

function pkgVersion(name: string): string {
  return (JSON.parse(readFileSync(modulePath(name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The gameplay a contender runs. */
export interface LoopSpec {
  /** Fixed steps per second. */
  hz: number;
  /** A step cap the scenario asks for; contenders without one ignore it (and say so). */
  cap?: number | undefined;
  /** Once per fixed step, with the contender's step in seconds. */
  step(dt: number): void;
  /** Once per frame after the steps. */
  render(alpha: number): void;
  /**
   * @thi.ng/timestep only: its own state objects (`defVector3`, …) to pass to `sim.update`
   * before the item that calls `step` / `render`.
   */
  thingItems?: readonly ThingItem[] | undefined;
}

/** thi.ng's `ITimeStep`: what `sim.update(now, items)` integrates and interpolates. */
export interface ThingItem {
  integrate(dt: number, ctx: never): void;
  interpolate(alpha: number, ctx: never): void;
}

/** A contender that is running on a display. */
export interface LoopRun {
  readonly display: FakeDisplay;
  /** How the scenario's cap was applied, or why it could not be. */
  readonly capNote: string;
  /** The engine objects, for scenarios that need them (Babylon scene, cannon world, …). */
  readonly handles: Record<string, unknown>;
  dispose(): void;
}

/** A started contender: frames are fed by `run.display.frame(timestampMs)`. */
export type Factory = (spec: LoopSpec, display: FakeDisplay) => LoopRun;

// ---- Fixedtick ---------------------------------------------------------------------------

function fixedtick(spec: LoopSpec, display: FakeDisplay): LoopRun {
  const loop = new FixedLoop(
    spec.cap === undefined
      ? { tickRate: spec.hz }
      : { tickRate: spec.hz, maxStepsPerFrame: spec.cap },
  );
  loop.onFixedUpdate((dt) => spec.step(dt));
  loop.onUpdate((_delta, alpha) => spec.render(alpha));
  display.run(() => loop.start(rafDriver()));
  return {
    display,
    capNote:
      spec.cap === undefined
        ? `default maxStepsPerFrame 'auto' (${loop.maxStepsPerFrame} at ${spec.hz} Hz)`
        : `maxStepsPerFrame: ${spec.cap}`,
    handles: { loop },
    dispose: () => {
      loop.dispose();
      display.clear();
    },
  };
}

// ---- mainloop.js -------------------------------------------------------------------------

interface MainLoopApi {
  setSimulationTimestep(ms: number): MainLoopApi;
  setUpdate(fn: (timestepMs: number) => void): MainLoopApi;
  setDraw(fn: (interpolation: number) => void): MainLoopApi;
  setEnd(fn: (fps: number, panic: boolean) => void): MainLoopApi;
  resetFrameDelta(): number;
  start(): MainLoopApi;
  stop(): MainLoopApi;
}

const mainloopSource = readFileSync(require.resolve('mainloop.js'), 'utf8');

/**
 * A fresh MainLoop singleton. Its build reads `window.requestAnimationFrame` or, without a
 * `window`, `this.requestAnimationFrame` of the script's global, once, at load: so it is run as
 * a script whose global is a context holding the fake rAF (and no `module`, like a browser).
 */
function loadMainLoop(): MainLoopApi {
  const g = globalThis as unknown as Record<string, unknown>;
  const sandbox: Record<string, unknown> = {
    requestAnimationFrame: g.requestAnimationFrame,
    cancelAnimationFrame: g.cancelAnimationFrame,
    setTimeout,
    clearTimeout,
  };
  vm.runInNewContext(mainloopSource, sandbox, { filename: 'mainloop.min.js' });
  return sandbox.MainLoop as MainLoopApi;
}

function mainloop(spec: LoopSpec, display: FakeDisplay): LoopRun {
  const MainLoop = loadMainLoop();
  MainLoop.setSimulationTimestep(1000 / spec.hz)
    .setUpdate((timestepMs) => spec.step(timestepMs / 1000))
    .setDraw((interpolation) => spec.render(interpolation))
    .setEnd((_fps, panic) => {
      // What its demo does: discard the unsimulated time after a panic (240 updates in a frame).
      if (panic) MainLoop.resetFrameDelta();
    });
  display.run(() => MainLoop.start());
  return {
    display,
    capNote: 'no cap option (a fixed 240-update panic limit)',
    handles: { MainLoop },
    dispose: () => {
      display.run(() => MainLoop.stop());
      display.clear();
    },
  };
}

// ---- @thi.ng/timestep --------------------------------------------------------------------

const thing = await import('@thi.ng/timestep');

function thingTimestep(spec: LoopSpec, display: FakeDisplay): LoopRun {
  const sim = display.run(() =>
    thing.defTimeStep({ dt: 1 / spec.hz, startTime: performance.now() }),
  );
  const items: ThingItem[] = [
    ...(spec.thingItems ?? []),
    {
      integrate: (dt: number) => spec.step(dt),
      interpolate: (alpha: number) => spec.render(alpha),
    },
  ];
  let stopped = false;
  const animate = (t: number): void => {
    if (stopped) return;
    requestAnimationFrame(animate);
    sim.update(t, items);
  };
  display.run(() => requestAnimationFrame(animate));
  return {
    display,
    capNote: 'no cap option (maxFrameTime 0.25 s bounds a frame)',
    handles: { sim },
    dispose: () => {
      stopped = true;
      display.clear();
    },
  };
}

// ---- three Timer + hand-written accumulator ----------------------------------------------

const three = await import('three');

function threeTimer(spec: LoopSpec, display: FakeDisplay): LoopRun {
  const timer = display.run(() => new three.Timer());
  const step = 1 / spec.hz;
  let accumulator = 0;
  let stopped = false;
  // Fiedler's loop, as a three.js user writes it around three's Timer.
  const animate = (timestamp: number): void => {
    if (stopped) return;
    requestAnimationFrame(animate);
    timer.update(timestamp);
    accumulator += Math.min(timer.getDelta(), 0.25);
    while (accumulator >= step) {
      spec.step(step);
      accumulator -= step;
    }
    spec.render(accumulator / step);
  };
  display.run(() => requestAnimationFrame(animate));
  return {
    display,
    capNote: 'no cap in the pattern (its 0.25 s clamp bounds a frame)',
    handles: { timer },
    dispose: () => {
      stopped = true;
      display.clear();
    },
  };
}

// ---- Babylon.js deterministicLockstep + Havok --------------------------------------------

const babylon = await import('@babylonjs/core');
const havokModule = (await import('@babylonjs/havok')).default as unknown as (options: {
  wasmBinary: ArrayBuffer | Uint8Array;
}) => Promise<unknown>;
let havokPromise: Promise<unknown> | undefined;

/** The Havok WASM module, loaded once (as the Babylon docs load it, given the binary on Node). */
export function loadHavok(): Promise<unknown> {
  havokPromise ??= havokModule({
    wasmBinary: readFileSync(modulePath('@babylonjs/havok', 'lib/esm/HavokPhysics.wasm')),
  });
  return havokPromise;
}
/** Loaded by `prepare()` before any Babylon contender is created. */
let havok: unknown;

/** Loads what contenders need asynchronously (Havok's WASM). */
export async function prepare(): Promise<void> {
  havok = await loadHavok();
}

/** The Babylon.js module (for scenarios that build bodies). */
export { babylon };

/** A NullEngine in lockstep with a Havok scene and a camera, not yet rendering. */
export function babylonLockstepScene(
  hz: number,
  maxSteps: number,
  display: FakeDisplay,
): { engine: InstanceType<typeof babylon.NullEngine>; scene: InstanceType<typeof babylon.Scene> } {
  if (!havok) throw new Error('bench: call prepare() first');
  return display.run(() => {
    const engine = new babylon.NullEngine({
      deterministicLockstep: true,
      lockstepMaxSteps: maxSteps,
      timeStep: 1 / hz,
      renderHeight: 256,
      renderWidth: 256,
      textureSize: 256,
    });
    const scene = new babylon.Scene(engine);
    new babylon.FreeCamera('camera', new babylon.Vector3(0, 5, -20), scene);
    scene.enablePhysics(
      new babylon.Vector3(0, -9.81, 0),
      new babylon.HavokPlugin(true, havok as never),
    );
    return { engine, scene };
  });
}

function babylonLockstep(spec: LoopSpec, display: FakeDisplay): LoopRun {
  const maxSteps = spec.cap ?? 4;
  const { engine, scene } = babylonLockstepScene(spec.hz, maxSteps, display);
  scene.onBeforeStepObservable.add(() => spec.step(engine.getTimeStep() / 1000));
  // Lockstep exposes no alpha: what is drawn is the latest step (alpha 1).
  scene.onBeforeRenderObservable.add(() => spec.render(1));
  display.run(() => engine.runRenderLoop(() => scene.render()));
  return {
    display,
    capNote:
      spec.cap === undefined ? 'default lockstepMaxSteps 4' : `lockstepMaxSteps: ${spec.cap}`,
    handles: { engine, scene },
    dispose: () => {
      display.run(() => {
        engine.stopRenderLoop();
        scene.dispose();
        engine.dispose();
      });
      display.clear();
    },
  };
}

// ---- cannon-es ---------------------------------------------------------------------------

const cannon = await import('cannon-es');

/** The cannon-es module (for scenarios that build bodies). */
export { cannon };

function cannonStep(spec: LoopSpec, display: FakeDisplay): LoopRun {
  const world = new cannon.World({ gravity: new cannon.Vec3(0, -9.82, 0) });
  const dt = 1 / spec.hz;
  const maxSubSteps = spec.cap ?? 10;
  world.addEventListener('preStep', () => spec.step(world.dt));
  let last: number | undefined;
  let stopped = false;
  const animate = (time: number): void => {
    if (stopped) return;
    requestAnimationFrame(animate);
    if (last !== undefined) world.step(dt, (time - last) / 1000, maxSubSteps);
    last = time;
    spec.render(world.accumulator / dt);
  };
  display.run(() => requestAnimationFrame(animate));
  return {
    display,
    capNote: spec.cap === undefined ? 'default maxSubSteps 10' : `maxSubSteps: ${spec.cap}`,
    handles: { world },
    dispose: () => {
      stopped = true;
      display.clear();
    },
  };
}

/** Each contender's factory. */
export const FACTORIES: Record<ContenderId, Factory> = {
  fixedtick,
  mainloop,
  thing: thingTimestep,
  three: threeTimer,
  babylon: babylonLockstep,
  cannon: cannonStep,
};
