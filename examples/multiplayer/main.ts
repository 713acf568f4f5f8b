/**
 * The multiplayer example's client: three.js, `@fixedtick/three`, and colyseus.js against the
 * arena room (server.ts) on the page's own server. Your box is predicted with the server's own
 * step (arena.ts) on your latched input and corrected smoothly when the server's state for a tick
 * arrives; the other players and the crates are drawn from the tick-stamped snapshots through
 * the pose store (`RemoteEntities`) at the `TickClock`'s render tick. A simulated display rate
 * feeds the loop 144 (or 60) timestamps a second in real time, and a simulated link delays and
 * retransmits messages as TCP would (link.ts). `?server=ws://host:port` connects elsewhere (the
 * end-to-end test's proxy).
 */
import { InputLatch, ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import { Prediction, RemoteEntities, TickClock } from '@fixedtick/three/net';
import { Client, type Room } from 'colyseus.js';
import {
  BoxGeometry,
  Color,
  DirectionalLight,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  type Object3D,
  PerspectiveCamera,
  Scene,
  WebGLRenderer,
} from 'three';
import { holdButtons, keysAfterControls } from '../shared/controls.ts';
import { expose } from '../shared/expose.ts';
import { HALF, headingYaw, type PlayerState, poseRow, stepPlayer, TICK_RATE } from './arena.ts';
import { OtherPlayerCheck, PredictionCheck } from './checks.ts';
import { DIRECT, LinkDirection, type LinkSettings } from './link.ts';
import { NetGraph } from './net-graph.ts';

/** The decoded room state (colyseus.js builds it from the server's schema). */
interface MapLike<T> {
  get(key: string): T | undefined;
  forEach(callback: (value: T, key: string) => void): void;
}
interface ArenaView {
  tick: number;
  players: MapLike<{ x: number; z: number; hx: number; hz: number; color: number }>;
  crates: MapLike<{ x: number; z: number; yaw: number }>;
}

const COLORS = ['#f2c14e', '#5bc0eb', '#e55934', '#9bc53d'];
const LINKS: Record<string, LinkSettings> = {
  direct: DIRECT,
  wan: { latencyMs: 80, jitterMs: 20, loss: 0.02 },
  bad: { latencyMs: 150, jitterMs: 50, loss: 0.05 },
};

// ---- scene ---------------------------------------------------------------------------------

const canvas = document.getElementById('view') as HTMLCanvasElement;
const stage = document.getElementById('stage') as HTMLDivElement;
const renderer = new WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
const scene = new Scene();
scene.background = new Color('#141a26');
const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 100);
camera.position.set(0, 17, 13);
camera.lookAt(0, 0, 1);
scene.add(new HemisphereLight('#dfe8ff', '#2a2f3a', 1.6));
const sun = new DirectionalLight('#ffffff', 1.8);
sun.position.set(4, 10, 6);
scene.add(sun);
const unit = new BoxGeometry(1, 1, 1);
const material = (color: string) => new MeshStandardMaterial({ color });
function box(color: string, w: number, h: number, d: number, x = 0, y = 0, z = 0): Mesh {
  const mesh = new Mesh(unit, material(color));
  mesh.scale.set(w, h, d);
  mesh.position.set(x, y, z);
  scene.add(mesh);
  return mesh;
}
box('#2b3346', 2 * HALF, 0.2, 2 * HALF, 0, -0.1, 0); // the floor
for (const side of [-1, 1]) {
  box('#556079', 2 * HALF + 0.6, 0.6, 0.3, 0, 0.3, side * (HALF + 0.15));
  box('#556079', 0.3, 0.6, 2 * HALF, side * (HALF + 0.15), 0.3, 0);
}
/** A player's box, with a nose showing its heading. */
function playerMesh(color: string): Mesh {
  const body = new Mesh(unit, material(color));
  body.scale.set(0.9, 0.9, 0.9);
  const nose = new Mesh(unit, material('#11151f'));
  nose.scale.set(0.3, 0.3, 0.3);
  nose.position.set(0, 0.15, 0.5);
  body.add(nose);
  scene.add(body);
  return body;
}

