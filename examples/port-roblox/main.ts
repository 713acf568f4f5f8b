/**
 * A Roblox script ported as it was written: `RunService.PreSimulation` moves a platform every
 * frame, `RunService:BindToRenderStep("follow", Enum.RenderPriority.Camera.Value, …)` aims the
 * camera at it just before drawing, a crate bounces in `BindToSimulation` (Hz60) and is drawn
 * interpolated, and a `Hz1` binding counts simulated seconds. `RunService` is
 * `new RobloxRunService(loop)` over a `ThreeFixedLoop` with `presets.roblox`.
 *
 * Every browser frame feeds `loop.frame(timestampMs)` a timestamp from a {@link SimulatedDisplay}.
 * What the end-to-end test checks is published on `window.__fixedtick`.
 */

import { presets, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import { Enum, RunService as RobloxRunService } from '@fixedtick/three/roblox';
import {
  BoxGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';

const CAMERA_OFFSET = new Vector3(0, 6, 14);
const GRAVITY = 30;
const BOUNCE = 12;

// ---- scene ---------------------------------------------------------------------------------

const canvas = document.getElementById('view') as HTMLCanvasElement;
const stage = document.getElementById('stage') as HTMLDivElement;
const renderer = new WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
const scene = new Scene();
scene.background = new Color('#141a26');
scene.add(new HemisphereLight('#cfd8ff', '#30303a', 1.6));
const sun = new DirectionalLight('#ffffff', 2);
sun.position.set(6, 12, 8);
scene.add(sun);
scene.add(new GridHelper(60, 60, '#56607a', '#2a3245'));
const camera = new PerspectiveCamera(55, 1, 0.1, 200);
camera.position.copy(CAMERA_OFFSET);
camera.lookAt(0, 0, 0);

const platform = new Mesh(
  new BoxGeometry(4, 0.4, 4),
  new MeshStandardMaterial({ color: '#6fa8ff' }),
);
platform.name = 'Platform';
platform.position.set(0, 2, 0);
scene.add(platform);
const crate = new Mesh(new BoxGeometry(1, 1, 1), new MeshStandardMaterial({ color: '#f0a35e' }));
crate.position.set(-3, 0.5, -5);
scene.add(crate);

// ---- the loop and RunService ------------------------------------------------------------------

const loop = new ThreeFixedLoop({ ...presets.roblox, renderer, scene, camera });
// Frame time, steps per frame, alpha and dropped time, live; G shows and hides it.
createTimingGraph(loop, {
  container: stage,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});
const RunService = new RobloxRunService(loop);
const display = new SimulatedDisplay('real');
loop.track(crate); // interpolated between the 60 Hz steps

// ---- measurements (what the e2e test reads) -------------------------------------------------

const EVENTS = [
  'PreAnimation',
  'PreSimulation',
  'PostSimulation',
  'Heartbeat',
  'follow',
  'last',
  'PreRender',
] as const;
type EventName = (typeof EVENTS)[number];

const state = expose({
  example: 'port-roblox',
  ready: false,
  frames: 0,
  ticks: 0,
  displayRate: 'real' as DisplayRate,
  follow: true,
  /** Events of the last frame, in the order they fired. */
  lastOrder: [] as string[],
  /** Frames whose events did not fire in the expected order. */
  orderViolations: 0,
  /** Largest distance, seen by the `Last` binding, between the camera and where `follow` put it. */
  cameraError: 0,
  /** Sum of PreSimulation deltas, and the loop's game time: they match. */
  preSimulationTime: 0,
  loopTime: 0,
  hz30Calls: 0,
  hz30Deltas: [] as number[],
  hz1Calls: 0,
  hz1Deltas: [] as number[],
  fixedTime: 0,
  /** Platform position when drawn. */
  platform: [0, 0, 0],
});

const deltas: Record<EventName, number> = {
  PreAnimation: 0,
  PreSimulation: 0,
  PostSimulation: 0,
  Heartbeat: 0,
  follow: 0,
  last: 0,
  PreRender: 0,
};
const order: string[] = [];
const seen = (name: EventName, dt: number): void => {
  order.push(name);
  deltas[name] = dt;
};
const expectedCamera = new Vector3();
const distinct = (list: number[], value: number): void => {
  if (!list.includes(value)) list.push(value);
};

// ---- the ported script -------------------------------------------------------------------------

let t = 0;
RunService.PreAnimation.Connect((dt) => {
  order.length = 0;
  seen('PreAnimation', dt);
});

RunService.PreSimulation.Connect((dt) => {
  seen('PreSimulation', dt);
  state.preSimulationTime += dt;
  t += dt;
  platform.position.set(Math.sin(t * 0.8) * 8, 2 + Math.sin(t * 1.6) * 0.6, 0);
});

let vy = 0;
RunService.BindToSimulation((dt) => {
  // Inside the fixed step: the crate holds its simulation pose.
  vy -= GRAVITY * dt;
  crate.position.y += vy * dt;
  if (crate.position.y <= 0.5) {
    crate.position.y = 0.5;
    vy = BOUNCE;
  }
}, Enum.StepFrequency.Hz60);

RunService.BindToSimulation((dt) => {
  state.hz30Calls++;
  distinct(state.hz30Deltas, dt);
}, Enum.StepFrequency.Hz30);

RunService.BindToSimulation((dt) => {
  state.hz1Calls++;
  distinct(state.hz1Deltas, dt);
}, Enum.StepFrequency.Hz1);

RunService.PostSimulation.Connect((dt) => seen('PostSimulation', dt));
RunService.Heartbeat.Connect((dt) => seen('Heartbeat', dt));

function follow(dt: number): void {
  seen('follow', dt);
  camera.position.copy(platform.position).add(CAMERA_OFFSET);
  camera.lookAt(platform.position);
}
RunService.BindToRenderStep('follow', Enum.RenderPriority.Camera.Value, follow);

RunService.BindToRenderStep('last', Enum.RenderPriority.Last.Value, (dt) => {
  seen('last', dt);
  if (state.follow) {
    expectedCamera.copy(platform.position).add(CAMERA_OFFSET);
    state.cameraError = Math.max(state.cameraError, camera.position.distanceTo(expectedCamera));
  }
});

RunService.PreRender.Connect((dt) => {
  seen('PreRender', dt);
  const expected = state.follow ? EVENTS : EVENTS.filter((name) => name !== 'follow');
  if (order.length !== expected.length || order.some((name, i) => name !== expected[i])) {
    state.orderViolations++;
  }
  state.lastOrder = order.slice();
  platform.position.toArray(state.platform);
});

loop.onPostRender(() => {
  state.frames++;
  state.ticks = loop.tick;
  state.loopTime = loop.time;
  state.fixedTime = loop.fixedTime;
});

// ---- UI ----------------------------------------------------------------------------------------

const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
displaySelect.addEventListener('change', () => {
  const value = displaySelect.value;
  display.rate = value === 'real' ? 'real' : Number(value);
  state.displayRate = display.rate;
});
const followBox = document.getElementById('follow') as HTMLInputElement;
followBox.addEventListener('change', () => {
  state.follow = followBox.checked;
  if (followBox.checked) {
    RunService.BindToRenderStep('follow', Enum.RenderPriority.Camera.Value, follow);
  } else {
    RunService.UnbindFromRenderStep('follow');
  }
});

const rows = document.getElementById('event-rows') as HTMLTableSectionElement;
const cells = EVENTS.map((name) => {
  const row = rows.insertRow();
  row.insertCell().innerHTML =
    name === 'follow'
      ? '<code>BindToRenderStep "follow" (200)</code>'
      : name === 'last'
        ? '<code>BindToRenderStep "last" (2000)</code>'
        : `<code>${name}</code>`;
  return [row.insertCell(), row.insertCell()];
});
const displayNote = document.getElementById('display-note') as HTMLParagraphElement;
const statsLine = document.getElementById('stats') as HTMLParagraphElement;

function resize(): void {
  const width = stage.clientWidth;
  const height = stage.clientHeight;
  const ratio = renderer.getPixelRatio();
  if (canvas.width !== Math.floor(width * ratio) || canvas.height !== Math.floor(height * ratio)) {
    renderer.setSize(width, height, false);
    camera.aspect = width / Math.max(height, 1);
    camera.updateProjectionMatrix();
  }
}

function browserFrame(realMs: number): void {
  requestAnimationFrame(browserFrame);
  resize();
  const timestamp = display.next(realMs);
  if (!Number.isNaN(timestamp)) loop.frame(timestamp);
  for (let i = 0; i < EVENTS.length; i++) {
    const at = state.lastOrder.indexOf(EVENTS[i]);
    cells[i][0].textContent = at < 0 ? '–' : String(at + 1);
    cells[i][1].textContent = at < 0 ? '–' : deltas[EVENTS[i]].toFixed(4);
  }
  const rate = display.rate;
  displayNote.textContent =
    rate === 'real'
      ? 'Display: the browser’s own frames and timestamps (requestAnimationFrame).'
      : `Simulated ${rate} fps display: each frame the browser draws feeds loop.frame() a timestamp exactly 1/${rate} s after the last. Game speed here: ${display.speed.toFixed(2)}× real time.`;
  statsLine.textContent = `frames ${state.frames} · 60 Hz ticks ${loop.tick} · Hz30 calls ${state.hz30Calls} · simulated seconds (Hz1) ${state.hz1Calls}`;
  state.ready = true;
}
requestAnimationFrame(browserFrame);

keysAfterControls();
