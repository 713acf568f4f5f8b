/**
 * A Rapier pile on `RapierPhysics`: a wall of boxes, a heap of spheres, a projectile and a
 * capsule walked by Rapier's character controller. The loop steps Rapier once per fixed step
 * with exactly `fixedDelta` and draws every body interpolated; the shot and teleport keys are
 * read through an `InputLatch` inside `fixedUpdate`, so a press is seen by exactly one tick at
 * any frame rate. Rapier's WASM comes inlined in `@dimforge/rapier3d-compat`: no file to serve.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { InputLatch, type InterpolationMode, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import { RapierPhysics } from '@fixedtick/three/rapier';
import {
  Color,
  DirectionalLight,
  HemisphereLight,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { holdButtons, keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';
import { addCharacter } from './character.ts';
import {
  addGround,
  buildPile,
  farthestFromStart,
  movedCount,
  projectileMesh,
  RepeatWatch,
  TeleportReach,
  teleportPile,
} from './pile.ts';

const SHOT_SPEED = 24;
/** Where the projectile waits before the first shot and after a teleport: below the ground. */
const PARKED = new Vector3(0, -10, 0);
/** Where the shot aims: the middle of the wall of boxes. */
const WALL_CENTRE = new Vector3(0, 1.2, 0.5);
/** A body counts as moved once it is this far (m) from where the pile put it. */
const MOVED = 0.25;

await RAPIER.init();

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

const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
const events = new RAPIER.EventQueue(true);
const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
const physics = new RapierPhysics(loop, world, { events });
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
});

addGround(RAPIER, world, scene);
const pile = buildPile(RAPIER, world, scene, physics);
const walker = addCharacter(RAPIER, world, scene, loop, physics, input, camera);

// The projectile waits, disabled, until the first shot.
const ball = projectileMesh();
scene.add(ball);
const ballBody = world.createRigidBody(
  RAPIER.RigidBodyDesc.dynamic()
    .setTranslation(PARKED.x, PARKED.y, PARKED.z)
    .setCcdEnabled(true)
    .setEnabled(false),
);
world.createCollider(
  RAPIER.ColliderDesc.ball(0.35)
    .setDensity(12)
    .setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS),
  ballBody,
);
physics.add(ball, ballBody);

const state = expose({
  example: 'three-rapier',
  ready: false,
  frames: 0,
  ticks: 0,
  /** World steps RapierPhysics ran (one per tick). */
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
  /** Collisions of the projectile (onCollision, started). */
  hits: 0,
  teleports: 0,
  /** Just before the last teleport: the largest distance of a drawn body from its start (m). */
  farthestBeforeTeleport: -1,
  /** In the frame of the last teleport: the largest distance of a drawn body from its start. */
  teleportOffset: -1,
  /** Steps that frame ran from the teleport on (the teleport's own step included). */
  stepsAfterTeleport: 0,
  /**
   * In that frame: the most a drawn body lies beyond the farthest of its own simulated poses since
   * the teleport (m; ≤ 0 when each is drawn between them, up to metres for a streak).
   */
  teleportExcess: Number.NaN,
  /**
   * At a simulated display faster than the tick: moving pile bodies looked at frame after frame
   * (`checked`), and how many were drawn where the frame before drew them (`repeated`).
   */
  repeats: { checked: 0, repeated: 0 },
  /** Pile bodies drawn as instances of one InstancedMesh (`physics.addInstance`). */
  instances: pile.filter((b) => physics.instanceOf(b.body) !== undefined).length,
  character: walker.state,
  /** Smoothed cost of one loop frame and of its render, ms. */
  frameMs: 0,
  renderMs: 0,
});

const aim = new Vector3();
const muzzle = new Vector3();
const spin = new Quaternion();
/** The tick whose `fixedUpdate` teleported the pile, until its frame is drawn; else -1. */
let teleportTick = -1;
const reach = new TeleportReach(pile);
const repeats = new RepeatWatch(pile);
// the world has stepped by postSimulation: what the steps after a teleport reached
loop.onPostSimulation(() => {
  if (teleportTick >= 0) reach.record();
});

loop.onFixedUpdate(() => {
  if (input.pressed('KeyF')) {
    // from the capsule's chest at the middle of the wall
    walker.body.translation(muzzle);
    muzzle.y += 0.5;
    aim.copy(WALL_CENTRE).sub(muzzle).normalize();
    muzzle.addScaledVector(aim, 0.9);
    ballBody.setEnabled(true);
    physics.teleport(ball, muzzle, spin);
    ballBody.setLinvel(aim.multiplyScalar(SHOT_SPEED), true);
    ballBody.setAngvel({ x: 0, y: 0, z: 0 }, true);
    state.shots++;
  }
  if (input.pressed('KeyT')) {
    // the projectile leaves too: it waits, disabled, below the ground
    physics.teleport(ball, PARKED, spin);
    ballBody.setEnabled(false);
    state.farthestBeforeTeleport = farthestFromStart(pile);
    teleportPile(pile, physics);
    reach.reset();
    state.teleports++;
    teleportTick = loop.tick;
  }
});

physics.onCollision((event) => {
  if (event.started && (event.object1 === ball || event.object2 === ball)) state.hits++;
});

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
  state.steps = physics.steps;
  state.fixedDelta = loop.fixedDelta;
  state.timestep = world.timestep;
  state.bound = physics.size;
  state.sleeping = physics.sleepingCount;
  state.resting = physics.restingCount;
  state.moved = movedCount(pile, MOVED);
  if (typeof display.rate === 'number' && display.rate > loop.tickRate) {
    repeats.record();
    state.repeats.checked = repeats.checked;
    state.repeats.repeated = repeats.repeated;
  } else {
    repeats.reset();
  }
  if (teleportTick >= 0) {
    state.teleportOffset = farthestFromStart(pile);
    state.teleportExcess = reach.excess();
    state.stepsAfterTeleport = loop.tick - teleportTick;
    teleportTick = -1;
  }
});

// ---- UI ----------------------------------------------------------------------------------------

const physicsSelect = document.getElementById('physics-rate') as HTMLSelectElement;
physicsSelect.addEventListener('change', () => {
  loop.tickRate = Number(physicsSelect.value);
  state.physicsRate = loop.tickRate;
});
const modeSelect = document.getElementById('interpolation') as HTMLSelectElement;
modeSelect.addEventListener('change', () => {
  physics.defaultInterpolation = modeSelect.value as InterpolationMode;
  state.interpolation = physics.defaultInterpolation;
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
  statsLine.textContent = `frames ${state.frames} · ticks ${loop.tick} · physics ${loop.tickRate} Hz · ${physics.size} bodies bound · ${state.sleeping} asleep · ${state.moved} moved · shots ${state.shots} (hits ${state.hits}) · frame ${state.frameMs.toFixed(1)} ms (render ${state.renderMs.toFixed(1)} ms)`;
  state.ready = true;
}
requestAnimationFrame(browserFrame);
