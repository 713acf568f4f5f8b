/**
 * The walker's fixed-step code, in Rapier alone (no three.js): the capsule on a kinematic
 * position-based body, moved by Rapier's `KinematicCharacterController` (Rapier's recipe:
 * compute the movement the obstacles allow, then set the body's next kinematic position). Left
 * alone it walks a circle around the pile; WASD or the arrows walk it, Space jumps. It runs where
 * the world is: in `fixedUpdate` on the main thread, or in the worker's step code.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { SceneBodies } from './scene.ts';

const WALK_SPEED = 3.5;
const TURN_SPEED = 2.4;
const JUMP_SPEED = 5;
const GRAVITY = 9.81;
/** Left alone, the capsule walks this circle around the pile (m). */
export const CIRCLE_CENTRE = { x: 2, z: 0.5 };
const CIRCLE_RADIUS = 9;

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

/** What the walker's step reads of the tick's input: the `InputLatch` queries it uses. */
export interface WalkInput {
  pressed(key: string): boolean;
  held(key: string): boolean;
}

/** What the walker publishes: how far it walked, whether it stands and who walks it. */
export interface WalkerStatus {
  /** Metres walked (simulation). */
  walked: number;
  grounded: boolean;
  /** Walked by the player (keys or the touch pad) in the last step, not circling by itself. */
  manual: boolean;
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

/** The walker's step: call it once per tick, before the world steps. */
export type WalkerStep = (dt: number, input: WalkInput) => void;

/** Makes the walker's character controller and returns its step and its published status. */
export function createWalker(
  world: RAPIER.World,
  bodies: SceneBodies,
): { step: WalkerStep; status: WalkerStatus } {
  const { walker: body, walkerCollider: collider } = bodies;
  const controller = world.createCharacterController(0.02);
  controller.setApplyImpulsesToDynamicBodies(true);
  controller.enableAutostep(0.3, 0.2, true);
  controller.enableSnapToGround(0.3);

  const status: WalkerStatus = { walked: 0, grounded: false, manual: false };
  const at = { x: 0, y: 0, z: 0 };
  const desired = { x: 0, y: 0, z: 0 };
  const facing = { x: 0, y: 0, z: 0, w: 1 };
  // the simulation state of the walker, kept in one typed array (no boxed numbers per step)
  const sim = new Float64Array(2); // [yaw, vertical speed]

  const step: WalkerStep = (dt, input) => {
    const position = body.translation();
    at.x = position.x;
    at.y = position.y;
    at.z = position.z;
    const manual = WALK_KEYS.some((key) => input.held(key));
    status.manual = manual;
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
      const error = wrapAngle(circleYaw(at.x, at.z) - sim[0]);
      sim[0] += Math.max(-TURN_SPEED * dt, Math.min(TURN_SPEED * dt, error));
    }
    if (status.grounded && input.pressed('Space')) sim[1] = JUMP_SPEED;
    sim[1] -= GRAVITY * dt;
    const stride = ahead * WALK_SPEED * dt;
    desired.x = -Math.sin(sim[0]) * stride;
    desired.y = sim[1] * dt;
    desired.z = -Math.cos(sim[0]) * stride;
    controller.computeColliderMovement(collider, desired);
    const movement = controller.computedMovement();
    status.grounded = controller.computedGrounded();
    if (status.grounded && sim[1] < 0) sim[1] = 0;
    at.x += movement.x;
    at.y += movement.y;
    at.z += movement.z;
    body.setNextKinematicTranslation(at);
    facing.y = Math.sin(sim[0] / 2);
    facing.w = Math.cos(sim[0] / 2);
    body.setNextKinematicRotation(facing);
    status.walked += Math.hypot(movement.x, movement.z);
  };
  return { step, status };
}
