/**
 * Interpolation modes side by side: three identical bodies bounce and spin under 10 Hz physics,
 * tracked by a `ThreeFixedLoop` with `'none'`, `'interpolate'` and `'extrapolate'`. Each view
 * follows its body with a camera placed in `preRender` — after the interpolation pass, so the
 * camera follows the rendered pose and does not jitter. A teleport writes the pose outside the
 * fixed step; the adapter adopts it as the new simulation pose in the same frame.
 */
import { type InterpolationMode, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import {
  BoxGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';

const MODES: readonly InterpolationMode[] = ['none', 'interpolate', 'extrapolate'];
const COLORS = ['#f0a35e', '#7fd1b9', '#6fa8ff'];
const LANE_X = [-12, 0, 12];
/** Half size of each lane's floor: bodies bounce off its walls. */
const HALF = 3.5;
const SPEED = 11;
const SPIN = 7;
const FOLLOW_OFFSET = new Vector3(0, 4.5, 6.5);
const OVERVIEW_OFFSET = new Vector3(0, 9, 9.5);

// ---- scene ---------------------------------------------------------------------------------

const canvas = document.getElementById('view') as HTMLCanvasElement;
const stage = document.getElementById('stage') as HTMLDivElement;
const renderer = new WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
renderer.setScissorTest(true);
const scene = new Scene();
scene.background = new Color('#141a26');
scene.add(new HemisphereLight('#cfd8ff', '#30303a', 1.6));
const sun = new DirectionalLight('#ffffff', 2);
sun.position.set(5, 10, 7);
scene.add(sun);

const wallGeometry = new BoxGeometry(1, 1, 1);
const wallMaterial = new MeshStandardMaterial({ color: '#3a4358' });
function wall(x: number, z: number, w: number, d: number): void {
  const mesh = new Mesh(wallGeometry, wallMaterial);
  mesh.scale.set(w, 0.6, d);
  mesh.position.set(x, 0.3, z);
  scene.add(mesh);
}

const bodyGeometry = new BoxGeometry(1.2, 1.2, 1.2);
const noseGeometry = new BoxGeometry(0.35, 0.35, 0.9);
const bodies = LANE_X.map((laneX, i) => {
  const grid = new GridHelper(HALF * 2, 14, '#56607a', '#2a3245');
  grid.position.set(laneX, 0, 0);
  scene.add(grid);
  wall(laneX - HALF - 0.15, 0, 0.3, HALF * 2 + 0.6);
  wall(laneX + HALF + 0.15, 0, 0.3, HALF * 2 + 0.6);
  wall(laneX, -HALF - 0.15, HALF * 2, 0.3);
  wall(laneX, HALF + 0.15, HALF * 2, 0.3);

  const mesh = new Mesh(bodyGeometry, new MeshStandardMaterial({ color: COLORS[i] }));
  const nose = new Mesh(noseGeometry, new MeshStandardMaterial({ color: '#f4f4f4' }));
  nose.position.set(0, 0, 0.75);
  mesh.add(nose); // an untracked child rides on its tracked parent's rendered pose
  mesh.position.set(laneX - 1.5, 0.8, -1);
  scene.add(mesh);

  const ghost = new Mesh(
    bodyGeometry,
    new MeshBasicMaterial({ color: COLORS[i], wireframe: true, transparent: true, opacity: 0.55 }),
  );
  scene.add(ghost);

  const camera = new PerspectiveCamera(55, 1, 0.1, 200);
  return {
    mode: MODES[i],
    laneX,
    mesh,
    ghost,
    camera,
    velocity: new Vector3(SPEED * 0.8, 0, SPEED * 0.6),
    axis: new Vector3(0.3, 1, 0.5).normalize(),
    /** Simulation pose after the last step (copied inside the step, where the mesh holds it). */
    simPosition: new Vector3().copy(mesh.position),
    simQuaternion: new Quaternion(),
  };
});

// ---- the loop ---------------------------------------------------------------------------------

const loop = new ThreeFixedLoop({ tickRate: 10 });
// Frame time, steps per frame, alpha and dropped time, live; G shows and hides it.
createTimingGraph(loop, {
  container: stage,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});
for (const body of bodies) loop.track(body.mesh, { interpolation: body.mode });
const display = new SimulatedDisplay('real');
const spin = new Quaternion();

loop.onFixedUpdate((dt) => {
  for (const body of bodies) {
    const { mesh, velocity } = body;
    // Inside the step the mesh holds its simulation pose: move it like any physics code would.
    mesh.position.addScaledVector(velocity, dt);
    const dx = mesh.position.x - body.laneX;
    const limit = HALF - 0.6;
    if (Math.abs(dx) > limit) {
      velocity.x = -velocity.x;
      mesh.position.x = body.laneX + Math.sign(dx) * (2 * limit - Math.abs(dx));
    }
    if (Math.abs(mesh.position.z) > limit) {
      velocity.z = -velocity.z;
      mesh.position.z = Math.sign(mesh.position.z) * (2 * limit - Math.abs(mesh.position.z));
    }
    spin.setFromAxisAngle(body.axis, SPIN * dt);
    mesh.quaternion.premultiply(spin);
  }
});

loop.onPostSimulation(() => {
  for (const body of bodies) {
    body.simPosition.copy(body.mesh.position);
    body.simQuaternion.copy(body.mesh.quaternion);
  }
});

let follow = true;
let ghosts = true;
loop.onPreRender(() => {
  for (const body of bodies) {
    // preRender runs after the interpolation pass: the mesh shows its rendered pose here.
    const target = follow ? body.mesh.position : body.camera.userData.center;
    body.camera.position.copy(target).add(follow ? FOLLOW_OFFSET : OVERVIEW_OFFSET);
    body.camera.lookAt(target);
    body.ghost.visible = ghosts;
    body.ghost.position.copy(body.simPosition);
    body.ghost.quaternion.copy(body.simQuaternion);
  }
});
for (const body of bodies) body.camera.userData.center = new Vector3(body.laneX, 0, 0);

// Three views side by side, drawn after every hook has placed its objects.
loop.onPreRender(
  () => {
    const width = stage.clientWidth;
    const height = stage.clientHeight;
    const third = Math.floor(width / 3);
    for (let i = 0; i < bodies.length; i++) {
      const camera = bodies[i].camera;
      const x = i * third;
      const w = i === bodies.length - 1 ? width - x : third - 2;
      camera.aspect = w / height;
      camera.updateProjectionMatrix();
      renderer.setViewport(x, 0, w, height);
      renderer.setScissor(x, 0, w, height);
      renderer.render(scene, camera);
    }
  },
  { priority: 1000 },
);

// ---- teleports and measurements ----------------------------------------------------------------

const state = expose({
  example: 'three-interpolation',
  ready: false,
  modes: MODES,
  frames: 0,
  ticks: 0,
  physicsRate: 10,
  displayRate: 'real' as DisplayRate,
  /** Rendered and simulated positions of each body after the last frame. */
  rendered: bodies.map(() => [0, 0, 0]),
  simulated: bodies.map(() => [0, 0, 0]),
  teleport: {
    count: 0,
    /** Where the last teleport put each body. */
    targets: bodies.map(() => [0, 0, 0]),
    /** How far each body was drawn from its target in the first frame after the teleport. */
    firstFrameOffset: bodies.map(() => Number.NaN),
    /** How far each body jumped on screen in that frame (the teleport distance). */
    jump: bodies.map(() => Number.NaN),
    /** Fixed steps that frame ran after taking the teleport (0: it must show the target exactly). */
    steps: 0,
    /** The physics step then, s. */
    fixedDelta: 0.1,
    measured: false,
  },
});

const lastRendered = bodies.map(() => new Vector3());
let teleportPending = false;

function teleport(): void {
  const t = state.teleport;
  const angle = (t.count * 2.39996) % (Math.PI * 2);
  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i];
    // A write outside the fixed step: the adapter takes it as a teleport in the next frame.
    const x = body.laneX + Math.cos(angle) * 2.2;
    const z = Math.sin(angle) * 2.2;
    body.mesh.position.set(x, 0.8, z);
    t.targets[i] = [x, 0.8, z];
  }
  t.count++;
  t.measured = false;
  teleportPending = true;
}

