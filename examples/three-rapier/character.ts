/**
 * The walker of examples/three-rapier: a capsule on a kinematic position-based body, moved by
 * Rapier's `KinematicCharacterController` inside `fixedUpdate` (Rapier's recipe: compute the
 * movement the obstacles allow, then set the body's next kinematic position), and a camera that
 * follows the capsule's drawn — interpolated — pose in `lateUpdate`, from outside the capsule's
 * circle around the pile, so the pile stays in view behind it.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { InputLatch, ThreeFixedLoop } from '@fixedtick/three';
import type { RapierPhysics } from '@fixedtick/three/rapier';
import {
  type Camera,
  CapsuleGeometry,
  Color,
  Mesh,
  MeshLambertMaterial,
  Quaternion,
  type Scene,
  Vector3,
} from 'three';

const HALF_HEIGHT = 0.45;
const RADIUS = 0.35;
const WALK_SPEED = 3.5;
const TURN_SPEED = 2.4;
const JUMP_SPEED = 5;
const GRAVITY = 9.81;
/** Left alone, the capsule walks this circle around the pile (m). */
const CIRCLE_CENTRE = new Vector3(2, 0, 0.5);
const CIRCLE_RADIUS = 9;
/** The camera: this far beyond the capsule, away from the pile, and this high above it (m). */
const CAMERA_BACK = 6;
const CAMERA_UP = 3.2;

const WALK_KEYS = [
  'KeyW',
  'KeyS',
  'KeyA',
  'KeyD',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
];
const outward = new Vector3();

/** Where the camera goes for the capsule drawn at `position`, into `out`. */
function followPoint(position: Vector3, out: Vector3): Vector3 {
  outward.copy(position).sub(CIRCLE_CENTRE).setY(0).normalize();
  return out
    .copy(position)
    .addScaledVector(outward, CAMERA_BACK)
    .setY(position.y + CAMERA_UP);
}

/**
 * The yaw (about +y, 0 facing -z) that walks the circle around the pile counterclockwise seen
 * from above, steering back onto it when off it.
 */
function circleYaw(x: number, z: number): number {
  const rx = x - CIRCLE_CENTRE.x;
  const rz = z - CIRCLE_CENTRE.z;
  const distance = Math.hypot(rx, rz) || 1;
  const pull = (CIRCLE_RADIUS - distance) * 0.3;
  const dx = -rz / distance + (rx / distance) * pull;
  const dz = rx / distance + (rz / distance) * pull;
  return Math.atan2(-dx, -dz);
}

/** `angle` brought into (-π, π]. */
function wrapAngle(angle: number): number {
  return Math.atan2(Math.sin(angle), Math.cos(angle));
}

/** What the character publishes for the page and its end-to-end test. */
export interface CharacterState {
  /** Drawn (interpolated) position of the capsule. */
  drawn: [number, number, number];
  /** Its body's position (the simulation). */
  simulated: [number, number, number];
  /** Metres walked (simulation). */
  walked: number;
  grounded: boolean;
  /** Walked by the player (keys or the touch pad) in the last step, not circling by itself. */
  manual: boolean;
  /** Camera distance from where the follow rule puts it, read after `lateUpdate` (m). */
  cameraError: number;
}

/** The walker: its published state and its body. */
export interface Character {
  readonly state: CharacterState;
  readonly body: RAPIER.RigidBody;
}

