/**
 * The 96 px ledge: one jump, three integrations, any display rate.
 *
 * - per frame: `vy -= 0.5; y += vy` with constants tuned for 60 fps (a naive game);
 * - dt: `vy -= g * dt; y += vy * dt` with the frame's delta;
 * - fixed: the same semi-implicit Euler in `onFixedUpdate` at the physics rate, rendered with
 *   interpolation.
 *
 * Every browser frame runs `loop.frame(timestampMs)` with a timestamp from a
 * {@link SimulatedDisplay}, so the three runners see exactly the frame times of a 30, 60 or 144 Hz
 * display. Space goes through an `InputLatch`: the fixed runner reads `pressed('Space')` inside
 * `fixedUpdate` (exactly one tick per press), the per-frame runners `pressedThisFrame('Space')`.
 * Measurements are published on `window.__fixedtick` for the end-to-end test.
 */

import { InputLatch, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import {
  BoxGeometry,
  Color,
  Mesh,
  MeshBasicMaterial,
  OrthographicCamera,
  Scene,
  WebGLRenderer,
} from 'three';
import { keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import {
  AUTO_JUMP_PAUSE_MS,
  BOX,
  createRunners,
  displayNote,
  fitView,
  inLaneOrder,
  LANE_X,
  LEDGE,
  resetRunners as resetRunnerState,
  shownPeak,
  stepFixed,
  stepPerFrame,
} from '../shared/ledge-jump.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';

const runners = createRunners();
const order = inLaneOrder(runners);

// ---- scene --------------------------------------------------------------------------------

const canvas = document.getElementById('view') as HTMLCanvasElement;
const stage = document.getElementById('stage') as HTMLDivElement;
const renderer = new WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
const scene = new Scene();
scene.background = new Color('#141a26');
const camera = new OrthographicCamera(-400, 400, 170, -50, -10, 10);

const box = new BoxGeometry(1, 1, 1);
function block(color: string, w: number, h: number, x: number, y: number): Mesh {
  const mesh = new Mesh(box, new MeshBasicMaterial({ color }));
  mesh.scale.set(w, h, 1);
  mesh.position.set(x, y, 0);
  scene.add(mesh);
  return mesh;
}
block('#3a4358', 760, 8, 0, -4); // ground
const meshes = order.map((r, i) => {
  const lane = LANE_X[i];
  block('#556079', 70, LEDGE, lane + 70, LEDGE / 2); // the ledge
  block('#e05d5d', 70, 2, lane + 70, LEDGE + 1); // its edge, 96 px up
  const peakLine = block(r.color, 76, 1.5, lane - 3, 0);
  peakLine.visible = false;
  const body = block(r.color, BOX, BOX, lane, BOX / 2);
  return { body, peakLine };
});
const fixedMesh = meshes[2].body;

// ---- the loop ---------------------------------------------------------------------------------

// The loop draws each frame after preRender; the fixed runner's mesh is interpolated.
const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
loop.track(fixedMesh);
const input = new InputLatch(loop);
input.bindKeyboard(window, { preventDefault: ['Space'] });
const display = new SimulatedDisplay(60);
// Frame time, steps per frame, alpha and dropped time, live; G shows and hides it.
createTimingGraph(loop, {
  container: document.getElementById('stage') as HTMLElement,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});

loop.onFixedUpdate((dt) => {
  const r = runners.fixed;
  stepFixed(r, input.pressed('Space'), dt);
  // Inside the step the tracked mesh holds its simulation pose: write it like game code does.
  fixedMesh.position.y = r.y + BOX / 2;
});

loop.onUpdate((delta) => {
  stepPerFrame(runners, input.pressedThisFrame('Space'), delta);
});

loop.onPreRender(() => {
  // The per-frame runners are drawn where they are; the adapter has already placed the fixed
  // runner's mesh at its interpolated pose.
  meshes[0].body.position.y = runners.perFrame.y + BOX / 2;
  meshes[1].body.position.y = runners.dt.y + BOX / 2;
  for (let i = 0; i < order.length; i++) {
    const r = order[i];
    const line = meshes[i].peakLine;
    const shown = shownPeak(r);
    line.visible = shown !== null && shown > 0;
    line.position.y = shown ?? 0;
  }
});

// ---- UI and measurements ------------------------------------------------------------------------

const state = expose({
  example: 'three-jump',
  ready: false,
  displayRate: 60 as DisplayRate,
  physicsRate: 60,
  /** Frames rendered (loop frames, each one drawn). */
  frames: 0,
  /** Fixed steps run. */
  ticks: 0,
  runners,
  /** Peak of each runner's last completed jump, px. */
  peaks: {
    perFrame: null as number | null,
    dt: null as number | null,
    fixed: null as number | null,
  },
});

/** The button and the automatic jump tap Space through the same latch the keyboard feeds. */
function requestJump(): void {
  input.press('Space');
  input.release('Space');
}

function resetRunners(): void {
  resetRunnerState(runners);
  fixedMesh.position.y = BOX / 2; // outside the step: a teleport, shown with no streak
}

const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
const physicsSelect = document.getElementById('physics-rate') as HTMLSelectElement;
const autoJump = document.getElementById('auto-jump') as HTMLInputElement;
displaySelect.addEventListener('change', () => {
  const value = displaySelect.value;
  display.rate = value === 'real' ? 'real' : Number(value);
  state.displayRate = display.rate;
  resetRunners();
});
physicsSelect.addEventListener('change', () => {
  loop.tickRate = Number(physicsSelect.value);
  state.physicsRate = loop.tickRate;
  resetRunners();
});
const jumpButton = document.getElementById('jump') as HTMLButtonElement;
jumpButton.addEventListener('click', () => {
  requestJump();
  jumpButton.blur(); // so a later Space is a key press, not a second click
});

const rows = document.getElementById('runner-rows') as HTMLTableSectionElement;
const cells = order.map((r) => {
  const row = rows.insertRow();
  const name = row.insertCell();
  name.innerHTML = `<span class="swatch" style="background:${r.color}"></span>${r.label}`;
  return [row.insertCell(), row.insertCell(), row.insertCell()];
});
const displayLine = document.getElementById('display-note') as HTMLParagraphElement;
const statsLine = document.getElementById('stats') as HTMLParagraphElement;
const labels = document.getElementById('lane-labels') as HTMLDivElement;
for (const r of order) {
  const span = document.createElement('span');
  span.textContent = r.label;
  span.style.color = r.color;
  labels.append(span);
}

function fitCamera(): void {
  const width = stage.clientWidth;
  const height = stage.clientHeight;
  if (canvas.width === Math.floor(width * renderer.getPixelRatio()) && width > 0) {
    if (canvas.height === Math.floor(height * renderer.getPixelRatio())) return;
  }
  renderer.setSize(width, height, false);
  fitView(camera, labels, width, height);
}

function showNumbers(): void {
  for (let i = 0; i < order.length; i++) {
    const r = order[i];
    const peak = shownPeak(r);
    cells[i][0].textContent = peak === null ? '–' : peak.toFixed(1);
    cells[i][1].textContent = r.lastAirtime === null ? '–' : r.lastAirtime.toFixed(3);
    cells[i][2].textContent = String(r.jumps);
  }
  displayLine.textContent = displayNote(
    display.rate,
    display.speed,
    'Display: the browser’s own frames and timestamps (requestAnimationFrame).',
  );
  statsLine.textContent = `frames ${state.frames} · ticks ${loop.tick} · physics ${loop.tickRate} Hz`;
}

let idleSinceMs = Number.NaN;
function browserFrame(realMs: number): void {
  requestAnimationFrame(browserFrame);
  fitCamera();
  const timestamp = display.next(realMs);
  if (!Number.isNaN(timestamp)) {
    loop.frame(timestamp);
    state.frames++;
    state.ticks = loop.tick;
    state.peaks.perFrame = runners.perFrame.lastPeak;
    state.peaks.dt = runners.dt.lastPeak;
    state.peaks.fixed = runners.fixed.lastPeak;
  }
  const resting = order.every((r) => !r.airborne);
  if (!resting || !autoJump.checked) idleSinceMs = Number.NaN;
  else if (Number.isNaN(idleSinceMs)) idleSinceMs = realMs;
  else if (realMs - idleSinceMs > AUTO_JUMP_PAUSE_MS) {
    requestJump();
    idleSinceMs = Number.NaN;
  }
  showNumbers();
  state.ready = true;
}
requestAnimationFrame(browserFrame);

keysAfterControls();
