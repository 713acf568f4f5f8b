/**
 * A Havok pile on `BabylonFixedLoop`: 300 boxes (instances of one mesh, one Havok body each)
 * and a fast projectile. The loop steps Havok once per fixed step with exactly `fixedDelta`,
 * auto-tracks every dynamic body and draws it interpolated. The shot key is read through an
 * `InputLatch` inside `fixedUpdate`, so a press is seen by exactly one tick at any frame rate.
 */

import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';
import type { InstancedMesh } from '@babylonjs/core/Meshes/instancedMesh.js';
import wasmUrl from '@babylonjs/havok/lib/esm/HavokPhysics.wasm?url';
import { BabylonFixedLoop, InputLatch, type InterpolationMode } from '@fixedtick/babylon';
import { enableHavok } from '@fixedtick/babylon/havok';
import '@babylonjs/core/Meshes/instancedMesh.js';
import {
  PhysicsMotionType,
  PhysicsShapeType,
} from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import '@babylonjs/core/Physics/v2/physicsEngineComponent.js';
import { Scene } from '@babylonjs/core/scene.js';
import { createTimingGraph } from '@fixedtick/babylon/debug';
import { keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';

const SIZE = 0.5;
const WIDE = 10;
const HIGH = 10;
const DEEP = 3;
const SHOT_SPEED = 40;
const CANNON = new Vector3(0, 2.2, -14);
/** A body counts as moved once it is this far (m) from where the pile put it. */
const MOVED = 0.25;

const canvas = document.getElementById('view') as HTMLCanvasElement;
const engine = new Engine(canvas, true, { stencil: false, audioEngine: false });
const scene = new Scene(engine);
scene.clearColor = new Color4(0.08, 0.1, 0.15, 1);
await enableHavok(scene, { locateFile: () => wasmUrl, gravity: { x: 0, y: -9.81, z: 0 } });

const camera = new ArcRotateCamera('camera', -2.2, 1.15, 18, new Vector3(0, 2, 0), scene);
camera.attachControl(canvas, true);
camera.lowerRadiusLimit = 4;
camera.upperRadiusLimit = 60;
new HemisphericLight('sky', new Vector3(0.2, 1, 0.1), scene).intensity = 0.8;
const sun = new DirectionalLight('sun', new Vector3(-0.5, -1, 0.7), scene);
sun.intensity = 0.7;

const ground = CreateBox('ground', { width: 40, height: 1, depth: 40 }, scene);
ground.position.y = -0.5;
const groundMaterial = new StandardMaterial('ground', scene);
groundMaterial.diffuseColor = new Color3(0.22, 0.25, 0.32);
groundMaterial.specularColor = Color3.Black();
ground.material = groundMaterial;
new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0, friction: 0.8 }, scene);

// The pile: instances of one box (one draw call), each with its own dynamic Havok body.
const brick = CreateBox('brick', { size: SIZE }, scene);
const brickMaterial = new StandardMaterial('brick', scene);
brickMaterial.specularColor = new Color3(0.1, 0.1, 0.1);
brick.material = brickMaterial;
brick.registerInstancedBuffer('color', 4);
brick.instancedBuffers.color = new Color4(1, 1, 1, 1);
brick.isVisible = false;
const starts: Vector3[] = [];
const boxes: InstancedMesh[] = [];
for (let y = 0; y < HIGH; y++) {
  for (let x = 0; x < WIDE; x++) {
    for (let z = 0; z < DEEP; z++) {
      const box = brick.createInstance(`box-${boxes.length}`);
      const start = new Vector3((x - (WIDE - 1) / 2) * SIZE, SIZE / 2 + y * SIZE, z * SIZE);
      box.position.copyFrom(start);
      const shade = 0.55 + 0.45 * ((x + y + z) % 3) * 0.5;
      box.instancedBuffers.color = new Color4(0.95 * shade, 0.55 * shade, 0.3 + 0.2 * shade, 1);
      new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1, friction: 0.6 }, scene);
      starts.push(start);
      boxes.push(box);
    }
  }
}

const ball = CreateSphere('projectile', { diameter: 0.7, segments: 16 }, scene);
const ballMaterial = new StandardMaterial('projectile', scene);
ballMaterial.diffuseColor = new Color3(0.5, 0.85, 0.75);
ballMaterial.emissiveColor = new Color3(0.1, 0.25, 0.2);
ball.material = ballMaterial;
ball.position.copyFrom(CANNON);
const ballBody = new PhysicsAggregate(
  ball,
  PhysicsShapeType.SPHERE,
  { mass: 30, restitution: 0.2 },
  scene,
).body;
ballBody.disablePreStep = true;
// Static until the first shot: the ball waits at the cannon.
ballBody.setMotionType(PhysicsMotionType.STATIC);

// ---- the loop ---------------------------------------------------------------------------------

const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
const input = new InputLatch(loop);
input.bindKeyboard(window, { preventDefault: ['KeyF', 'KeyT'] });
const display = new SimulatedDisplay('real');
// Frame time, steps per frame, alpha and dropped time, live; G shows and hides it.
createTimingGraph(loop, {
  container: document.getElementById('stage') as HTMLElement,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});

const state = expose({
  example: 'babylon-havok',
  ready: false,
  frames: 0,
  ticks: 0,
  physicsRate: 60,
  displayRate: 'real' as DisplayRate,
  interpolation: 'interpolate' as InterpolationMode,
  bodies: boxes.length,
  tracked: 0,
  /** Pile bodies farther than 0.25 m (half a box) from their start. */
  moved: 0,
  shots: 0,
  teleports: 0,
  projectile: [CANNON.x, CANNON.y, CANNON.z],
  /** Projectile speed, m/s (from Havok). */
  projectileSpeed: 0,
  /** Smoothed cost of one loop frame and of its render, ms. */
  frameMs: 0,
  renderMs: 0,
});