loop.onPostRender(() => {
  state.frames++;
  state.ticks = loop.tick;
  for (let i = 0; i < bodies.length; i++) {
    const { mesh, simPosition } = bodies[i];
    const r = state.rendered[i];
    r[0] = mesh.position.x;
    r[1] = mesh.position.y;
    r[2] = mesh.position.z;
    const s = state.simulated[i];
    s[0] = simPosition.x;
    s[1] = simPosition.y;
    s[2] = simPosition.z;
    if (teleportPending) {
      const [tx, ty, tz] = state.teleport.targets[i];
      state.teleport.firstFrameOffset[i] = Math.hypot(r[0] - tx, r[1] - ty, r[2] - tz);
      state.teleport.jump[i] = lastRendered[i].distanceTo(mesh.position);
    }
    lastRendered[i].copy(mesh.position);
  }
  if (teleportPending) {
    teleportPending = false;
    state.teleport.steps = loop.stats.lastSteps;
    state.teleport.fixedDelta = loop.fixedDelta;
    state.teleport.measured = true;
  }
});

// ---- UI ----------------------------------------------------------------------------------------

const physicsSelect = document.getElementById('physics-rate') as HTMLSelectElement;
const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
physicsSelect.addEventListener('change', () => {
  loop.tickRate = Number(physicsSelect.value);
  state.physicsRate = loop.tickRate;
});
displaySelect.addEventListener('change', () => {
  const value = displaySelect.value;
  display.rate = value === 'real' ? 'real' : Number(value);
  state.displayRate = display.rate;
});
const followBox = document.getElementById('follow') as HTMLInputElement;
followBox.addEventListener('change', () => {
  follow = followBox.checked;
});
const ghostBox = document.getElementById('ghosts') as HTMLInputElement;
ghostBox.addEventListener('change', () => {
  ghosts = ghostBox.checked;
});
(document.getElementById('teleport') as HTMLButtonElement).addEventListener('click', teleport);
window.addEventListener('keydown', (event) => {
  if (event.code === 'KeyT' && !event.repeat) teleport();
});