/** Builds the walker, moves it in `fixedUpdate` and points `camera` at it in `lateUpdate`. */
export function addCharacter(
  R: typeof RAPIER,
  world: RAPIER.World,
  scene: Scene,
  loop: ThreeFixedLoop,
  physics: RapierPhysics,
  input: InputLatch,
  camera: Camera,
): Character {
  const mesh = new Mesh(
    new CapsuleGeometry(RADIUS, HALF_HEIGHT * 2, 6, 14),
    new MeshLambertMaterial({ color: new Color(0.45, 0.62, 1) }),
  );
  const nose = new Mesh(
    new CapsuleGeometry(0.08, 0.3, 4, 8),
    new MeshLambertMaterial({ color: new Color(1, 1, 1) }),
  );
  nose.rotation.x = Math.PI / 2;
  nose.position.set(0, 0.35, -RADIUS);
  mesh.add(nose); // an untracked child: rides on the capsule's drawn pose
  scene.add(mesh);
  const body = world.createRigidBody(
    R.RigidBodyDesc.kinematicPositionBased().setTranslation(
      CIRCLE_CENTRE.x - CIRCLE_RADIUS,
      HALF_HEIGHT + RADIUS + 0.05,
      CIRCLE_CENTRE.z,
    ),
  );
  const collider = world.createCollider(R.ColliderDesc.capsule(HALF_HEIGHT, RADIUS), body);
  physics.add(mesh, body);

  const controller = world.createCharacterController(0.02);
  controller.setApplyImpulsesToDynamicBodies(true);
  controller.enableAutostep(0.3, 0.2, true);
  controller.enableSnapToGround(0.3);

  const state: CharacterState = {
    drawn: [0, 0, 0],
    simulated: [0, 0, 0],
    walked: 0,
    grounded: false,
    manual: false,
    cameraError: 0,
  };
  const desired = new Vector3();
  const movement = new Vector3();
  const next = new Vector3();
  const facing = new Quaternion();
  const up = new Vector3(0, 1, 0);
  // the simulation state of the walker, kept in one typed array (no boxed numbers per step)
  const sim = new Float64Array(2); // [yaw, vertical speed]

  loop.onFixedUpdate((dt) => {
    body.translation(next);
    const manual = WALK_KEYS.some((key) => input.held(key));
    state.manual = manual;
    let ahead = 1;
    if (manual) {
      ahead =
        Number(input.held('KeyW') || input.held('ArrowUp')) -
        Number(input.held('KeyS') || input.held('ArrowDown'));
      const turn =
        Number(input.held('KeyA') || input.held('ArrowLeft')) -
        Number(input.held('KeyD') || input.held('ArrowRight'));
      sim[0] += turn * TURN_SPEED * dt;
    } else {
      // left alone: turn towards the circle's heading, at most TURN_SPEED
      const error = wrapAngle(circleYaw(next.x, next.z) - sim[0]);
      sim[0] += Math.max(-TURN_SPEED * dt, Math.min(TURN_SPEED * dt, error));
    }
    if (state.grounded && input.pressed('Space')) sim[1] = JUMP_SPEED;
    sim[1] -= GRAVITY * dt;
    desired.set(-Math.sin(sim[0]), 0, -Math.cos(sim[0])).multiplyScalar(ahead * WALK_SPEED * dt);
    desired.y = sim[1] * dt;
    controller.computeColliderMovement(collider, desired);
    controller.computedMovement(movement);
    state.grounded = controller.computedGrounded();
    if (state.grounded && sim[1] < 0) sim[1] = 0;
    next.add(movement);
    body.setNextKinematicTranslation(next);
    body.setNextKinematicRotation(facing.setFromAxisAngle(up, sim[0]));
    state.walked += Math.hypot(movement.x, movement.z);
  });

  // lateUpdate: after the interpolation pass, so the camera follows the drawn capsule
  const wanted = new Vector3();
  const look = new Vector3();
  loop.onLateUpdate(() => {
    camera.position.copy(followPoint(mesh.position, wanted));
    // the capsule in the lower third, the pile beyond it
    camera.lookAt(
      look.copy(CIRCLE_CENTRE).sub(mesh.position).multiplyScalar(0.3).add(mesh.position),
    );
  });
  loop.onPreRender(() => {
    // nothing moved the capsule after lateUpdate placed the camera on its drawn pose
    state.cameraError = followPoint(mesh.position, wanted).distanceTo(camera.position);
    mesh.position.toArray(state.drawn);
    body.translation(look);
    look.toArray(state.simulated);
  });
  return { state, body };
}