// ---- the loop, the clock, the remote entities, the prediction ----------------------------------

const params = new URLSearchParams(location.search);
// A networked client must keep up with the server's time: a stall of up to a second is caught
// up (its steps run), not dropped or slowed down as a single-player game would.
const loop = new ThreeFixedLoop({ tickRate: TICK_RATE, maxDeltaTime: 1, maxStepsPerFrame: 60 });
const latch = new InputLatch(loop);
const arrows = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'];
latch.bindKeyboard(window, { preventDefault: arrows });
holdButtons(
  (key) => latch.press(key),
  (key) => latch.release(key),
);
createTimingGraph(loop, {
  container: stage,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});
const netGraph = new NetGraph(document.getElementById('net-graph') as HTMLCanvasElement);

const clock = new TickClock({ tickRate: TICK_RATE });
const meshes = new Map<string, Object3D>();
const remotes = new RemoteEntities<Object3D>(loop.tracker, {
  clock,
  // a second of snapshots: the render delay of a lossy link, and the frames that catch up
  // after the tab stalled, still fall among them
  history: 64,
  spawn: (id, row) => {
    const key = String(id);
    const mesh = key.startsWith('crate:')
      ? box('#b07a45', 1, 1, 1)
      : playerMesh(COLORS[colorOf.get(key) ?? 0]);
    mesh.position.set(row[0], row[1], row[2]);
    mesh.quaternion.set(row[3], row[4], row[5], row[6]);
    meshes.set(key, mesh);
    return mesh;
  },
  despawn: (id, mesh) => {
    loop.untrack(mesh as Object3D);
    scene.remove(mesh as Object3D);
    meshes.delete(String(id));
  },
});
const colorOf = new Map<string, number>();

const me: PlayerState = { x: 0, z: 0, hx: 0, hz: 1 };
/** What the client predicted for each tick not acknowledged yet (a replay overwrites it). */
const predicted = new Map<number, PlayerState>();
const prediction = new Prediction<PlayerState>(
  {
    step(input, dt, tick) {
      stepPlayer(me, input, dt);
      predicted.set(tick, { ...me });
    },
    restore: (state) => Object.assign(me, state),
    position(out) {
      out[0] = me.x;
      out[1] = 0;
      out[2] = me.z;
    },
  },
  { tickRate: TICK_RATE, correctionTime: 0.1, snapDistance: 3 },
);
prediction.connect(latch);
let myMesh: Mesh | undefined;
/** The predicted player after the previous and the last step: drawn between them at alpha. */
const previousPose = { x: 0, z: 0, yaw: 0 };
const currentPose = { x: 0, z: 0, yaw: 0 };
const keepPose = (pose: typeof currentPose) => {
  pose.x = me.x;
  pose.z = me.z;
  pose.yaw = headingYaw(me.hx, me.hz);
};

const link = { up: new LinkDirection(DIRECT), down: new LinkDirection(DIRECT) };
let room: Room<ArenaView> | undefined;
let predicting = false;
let lastCorrection = 0;
const otherCheck = new OtherPlayerCheck(TICK_RATE);
const predictionCheck = new PredictionCheck();

loop.onFixedUpdate(() => {
  if (room === undefined || !predicting) return;
  Object.assign(previousPose, currentPose);
  room.send('ft:input', prediction.step());
  keepPose(currentPose);
});