const aim = new Vector3();
const shotVelocity = new Vector3();
let shotFrames = 0;

loop.onFixedUpdate(() => {
  if (input.pressed('KeyF')) {
    // Aim from the cannon at the middle of the pile, a little above its centre.
    aim
      .set(0, HIGH * SIZE * 0.45, DEEP * SIZE * 0.5)
      .subtractInPlace(CANNON)
      .normalize();
    shotVelocity.copyFrom(aim).scaleInPlace(SHOT_SPEED);
    ballBody.setMotionType(PhysicsMotionType.DYNAMIC);
    loop.teleport(ball, CANNON);
    ballBody.setLinearVelocity(shotVelocity);
    ballBody.setAngularVelocity(Vector3.ZeroReadOnly);
    state.shots++;
    shotFrames = 0;
  }
  if (input.pressed('KeyT')) teleportPile();
});

const identity = Quaternion.Identity();
function teleportPile(): void {
  for (let i = 0; i < boxes.length; i++) {
    const body = boxes[i].physicsBody;
    loop.teleport(boxes[i], starts[i], identity);
    body?.setLinearVelocity(Vector3.ZeroReadOnly);
    body?.setAngularVelocity(Vector3.ZeroReadOnly);
  }
  ballBody.setMotionType(PhysicsMotionType.STATIC);
  loop.teleport(ball, CANNON);
  state.teleports++;
}

// Follow camera: after the interpolation pass, so it follows the drawn (smooth) pose.
const pileCentre = new Vector3(0, HIGH * SIZE * 0.4, DEEP * SIZE * 0.5);
const followTarget = new Vector3();
const followStep = new Vector3();
const velocity = new Vector3();
let follow = true;
loop.onPreRender((delta) => {
  const inFlight = state.shots > 0 && shotFrames < 240 && ball.position.y > -5;
  followTarget.copyFrom(follow && inFlight ? ball.position : pileCentre);
  // Exponential smoothing: frame-rate independent, unlike a fixed lerp factor per frame.
  const k = 1 - Math.exp(-6 * delta);
  followTarget.subtractToRef(camera.target, followStep);
  camera.target.addInPlace(followStep.scaleInPlace(k));
  shotFrames++;
});

let renderStart = 0;
loop.onPreRender(
  () => {
    renderStart = performance.now();
  },
  { priority: 10_000 },
);
let measureEvery = 0;
loop.onPostRender(() => {
  state.renderMs += (performance.now() - renderStart - state.renderMs) * 0.1;
  state.frames++;
  state.ticks = loop.tick;
  state.projectile[0] = ball.position.x;
  state.projectile[1] = ball.position.y;
  state.projectile[2] = ball.position.z;
  if (++measureEvery >= 10) {
    measureEvery = 0;
    let moved = 0;
    for (let i = 0; i < boxes.length; i++) {
      if (Vector3.Distance(boxes[i].position, starts[i]) > MOVED) moved++;
    }
    state.moved = moved;
    state.tracked = loop.trackedCount;
    ballBody.getLinearVelocityToRef(velocity);
    state.projectileSpeed = velocity.length();
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
  const mode = modeSelect.value as InterpolationMode;
  for (const box of boxes) loop.track(box, { interpolation: mode });
  loop.track(ball, { interpolation: mode });
  state.interpolation = mode;
});
const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
displaySelect.addEventListener('change', () => {
  const value = displaySelect.value;
  display.rate = value === 'real' ? 'real' : Number(value);
  state.displayRate = display.rate;
});
const followBox = document.getElementById('follow') as HTMLInputElement;
followBox.addEventListener('change', () => {
  follow = followBox.checked;
});
/** A button click is a tap of the key, through the same latch the keyboard feeds. */
function tap(key: string): void {
  input.press(key);
  input.release(key);
}
(document.getElementById('shoot') as HTMLButtonElement).addEventListener('click', () =>
  tap('KeyF'),
);
(document.getElementById('teleport') as HTMLButtonElement).addEventListener('click', () =>
  tap('KeyT'),
);

const displayNote = document.getElementById('display-note') as HTMLParagraphElement;
const statsLine = document.getElementById('stats') as HTMLParagraphElement;
window.addEventListener('resize', () => engine.resize());

engine.runRenderLoop(() => {
  const timestamp = display.next(performance.now());
  if (!Number.isNaN(timestamp)) {
    const start = performance.now();
    loop.frame(timestamp);
    state.frameMs += (performance.now() - start - state.frameMs) * 0.1;
  }
  const rate = display.rate;
  displayNote.textContent =
    rate === 'real'
      ? 'Display: the browser’s own frames (engine.runRenderLoop).'
      : `Simulated ${rate} fps display: each frame the browser draws feeds loop.frame() a timestamp exactly 1/${rate} s after the last. Game speed here: ${display.speed.toFixed(2)}× real time.`;
  statsLine.textContent = `frames ${state.frames} · ticks ${loop.tick} · physics ${loop.tickRate} Hz · ${state.tracked} bodies tracked · ${state.moved} moved · shots ${state.shots} · frame ${state.frameMs.toFixed(1)} ms (render ${state.renderMs.toFixed(1)} ms)`;
  state.ready = true;
});

keysAfterControls();
