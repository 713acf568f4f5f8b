/**
 * The walker of examples/three-rapier as the page draws it: the capsule's mesh (its body and its
 * fixed-step code are in scene.ts and walker.ts, wherever the world runs) and a camera that
 * follows the capsule's drawn — interpolated — pose in `lateUpdate`, from outside the capsule's
 * circle around the pile, so the pile stays in view behind it.
 */
import type { ThreeFixedLoop } from '@fixedtick/three';
import {
  type Camera,
  CapsuleGeometry,
  Color,
  Mesh,
  MeshLambertMaterial,
  type Scene,
  Vector3,
} from 'three';
import { CAPSULE } from './scene.ts';
import { CIRCLE_CENTRE, type WalkerStatus } from './walker.ts';

/** The camera: this far beyond the capsule, away from the pile, and this high above it (m). */
const CAMERA_BACK = 6;
const CAMERA_UP = 3.2;
const CENTRE = new Vector3(CIRCLE_CENTRE.x, 0, CIRCLE_CENTRE.z);

const outward = new Vector3();

/** Where the camera goes for the capsule drawn at `position`, into `out`. */
function followPoint(position: Vector3, out: Vector3): Vector3 {
  outward.copy(position).sub(CENTRE).setY(0).normalize();
  return out
    .copy(position)
    .addScaledVector(outward, CAMERA_BACK)
    .setY(position.y + CAMERA_UP);
}

/** What the character publishes for the page and its end-to-end test. */
export interface CharacterState extends WalkerStatus {
  /** Drawn (interpolated) position of the capsule. */
  drawn: [number, number, number];
  /** Its body's position (the simulation). */
  simulated: [number, number, number];
  /** Camera distance from where the follow rule puts it, read after `lateUpdate` (m). */
  cameraError: number;
}

/**
 * The capsule's mesh (to bind to the walker's body) and its published state; points `camera` at
 * the drawn capsule in `lateUpdate`. `status` is the walker's (kept up to date by the mode) and
 * `simulated` reads its body's position after the last step.
 */
export function addCharacterView(
  scene: Scene,
  loop: ThreeFixedLoop,
  camera: Camera,
  status: WalkerStatus,
  simulated: (target: Vector3) => Vector3,
): { mesh: Mesh; state: CharacterState } {
  const mesh = new Mesh(
    new CapsuleGeometry(CAPSULE.radius, CAPSULE.halfHeight * 2, 6, 14),
    new MeshLambertMaterial({ color: new Color(0.45, 0.62, 1) }),
  );
  const nose = new Mesh(
    new CapsuleGeometry(0.08, 0.3, 4, 8),
    new MeshLambertMaterial({ color: new Color(1, 1, 1) }),
  );
  nose.rotation.x = Math.PI / 2;
  nose.position.set(0, 0.35, -CAPSULE.radius);
  mesh.add(nose); // an untracked child: rides on the capsule's drawn pose
  scene.add(mesh);

  const state: CharacterState = {
    drawn: [0, 0, 0],
    simulated: [0, 0, 0],
    walked: 0,
    grounded: false,
    manual: false,
    cameraError: 0,
  };
  // lateUpdate: after the interpolation pass, so the camera follows the drawn capsule
  const wanted = new Vector3();
  const look = new Vector3();
  loop.onLateUpdate(() => {
    camera.position.copy(followPoint(mesh.position, wanted));
    // the capsule in the lower third, the pile beyond it
    camera.lookAt(look.copy(CENTRE).sub(mesh.position).multiplyScalar(0.3).add(mesh.position));
  });
  loop.onPreRender(() => {
    // nothing moved the capsule after lateUpdate placed the camera on its drawn pose
    state.cameraError = followPoint(mesh.position, wanted).distanceTo(camera.position);
    mesh.position.toArray(state.drawn);
    simulated(look).toArray(state.simulated);
    state.walked = status.walked;
    state.grounded = status.grounded;
    state.manual = status.manual;
  });
  return { mesh, state };
}