/** One stamped state from the server: the clock, the remote entities, the reconciliation. */
function onState(state: ArenaView, sessionId: string): void {
  if (state.tick < 0) return;
  clock.observe(state.tick, performance.now());
  const ids: string[] = [];
  const rows: number[] = [];
  state.crates.forEach((c, id) => {
    ids.push(`crate:${id}`);
    poseRow(rows, rows.length, c.x, 0.5, c.z, c.yaw);
  });
  const present = new Set(ids);
  state.players.forEach((p, id) => {
    if (id === sessionId) return;
    const key = `player:${id}`;
    colorOf.set(key, p.color);
    ids.push(key);
    present.add(key);
    poseRow(rows, rows.length, p.x, 0.45, p.z, headingYaw(p.hx, p.hz));
    otherCheck.snapshot(key, state.tick, p.x, p.z);
  });
  remotes.push(state.tick, ids, rows);
  for (const id of remotes.ids) if (!present.has(String(id))) remotes.remove(id);
  const mine = state.players.get(sessionId);
  if (mine === undefined) return;
  const server: PlayerState = { x: mine.x, z: mine.z, hx: mine.hx, hz: mine.hz };
  if (myMesh === undefined) myMesh = playerMesh(COLORS[mine.color]);
  const guess = predicted.get(state.tick);
  if (predicting && guess !== undefined) predictionCheck.compare(state.tick, guess, server);
  const before = prediction.stats.corrections;
  prediction.reconcile(state.tick, server);
  if (prediction.stats.corrections > before) lastCorrection = prediction.stats.lastError;
  for (const tick of predicted.keys()) if (tick <= state.tick) predicted.delete(tick);
  keepPose(currentPose);
  if (!predicting) Object.assign(previousPose, currentPose);
  predicting = true;
}

/** Sends through the simulated link: the bytes leave now, arrive when the link says, in order. */
function throughLink(joined: Room<ArenaView>): void {
  const transport = (joined.connection as unknown as { transport: LinkedTransport }).transport;
  const send = transport.send.bind(transport);
  transport.send = (data) => {
    // colyseus.js encodes every message into one buffer it reuses: copy the bytes before they wait
    const bytes = data instanceof ArrayBuffer ? data.slice(0) : (data as Uint8Array).slice();
    link.up.send(() => send(bytes));
  };
  const ws = transport.ws;
  const receive = ws.onmessage;
  ws.onmessage = (event) => link.down.send(() => receive?.call(ws, event));
}
interface LinkedTransport {
  send(data: unknown): void;
  ws: WebSocket;
}

async function connect(): Promise<void> {
  const endpoint =
    params.get('server') ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
  try {
    const joined = await new Client(endpoint).joinOrCreate<ArenaView>('arena');
    room = joined;
    throughLink(joined);
    joined.onStateChange((state) => onState(state, joined.sessionId));
    joined.onMessage('ft:pong', ([sentMs]: [number, number]) => {
      clock.observeRoundTrip(performance.now() - sentMs);
    });
    setInterval(() => joined.send('ft:ping', performance.now()), 500);
    joined.onLeave(() => {
      statusLine.textContent = 'Disconnected from the game server. Reload to join again.';
    });
    exposed.connected = true;
    exposed.sessionId = joined.sessionId;
    exposed.roomId = joined.roomId;
    statusLine.textContent = `Connected to room ${joined.roomId} as ${joined.sessionId}.`;
  } catch (error) {
    statusLine.textContent = `No game server at ${endpoint} (${String(error)}): start the examples with npm start, which serves it.`;
  }
}

// ---- display frames --------------------------------------------------------------------------

const statusLine = document.getElementById('status') as HTMLParagraphElement;
const netLine = document.getElementById('net-line') as HTMLParagraphElement;
const exposed = expose({
  example: 'multiplayer',
  ready: false,
  frames: 0,
  connected: false,
  sessionId: '',
  roomId: '',
  displayRate: Number(params.get('display') ?? 144) as number | 'real',
  predicting: () => predicting,
  clock: () => ({
    renderTick: clock.renderTick,
    arrivalTick: clock.arrivalTick,
    renderDelayMs: clock.renderDelayMs,
    jitterMs: clock.jitterMs,
    roundTripMs: clock.roundTripMs,
    snaps: clock.snaps,
  }),
  drawn: () => ({ ...remotes.stream.drawnFrames }),
  prediction: () => ({ ...prediction.stats, tick: prediction.tick }),
  other: otherCheck,
  predictionErrors: predictionCheck,
  retransmissions: () => link.up.retransmissions + link.down.retransmissions,
  /** Starts the checks over: what came before (joining, the first corrections) is left out. */
  resetChecks: () => {
    otherCheck.reset();
    predictionCheck.reset();
  },
});