const labels = document.getElementById('view-labels') as HTMLDivElement;
for (let i = 0; i < MODES.length; i++) {
  const span = document.createElement('span');
  span.textContent = `'${MODES[i]}'`;
  span.style.color = COLORS[i];
  labels.append(span);
}
const displayNote = document.getElementById('display-note') as HTMLParagraphElement;
const statsLine = document.getElementById('stats') as HTMLParagraphElement;

function resize(): void {
  const width = stage.clientWidth;
  const height = stage.clientHeight;
  const ratio = renderer.getPixelRatio();
  if (canvas.width !== Math.floor(width * ratio) || canvas.height !== Math.floor(height * ratio)) {
    renderer.setSize(width, height, false);
  }
}

function browserFrame(realMs: number): void {
  requestAnimationFrame(browserFrame);
  resize();
  const timestamp = display.next(realMs);
  if (!Number.isNaN(timestamp)) loop.frame(timestamp);
  const rate = display.rate;
  displayNote.textContent =
    rate === 'real'
      ? 'Display: the browser’s own frames and timestamps (requestAnimationFrame).'
      : `Simulated ${rate} fps display: each frame the browser draws feeds loop.frame() a timestamp exactly 1/${rate} s after the last. Game speed here: ${display.speed.toFixed(2)}× real time.`;
  statsLine.textContent = `frames ${state.frames} · ticks ${loop.tick} · physics ${loop.tickRate} Hz · alpha ${loop.alpha.toFixed(2)}`;
  state.ready = true;
}
requestAnimationFrame(browserFrame);

keysAfterControls();
