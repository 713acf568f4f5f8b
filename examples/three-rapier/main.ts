/**
 * A Rapier pile: a wall of boxes, a heap of spheres (288 bodies, or up to 10 000 with the
 * slider), a projectile and a capsule walked by Rapier's character controller. The world runs on
 * the main thread (`RapierPhysics`) or in a worker (`WorkerPhysics`, worker.ts): the same scene
 * code (scene.ts, scene-step.ts) builds and steps it in both, and the loop draws every body
 * interpolated either way. The shot and teleport keys are read through an `InputLatch` inside
 * the fixed step, so a press is seen by exactly one tick at any frame rate. Rapier's WASM comes
 * inlined in `@dimforge/rapier3d-compat`: no file to serve.
 *
 * The page's settings are in its address: `?mode=worker&bodies=5000` (the controls reload it).
 */
import { InputLatch, type InterpolationMode, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import {
  Color,
  DirectionalLight,
  HemisphereLight,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { holdButtons, keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';
import { addCharacterView } from './character.ts';
import { startMainThreadMode } from './main-thread-mode.ts';
import type { ModeName } from './mode.ts';
import {
  addGroundMesh,
  buildPileMeshes,
  farthestFromStart,
  movedCount,
  projectileMesh,
  RepeatWatch,
  TeleportReach,
} from './pile.ts';
import { groundHalf, PILE_DEFAULT, pileCount, pileLayout } from './scene.ts';
import { startWorkerMode } from './worker-mode.ts';

/** A body counts as moved once it is this far (m) from where the pile put it. */
const MOVED = 0.25;
/** The pile sizes the slider offers. */
const SIZES = [288, 500, 1000, 2000, 5000, 10_000];
/** The tick whose state is hashed: 5 s of 60 Hz steps. */
const HASH_TICK = 300;

const params = new URLSearchParams(location.search);
const modeName: ModeName = params.get('mode') === 'worker' ? 'worker' : 'main';
const count = pileCount(Number(params.get('bodies') ?? PILE_DEFAULT));
const hashTick = Number(params.get('hashTick') ?? HASH_TICK);

const canvas = document.getElementById('view') as HTMLCanvasElement;
const stage = document.getElementById('stage') as HTMLDivElement;
const renderer = new WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
const scene = new Scene();
scene.background = new Color('#141a26');
scene.add(new HemisphereLight('#d8e0ff', '#30303a', 1.7));
const sun = new DirectionalLight('#ffffff', 1.6);
sun.position.set(6, 12, 8);
scene.add(sun);
const camera = new PerspectiveCamera(55, 1, 0.1, 200);

const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
const input = new InputLatch(loop);
input.bindKeyboard(window, {
  preventDefault: ['KeyF', 'KeyT', 'Space', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'],
});
const display = new SimulatedDisplay('real');
createTimingGraph(loop, {
  container: stage,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
  // the cyan mark: main-thread time per frame, what the worker mode takes off the main thread
  mainThread: true,
});

const layout = pileLayout(count);
addGroundMesh(scene, groundHalf(count));
const pileMeshes = buildPileMeshes(scene, layout);
const pile = pileMeshes.bodies;
const ball = projectileMesh();
scene.add(ball);
/** The walker's status as the mode last reported it (copied each frame, below). */
const walker = { walked: 0, grounded: false, manual: false };
const view = addCharacterView(scene, loop, camera, walker, (target) => mode.walkerPosition(target));
const start = modeName === 'worker' ? startWorkerMode : startMainThreadMode;
const mode = await start({
  loop,
  input,
  pile: pileMeshes,
  ball,
  capsule: view.mesh,
  count,
  hashTick,
});

const state = expose({
  example: 'three-rapier',
  ready: false,
  /** Where the world runs: 'main' (RapierPhysics) or 'worker' (WorkerPhysics). */
  mode: modeName,
  /** How poses reach the meshes: 'none' (main thread), 'shared' or 'message' (worker). */
  transport: mode.transport,
  /** `self.crossOriginIsolated`: whether the page may share memory with a worker. */
  crossOriginIsolated: globalThis.crossOriginIsolated === true,
  frames: 0,
  ticks: 0,
  /** World steps run (one per tick). */
  steps: 0,
  physicsRate: 60,
  fixedDelta: loop.fixedDelta,
  /** `world.timestep` as Rapier holds it (a 32-bit float). */
  timestep: 0,
  displayRate: 'real' as DisplayRate,
  interpolation: 'interpolate' as InterpolationMode,
  bodies: pile.length,
  bound: 0,
  sleeping: 0,
  resting: 0,
  /** Pile bodies farther than 0.25 m from their start. */
  moved: 0,
  shots: 0,
  /** Collisions of the projectile (started). */
  hits: 0,
  teleports: 0,
  /** Just before the last teleport: the largest distance of a drawn body from its start (m). */
  farthestBeforeTeleport: -1,
  /**
   * Once the picture has passed the last teleport's step: the largest distance of a drawn body
   * from its start (-1 until then).
   */
  teleportOffset: -1,
  /**
   * In the first frame drawn after the state before the teleport's step: steps the loop ran from
   * the teleport on (its own step included), less the worker's one step of delay.
   */
  stepsAfterTeleport: 0,
  /** Frames measured for the last teleport (those drawn between its step's two states and the one after). */
  teleportFrames: 0,
  /**
   * Over those frames: how far the drawn pile is from a picture with no streak (m; ≤ 0 when
   * every body is drawn between its own poses since the teleport, or held where it was before
   * it; up to metres for a streak). See TeleportReach.
   */
  teleportExcess: Number.NaN,
  /**
   * At a simulated display faster than the tick: moving pile bodies looked at frame after frame
   * (`checked`), and how many were drawn where the frame before drew them (`repeated`).
   */
  repeats: { checked: 0, repeated: 0 },
  /**
   * In worker mode, the frames its stream drew by kind (`interpolated` between two published
   * ticks; `held`, `extrapolated` or `before` when the picture left them): null on the main thread.
   */
  streamDrawn: mode.streamDrawn,
  /** Pile bodies drawn as instances of one InstancedMesh. */
  instances: pileMeshes.sphereIds.length,
  character: view.state,
  /** The hash of every body's state after the step of `hashTick` (null until then). */
  hash: null as { tick: number; value: string } | null,
  hashTick,
  /** Smoothed main-thread cost of one loop frame and of its render, ms. */
  frameMs: 0,
  renderMs: 0,
});

/** The tick whose step code teleported the pile, until its picture is measured; else -1. */
let teleportTick = -1;
const reach = new TeleportReach(pile, mode.readout);
const repeats = new RepeatWatch(pile, mode.readout);
loop.onFixedUpdate(
  (_, tick) => {
    // the scene's step code (where the world runs) teleports the pile on this same tick
    if (input.pressed('KeyT')) {
      state.farthestBeforeTeleport = farthestFromStart(pile);
      state.teleportExcess = -1;
      state.teleportFrames = 0;
      state.teleportOffset = -1;
      reach.reset();
      teleportTick = tick;
      reach.keepBefore(tick); // on the main thread the world is in that state now
    }
  },
  // before the step code: on the main thread its teleport redraws the pile at once
  { priority: -1 },
);

/**
 * After each frame from the teleport on: how far the picture is from a streak. Measured in each
 * frame drawn after the state before the teleport's step, once that state and the one the frame
 * is drawn towards have reached this side, until the picture has passed the teleport's step.
 */
function measureTeleport(): void {
  const before = teleportTick; // the state before the teleport's step: after `tick` steps
  const steps = mode.readout.steps;
  if (!reach.keepBefore(before)) return;
  if (steps > before) reach.record();
  // where the picture is, in states: between tick - 1 and tick (RapierPhysics), a step later
  // in a worker
  const pictured = loop.tick - 1 - mode.drawLag + loop.alpha;
  if (pictured <= before || steps < Math.ceil(pictured)) return;
  const holding = pictured < before + 1;
  state.teleportExcess = Math.max(state.teleportExcess, reach.excess(holding));
  if (state.teleportFrames++ === 0) state.stepsAfterTeleport = loop.tick - mode.drawLag - before;
  if (!holding) {
    state.teleportOffset = farthestFromStart(pile);
    teleportTick = -1;
  }
}

let renderStart = 0;
loop.onPreRender(
  () => {
    renderStart = performance.now();
  },
  { priority: 10_000 },
);
loop.onPostRender(() => {
  state.renderMs += (performance.now() - renderStart - state.renderMs) * 0.1;
  state.frames++;
  state.ticks = loop.tick;
  state.steps = mode.steps;
  state.fixedDelta = loop.fixedDelta;
  state.timestep = mode.timestep;
  state.bound = mode.bound;
  state.sleeping = mode.sleeping;
  state.resting = mode.resting;
  state.shots = mode.counts.shots;
  state.teleports = mode.counts.teleports;
  state.hits = mode.hits;
  state.hash = mode.hash;
  walker.walked = mode.walker.walked;
  walker.grounded = mode.walker.grounded;
  walker.manual = mode.walker.manual;
  state.moved = movedCount(pile, MOVED);
  if (typeof display.rate === 'number' && display.rate > loop.tickRate) {
    repeats.record();
    state.repeats.checked = repeats.checked;
    state.repeats.repeated = repeats.repeated;
  } else {
    repeats.reset();
  }
  if (teleportTick >= 0) measureTeleport();
});

// ---- UI ----------------------------------------------------------------------------------------

/** Reloads the page with `key` set to `value` (the world is built once, at load). */
function reloadWith(key: string, value: string): void {
  const next = new URLSearchParams(location.search);
  next.set(key, value);
  location.search = next.toString();
}

const modeSelect = document.getElementById('mode') as HTMLSelectElement;
modeSelect.value = modeName;
modeSelect.addEventListener('change', () => reloadWith('mode', modeSelect.value));
const bodiesSlider = document.getElementById('bodies') as HTMLInputElement;
const bodiesOutput = document.getElementById('bodies-count') as HTMLOutputElement;
const nearest = SIZES.reduce(
  (best, size, i) => (Math.abs(size - count) < Math.abs(SIZES[best] - count) ? i : best),
  0,
);
bodiesSlider.max = String(SIZES.length - 1);
bodiesSlider.value = String(nearest);
bodiesOutput.textContent = count.toLocaleString('en');
bodiesSlider.addEventListener('input', () => {
  bodiesOutput.textContent = SIZES[Number(bodiesSlider.value)].toLocaleString('en');
});
bodiesSlider.addEventListener('change', () =>
  reloadWith('bodies', String(SIZES[Number(bodiesSlider.value)])),
);
const physicsSelect = document.getElementById('physics-rate') as HTMLSelectElement;
physicsSelect.addEventListener('change', () => {
  loop.tickRate = Number(physicsSelect.value);
  state.physicsRate = loop.tickRate;
});
const interpolationSelect = document.getElementById('interpolation') as HTMLSelectElement;
// WorkerPhysics draws its bodies interpolated, its one mode
interpolationSelect.disabled = modeName === 'worker';
interpolationSelect.addEventListener('change', () => {
  mode.interpolation = interpolationSelect.value as InterpolationMode;
  state.interpolation = mode.interpolation;
});
const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
displaySelect.addEventListener('change', () => {
  const value = displaySelect.value;
  display.rate = value === 'real' ? 'real' : Number(value);
  state.displayRate = display.rate;
});
// A button is a tap of its key (data-key), through the same latch the keyboard feeds.
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-key]')) {
  const key = button.dataset.key as string;
  button.addEventListener('click', () => {
    input.press(key);
    input.release(key);
  });
}
// The touch pad: a walk button holds its key while pressed, through the keyboard's latch.
holdButtons(
  (key) => input.press(key),
  (key) => input.release(key),
);
keysAfterControls();

const modeNote = document.getElementById('mode-note') as HTMLParagraphElement;
modeNote.textContent =
  modeName === 'main'
    ? 'World on the main thread: RapierPhysics steps it between the frame’s fixedUpdate and postSimulation.'
    : `World in a worker: WorkerPhysics sends each tick to worker.ts and draws the poses it publishes (transport: ${mode.transport === 'shared' ? 'shared memory' : 'postMessage, the page is not cross-origin isolated'}).`;
const displayNote = document.getElementById('display-note') as HTMLParagraphElement;
const statsLine = document.getElementById('stats') as HTMLParagraphElement;

function fitToStage(): void {
  const width = stage.clientWidth;
  const height = stage.clientHeight;
  const pixels = renderer.getPixelRatio();
  if (
    canvas.width === Math.floor(width * pixels) &&
    canvas.height === Math.floor(height * pixels)
  ) {
    return;
  }
  renderer.setSize(width, height, false);
  camera.aspect = width / Math.max(height, 1);
  camera.updateProjectionMatrix();
}

const simulatedAt = new Vector3();
function browserFrame(realMs: number): void {
  requestAnimationFrame(browserFrame);
  fitToStage();
  const timestamp = display.next(realMs);
  if (!Number.isNaN(timestamp)) {
    const start = performance.now();
    loop.frame(timestamp); // steps, interpolates and renders (the loop owns the renderer)
    state.frameMs += (performance.now() - start - state.frameMs) * 0.1;
  }
  const rate = display.rate;
  displayNote.textContent =
    rate === 'real'
      ? 'Display: the browser’s own frames and timestamps (requestAnimationFrame).'
      : `Simulated ${rate} fps display: each frame the browser draws feeds loop.frame() a timestamp exactly 1/${rate} s after the last. Game speed here: ${display.speed.toFixed(2)}× real time.`;
  mode.walkerPosition(simulatedAt);
  statsLine.textContent = `${modeName === 'main' ? 'main thread' : `worker (${mode.transport})`} · main-thread frame ${state.frameMs.toFixed(1)} ms (render ${state.renderMs.toFixed(1)} ms) · frames ${state.frames} · ticks ${loop.tick} · physics ${loop.tickRate} Hz · ${mode.bound} bodies bound · ${state.sleeping} asleep · ${state.moved} moved · shots ${state.shots} (hits ${state.hits})`;
  state.ready = true;
}
requestAnimationFrame(browserFrame);