let displayOrigin = Number.NaN;
let displayIndex = 0;
let lastFrameMs = Number.NaN;
/** One frame of the (simulated) display at `timeMs`. */
function displayFrame(timeMs: number): void {
  clock.update(timeMs);
  if (predicting) loop.timeScale = clock.paceFor(prediction.tick + loop.alpha);
  loop.frame(timeMs);
  const previousFrameMs = Number.isNaN(lastFrameMs) ? timeMs : lastFrameMs;
  prediction.update((timeMs - previousFrameMs) / 1000);
  lastFrameMs = timeMs;
  if (myMesh !== undefined) {
    const a = loop.alpha;
    const c = prediction.correction;
    myMesh.position.set(
      previousPose.x + (currentPose.x - previousPose.x) * a + c[0],
      0.45,
      previousPose.z + (currentPose.z - previousPose.z) * a + c[2],
    );
    myMesh.rotation.set(0, currentPose.yaw, 0);
  }
  otherCheck.frame(
    remotes.stream,
    meshes as ReadonlyMap<string, Object3D>,
    timeMs - previousFrameMs,
    clock.snaps,
  );
  const delayMs = (clock.arrivalTick - clock.renderTick) * (1000 / TICK_RATE);
  netGraph.sample(clock.synced ? delayMs : 0, clock.jitterMs, lastCorrection);
  lastCorrection = 0;
}

function browserFrame(realMs: number): void {
  requestAnimationFrame(browserFrame);
  const rate = exposed.displayRate;
  if (rate === 'real') {
    displayFrame(realMs);
  } else {
    const period = 1000 / rate;
    if (Number.isNaN(displayOrigin)) {
      displayOrigin = realMs;
      displayIndex = 0;
    }
    if (realMs - (displayOrigin + displayIndex * period) > 250) {
      // a long stall: one frame covers it (the loop runs its steps), then the display goes on
      // from now — the game's time is not dropped
      displayFrame(realMs);
      displayOrigin = realMs;
      displayIndex = 1;
    }
    while (displayOrigin + displayIndex * period <= realMs) {
      displayFrame(displayOrigin + displayIndex * period);
      displayIndex++;
    }
  }
  fitCamera();
  renderer.render(scene, camera);
  netGraph.draw();
  exposed.frames++;
  exposed.ready = true;
  netLine.textContent = clock.synced
    ? `server tick ${Math.floor(clock.arrivalTick)} · drawn at ${clock.renderTick.toFixed(1)} · render delay ${clock.renderDelayMs.toFixed(0)} ms · jitter ${clock.jitterMs.toFixed(0)} ms · round trip ${Number.isNaN(clock.roundTripMs) ? '–' : clock.roundTripMs.toFixed(0)} ms · corrections ${prediction.stats.corrections}`
    : 'waiting for the first snapshot…';
}

function fitCamera(): void {
  const width = stage.clientWidth;
  const height = stage.clientHeight;
  if (width === 0 || height === 0) return;
  if (canvas.width === Math.floor(width * renderer.getPixelRatio())) {
    if (canvas.height === Math.floor(height * renderer.getPixelRatio())) return;
  }
  renderer.setSize(width, height, false);
  camera.aspect = width / height;
  camera.updateProjectionMatrix();
}

const linkSelect = document.getElementById('link') as HTMLSelectElement;
linkSelect.addEventListener('change', () => {
  link.up.settings = LINKS[linkSelect.value];
  link.down.settings = LINKS[linkSelect.value];
});
const displaySelect = document.getElementById('display-rate') as HTMLSelectElement;
displaySelect.value = String(exposed.displayRate);
displaySelect.addEventListener('change', () => {
  exposed.displayRate = displaySelect.value === 'real' ? 'real' : Number(displaySelect.value);
  displayOrigin = Number.NaN;
});
keysAfterControls();
requestAnimationFrame(browserFrame);
void connect();
