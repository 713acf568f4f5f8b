// The getting-started cube of docs/three.md, loaded through the page's import map: `three` and
// `@fixedtick/*` resolve to the built ES modules, with no bundler in between.
import { ThreeFixedLoop } from '@fixedtick/three';
import { createTimingGraph } from '@fixedtick/three/debug';
import * as THREE from 'three';

const stage = document.getElementById('stage');
const stats = document.getElementById('stats');
const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
stage.append(renderer.domElement);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x16181d);
const camera = new THREE.PerspectiveCamera(60, 1, 0.1, 100);
camera.position.set(0, 2, 7);
camera.lookAt(0, 0, 0);

const cube = new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshNormalMaterial());
scene.add(cube);

const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 30 });
loop.track(cube);
createTimingGraph(loop, {
  container: stage,
  position: 'bottom-left',
  toggleKey: 'g',
  help: '/guides/timing-graph.md',
});

/** What the end-to-end test reads (docs/examples.md). */
const state = { example: 'importmap', ready: false, frames: 0, ticks: 0, x: 0 };
window.__fixedtick = state;

let phase = 0;
loop.onFixedUpdate((dt) => {
  phase += 1.5 * dt;
  cube.position.x = 2.5 * Math.sin(phase);
  cube.rotation.y += 2 * dt;
});
loop.onPostRender(() => {
  state.frames++;
  state.ticks = loop.tick;
  state.x = cube.position.x;
  state.ready = true;
  stats.textContent = `frames ${state.frames} · ticks ${loop.tick} · drawn x ${state.x.toFixed(2)}`;
});

function resize() {
  const { clientWidth, clientHeight } = stage;
  camera.aspect = clientWidth / clientHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(clientWidth, clientHeight);
}
new ResizeObserver(resize).observe(stage);
resize();

loop.start();
