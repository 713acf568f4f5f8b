/**
 * A Unity controller ported as it was written: a `MonoBehaviour` whose `FixedUpdate` pushes a
 * rigid body with `Time.deltaTime`, whose `Update` spins a pickup with `Time.deltaTime`, and whose
 * `LateUpdate` follows the body with the camera. `Time` is `new UnityTime(loop)` over a
 * `ThreeFixedLoop` with `presets.unity`; the body is tracked with a `RigidbodyInterpolation` mode.
 *
 * Every browser frame feeds `loop.frame(timestampMs)` a timestamp from a {@link SimulatedDisplay}.
 * What the end-to-end test checks is published on `window.__fixedtick`.
 */

import { presets, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import { MonoBehaviour, RigidbodyInterpolation, UnityTime } from '@fixedtick/three/unity';
import {
  BoxGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  OctahedronGeometry,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { holdButtons, keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';

const SPEED = 7;
const TURN = 1.6;
const JUMP = 6.5;
const GRAVITY = 9.81;
const HALF_SIZE = 0.5;
const CAMERA_OFFSET = new Vector3(0, 4, 9);

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

const body = new Mesh(new BoxGeometry(1, 1, 1), new MeshStandardMaterial({ color: '#7fd1b9' }));
const nose = new Mesh(
  new BoxGeometry(0.3, 0.3, 0.6),
  new MeshStandardMaterial({ color: '#f4f4f4' }),
);
nose.position.set(0, 0, -0.6);
body.add(nose);
body.position.set(0, HALF_SIZE, 0);
scene.add(body);
const pickup = new Mesh(
  new OctahedronGeometry(0.6),
  new MeshStandardMaterial({ color: '#f0a35e' }),
);
pickup.position.set(0, 1.2, -6);
scene.add(pickup);

// ---- the loop and Unity's Time ----------------------------------------------------------------

const loop = new ThreeFixedLoop({ ...presets.unity, renderer, scene, camera });
// Frame time, steps per frame, alpha and dropped time, live; G shows and hides it.
createTimingGraph(loop, {
  container: stage,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});
const Time = new UnityTime(loop);
const display = new SimulatedDisplay('real');

/** Keys held now (read inside FixedUpdate, like Input.GetKey). */
const held = new Set<string>();
let jumpRequested = false;

// ---- measurements (what the e2e test reads) -------------------------------------------------

const state = expose({
  example: 'port-unity',
  ready: false,
  frames: 0,
  displayRate: 'real' as DisplayRate,
  timeScale: 1,
  interpolation: RigidbodyInterpolation.Interpolate as RigidbodyInterpolation,
  fixedUpdates: 0,
  updates: 0,
  lateUpdates: 0,
  /** Every distinct value of `Time.deltaTime` read inside FixedUpdate. */
  fixedDeltaTimes: [] as number[],
  /** FixedUpdates where `Time.time !== Time.fixedTime` (Unity: they are equal there). */
  fixedTimeMismatches: 0,
  /** Frames whose messages did not run FixedUpdate × n → Update → LateUpdate. */
  orderViolations: 0,
  /** Frames where, in Update, not `fixedTime <= time < fixedTime + fixedDeltaTime`. */
  invariantViolations: 0,
  /** `Time.deltaTime` and `Time.unscaledDeltaTime` in the last Update. */
  lastUpdateDelta: 0,
  lastUnscaledDelta: 0,
  /** Body position as drawn (LateUpdate) and as simulated (end of the last FixedUpdate). */
  rendered: [0, 0, 0],
  simulated: [0, 0, 0],
  /** Largest distance between the camera and where LateUpdate put it, over all frames. */
  cameraError: 0,
  /** Steered by the player (keys or the touch pad) in the last FixedUpdate. */
  steered: false,
});

type Phase = 'start' | 'fixed' | 'update' | 'late';
let phase: Phase = 'start';
const expectedCamera = new Vector3();
loop.onFrameStart(() => {
  phase = 'start';
});
loop.onPostRender(() => {
  if (phase !== 'late') state.orderViolations++;
  state.frames++;
  state.cameraError = Math.max(
    state.cameraError,
    camera.position.distanceTo(expectedCamera.copy(body.position).add(CAMERA_OFFSET)),
  );
});

// ---- the ported script -------------------------------------------------------------------------

/** The C# controller, line for line (see docs/porting/unity.md). */
class PlayerController extends MonoBehaviour {
  velocity = new Vector3();
  heading = 0;
  grounded = true;

  override Start(): void {
    loop.track(body, { interpolation: RigidbodyInterpolation.Interpolate });
  }

  override FixedUpdate(): void {
    if (phase !== 'start' && phase !== 'fixed') state.orderViolations++;
    phase = 'fixed';
    state.fixedUpdates++;
    if (!state.fixedDeltaTimes.includes(Time.deltaTime)) state.fixedDeltaTimes.push(Time.deltaTime);
    if (Time.time !== Time.fixedTime) state.fixedTimeMismatches++;

    // Steering: keys if any are held, else drive in circles.
    const left = held.has('ArrowLeft') || held.has('KeyA');
    const right = held.has('ArrowRight') || held.has('KeyD');
    state.steered = left || right;
    const turn = left || right ? (left ? 1 : 0) - (right ? 1 : 0) : 0.45;
    this.heading += turn * TURN * Time.deltaTime;
    const throttle = held.has('ArrowDown') || held.has('KeyS') ? -0.5 : 1;
    this.velocity.x = -Math.sin(this.heading) * SPEED * throttle;
    this.velocity.z = -Math.cos(this.heading) * SPEED * throttle;

    if (this.grounded && (jumpRequested || held.size === 0)) {
      this.velocity.y = JUMP;
      this.grounded = false;
    }
    jumpRequested = false;
    this.velocity.y -= GRAVITY * Time.deltaTime;
    body.position.addScaledVector(this.velocity, Time.deltaTime);
    if (body.position.y <= HALF_SIZE) {
      body.position.y = HALF_SIZE;
      this.velocity.y = 0;
      this.grounded = true;
    }
    body.rotation.y = this.heading;
    // Keep the run inside the grid.
    if (Math.hypot(body.position.x, body.position.z) > 25) {
      body.position.x *= 0.98;
      body.position.z *= 0.98;
    }
    body.position.toArray(state.simulated);
  }

  override Update(): void {
    if (phase !== 'start' && phase !== 'fixed') state.orderViolations++;
    phase = 'update';
    state.updates++;
    state.lastUpdateDelta = Time.deltaTime;
    state.lastUnscaledDelta = Time.unscaledDeltaTime;
    if (!(Time.fixedTime <= Time.time + 1e-9 && Time.time < Time.fixedTime + Time.fixedDeltaTime)) {
      state.invariantViolations++;
    }
    pickup.rotation.y += (Math.PI / 2) * Time.deltaTime;
    pickup.position.y = 1.2 + Math.sin(Time.time * 2) * 0.25;
  }

  override LateUpdate(): void {
    if (phase !== 'update') state.orderViolations++;
    phase = 'late';
    state.lateUpdates++;
    // The body shows its interpolated pose here: the camera follows it without jitter.
    camera.position.copy(body.position).add(CAMERA_OFFSET);
    camera.lookAt(body.position);
    body.position.toArray(state.rendered);
  }
}

Time.register(new PlayerController());

// ---- UI ----------------------------------------------------------------------------------------

window.addEventListener('keydown', (event) => {
  if (event.code === 'Space') {
    event.preventDefault();
    jumpRequested = true;
    return;
  }
  held.add(event.code);
});
window.addEventListener('keyup', (event) => held.delete(event.code));
window.addEventListener('blur', () => held.clear());
// The touch pad: steering buttons hold their key while pressed; Jump is a press of Space.
holdButtons(
  (key) => held.add(key),
  (key) => held.delete(key),
);
document.getElementById('jump')?.addEventListener('click', () => {
  jumpRequested = true;
});

const interpolationSelect = document.getElementById('interpolation') as HTMLSelectElement;
interpolationSelect.addEventListener('change', () => {
  const mode = interpolationSelect.value as RigidbodyInterpolation;
  loop.track(body, { interpolation: mode }); // re-tracking changes the mode
  state.interpolation = mode;
});
const scaleSelect = document.getElementById('time-scale') as HTMLSelectElement;
scaleSelect.addEventListener('change', () => {
  Time.timeScale = Number(scaleSelect.value);
  state.timeScale = Time.timeScale;
});
const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
displaySelect.addEventListener('change', () => {
  const value = displaySelect.value;
  display.rate = value === 'real' ? 'real' : Number(value);
  state.displayRate = display.rate;
});

const rows = document.getElementById('time-rows') as HTMLTableSectionElement;
const members = ['deltaTime', 'time', 'fixedTime', 'unscaledDeltaTime', 'inFixedTimeStep'] as const;
type Member = (typeof members)[number];
const seenInFixed: Record<Member, string> = {
  deltaTime: '–',
  time: '–',
  fixedTime: '–',
  unscaledDeltaTime: '–',
  inFixedTimeStep: '–',
};
const show = (value: number | boolean): string =>
  typeof value === 'boolean' ? String(value) : value.toFixed(4);
loop.onFixedUpdate(() => {
  for (const m of members) seenInFixed[m] = show(Time[m]);
});
const cells = members.map((m) => {
  const row = rows.insertRow();
  row.insertCell().innerHTML = `<code>${m}</code>`;
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
  for (let i = 0; i < members.length; i++) {
    cells[i][0].textContent = seenInFixed[members[i]];
    cells[i][1].textContent = show(Time[members[i]]);
  }
  const rate = display.rate;
  displayNote.textContent =
    rate === 'real'
      ? 'Display: the browser’s own frames and timestamps (requestAnimationFrame).'
      : `Simulated ${rate} fps display: each frame the browser draws feeds loop.frame() a timestamp exactly 1/${rate} s after the last. Game speed here: ${display.speed.toFixed(2)}× real time.`;
  statsLine.textContent = `frames ${state.frames} · FixedUpdate ${state.fixedUpdates} · Update ${state.updates} · LateUpdate ${state.lateUpdates} · Time.frameCount ${Time.frameCount}`;
  state.ready = true;
}
requestAnimationFrame(browserFrame);

keysAfterControls();
