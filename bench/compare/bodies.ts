/**
 * Many moving bodies, interpolated for rendering, per contender: the workload of the allocation
 * and interpolation-speed scenarios. Every rig runs 60 Hz steps fed by a 144 fps display, and
 * the same gameplay per step and body: move 0.5 units/s along x and turn by a fixed small
 * rotation. What is rendered is a three.js `Object3D` per body (position + quaternion).
 *
 * - Fixedtick: `ThreeFixedLoop` tracking each `Object3D` (gameplay writes the objects inside
 *   `onFixedUpdate`; the adapter keeps previous/current poses and interpolates position,
 *   quaternion and scale).
 * - mainloop.js and three Timer + accumulator: what their users write by hand — previous/current
 *   `Vector3`/`Quaternion` per body, copied per step, `lerpVectors` + `slerpQuaternions` per frame.
 * - @thi.ng/timestep: its own `defVector3` (position) and `defVector4` (quaternion) states passed to
 *   `sim.update(t, states)`; the interpolated values are copied to the objects (thi.ng lerps the
 *   quaternion component-wise: that is what it offers).
 * - cannon-es: dynamic bodies with that velocity and spin in a zero-gravity world (spaced so that
 *   nothing collides; `SAPBroadphase`, as cannon recommends for many bodies), stepped by
 *   `world.step(dt, sinceLast, 10)`; `interpolatedPosition` /
 *   `interpolatedQuaternion` copied to the objects. Its cost includes its own physics step.
 */
import { Object3D, Quaternion, Vector3 } from 'three';
import type { ContenderId, LoopSpec } from './contenders.ts';
import { cannon, FACTORIES } from './contenders.ts';
import { ORIGIN_MS } from './drive.ts';
import { FakeDisplay } from './fake-clock.ts';
import { loadFixedtick } from './fixedtick-parts.ts';

/** Units per second along x. */
const SPEED = 0.5;
/** The rotation applied per step (a small turn about y). */
const TURN = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.01);

/** A running workload. */
export interface BodyRig {
  readonly objects: readonly Object3D[];
  /** Runs the next 144 fps frame. */
  frame(): void;
  /** Teleports body 0 to `x` the way this contender's users do it. */
  teleport(x: number): void;
  /** Steps the last frame ran. */
  readonly lastSteps: number;
  dispose(): void;
}

function makeObjects(n: number): Object3D[] {
  const objects: Object3D[] = [];
  for (let i = 0; i < n; i++) {
    const o = new Object3D();
    o.position.set((i % 100) * 3, Math.floor(i / 100) * 3, 0);
    objects.push(o);
  }
  return objects;
}

/** A display that runs 144 fps frames on demand. */
function display144(): { display: FakeDisplay; next: () => void } {
  const display = new FakeDisplay();
  display.nowMs = ORIGIN_MS;
  let k = 0;
  return {
    display,
    next: () => {
      k++;
      display.frame(ORIGIN_MS + (k * 1000) / 144);
    },
  };
}

/** Builds the rig of contender `id` with `n` bodies, or returns why it cannot. */
export async function bodyRig(
  id: ContenderId,
  n: number,
  options: { speedFixedtickOnly?: boolean } = {},
): Promise<BodyRig | string> {
  void options;
  const objects = makeObjects(n);
  if (id === 'fixedtick') return fixedtickRig(objects);
  if (id === 'mainloop' || id === 'three') return handRig(id, objects);
  if (id === 'thing') return thingRig(objects);
  if (id === 'cannon') return cannonRig(objects);
  return 'see the Havok rows: Babylon lockstep does not interpolate';
}

async function fixedtickRig(objects: Object3D[]): Promise<BodyRig | string> {
  const parts = await loadFixedtick();
  const ThreeFixedLoop = parts.ThreeFixedLoop;
  if (!ThreeFixedLoop) return `ThreeFixedLoop: ${parts.missing.ThreeFixedLoop}`;
  const { display, next } = display144();
  const loop = new ThreeFixedLoop({ tickRate: 60 });
  for (const o of objects) loop.track(o);
  let steps = 0;
  loop.onFixedUpdate((dt: number) => {
    steps++;
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i];
      o.position.x += SPEED * dt;
      o.quaternion.multiply(TURN);
    }
  });
  let stopped = false;
  const animate = (t: number): void => {
    if (stopped) return;
    requestAnimationFrame(animate);
    loop.frame(t);
  };
  display.run(() => requestAnimationFrame(animate));
  next();
  const rig: BodyRig = {
    objects,
    lastSteps: 0,
    frame: () => {
      const before = steps;
      next();
      (rig as { lastSteps: number }).lastSteps = steps - before;
    },
    // The adapter's rule: a pose written outside the fixed step is a teleport.
    teleport: (x) => {
      objects[0].position.x = x;
    },
    dispose: () => {
      stopped = true;
      loop.dispose();
      display.clear();
    },
  };
  return rig;
}

function handRig(id: 'mainloop' | 'three', objects: Object3D[]): BodyRig {
  const n = objects.length;
  const prevP = objects.map((o) => o.position.clone());
  const currP = objects.map((o) => o.position.clone());
  const prevQ = objects.map((o) => o.quaternion.clone());
  const currQ = objects.map((o) => o.quaternion.clone());
  let steps = 0;
  const spec: LoopSpec = {
    hz: 60,
    step: (dt) => {
      steps++;
      for (let i = 0; i < n; i++) {
        prevP[i].copy(currP[i]);
        prevQ[i].copy(currQ[i]);
        currP[i].x += SPEED * dt;
        currQ[i].multiply(TURN);
      }
    },
    render: (alpha) => {
      for (let i = 0; i < n; i++) {
        const o = objects[i];
        o.position.lerpVectors(prevP[i], currP[i], alpha);
        o.quaternion.slerpQuaternions(prevQ[i], currQ[i], alpha);
      }
    },
  };
  const { display, next } = display144();
  const run = FACTORIES[id](spec, display);
  next();
  const rig: BodyRig = {
    objects,
    lastSteps: 0,
    frame: () => {
      const before = steps;
      next();
      (rig as { lastSteps: number }).lastSteps = steps - before;
    },
    // The user's state is the pose: a teleport writes it (the previous pose is left alone).
    teleport: (x) => {
      currP[0].x = x;
    },
    dispose: () => run.dispose(),
  };
  return rig;
}

/** thi.ng hands its update functions a read-only vector type; they must write into it. */
type Vec = ArrayLike<number> & Iterable<number>;

async function thingRig(objects: Object3D[]): Promise<BodyRig> {
  const { defVector3, defVector4 } = await import('@thi.ng/timestep');
  const n = objects.length;
  const bx = TURN.x;
  const by = TURN.y;
  const bz = TURN.z;
  const bw = TURN.w;
  const positions = objects.map((o) =>
    defVector3([o.position.x, o.position.y, o.position.z], (v: Vec, dt: number) => {
      (v as number[])[0] += SPEED * dt;
      return v;
    }),
  );
  const rotations = objects.map((o) =>
    defVector4([o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w], (vec: Vec) => {
      // q = q * TURN
      const q = vec as number[];
      const ax = q[0];
      const ay = q[1];
      const az = q[2];
      const aw = q[3];
      q[0] = ax * bw + aw * bx + ay * bz - az * by;
      q[1] = ay * bw + aw * by + az * bx - ax * bz;
      q[2] = az * bw + aw * bz + ax * by - ay * bx;
      q[3] = aw * bw - ax * bx - ay * by - az * bz;
      return q;
    }),
  );
  const states = [...positions, ...rotations];
  let steps = 0;
  const spec: LoopSpec = {
    hz: 60,
    step: () => {
      steps++;
    },
    render: () => {
      for (let i = 0; i < n; i++) {
        objects[i].position.fromArray(positions[i].value as number[]);
        objects[i].quaternion.fromArray(rotations[i].value as number[]);
      }
    },
    thingItems: states,
  };
  const { display, next } = display144();
  const run = FACTORIES.thing(spec, display);
  next();
  const rig: BodyRig = {
    objects,
    lastSteps: 0,
    frame: () => {
      const before = steps;
      next();
      (rig as { lastSteps: number }).lastSteps = steps - before;
    },
    // thi.ng's documented way to set a state: reset() writes previous, current and value.
    teleport: (x) => {
      const p = positions[0].deref() as number[];
      positions[0].reset([x, p[1], p[2]]);
    },
    dispose: () => run.dispose(),
  };
  return rig;
}

function cannonRig(objects: Object3D[]): BodyRig {
  const n = objects.length;
  let steps = 0;
  const bodies: InstanceType<typeof cannon.Body>[] = [];
  const spec: LoopSpec = {
    hz: 60,
    step: () => {
      steps++;
    },
    render: () => {
      for (let i = 0; i < n; i++) {
        const b = bodies[i];
        const o = objects[i];
        o.position.set(
          b.interpolatedPosition.x,
          b.interpolatedPosition.y,
          b.interpolatedPosition.z,
        );
        o.quaternion.set(
          b.interpolatedQuaternion.x,
          b.interpolatedQuaternion.y,
          b.interpolatedQuaternion.z,
          b.interpolatedQuaternion.w,
        );
      }
    },
  };
  const { display, next } = display144();
  const run = FACTORIES.cannon(spec, display);
  const world = run.handles.world as InstanceType<typeof cannon.World>;
  world.gravity.set(0, 0, 0);
  // cannon-es's broadphase for many bodies (its default, NaiveBroadphase, tests every pair).
  world.broadphase = new cannon.SAPBroadphase(world);
  const shape = new cannon.Sphere(0.5);
  for (const o of objects) {
    const body = new cannon.Body({
      mass: 1,
      shape,
      position: new cannon.Vec3(o.position.x, o.position.y, o.position.z),
      velocity: new cannon.Vec3(SPEED, 0, 0),
      angularVelocity: new cannon.Vec3(0, 0.6, 0),
      linearDamping: 0,
      angularDamping: 0,
      allowSleep: false,
    });
    world.addBody(body);
    bodies.push(body);
  }
  next();
  const rig: BodyRig = {
    objects,
    lastSteps: 0,
    frame: () => {
      const before = steps;
      next();
      (rig as { lastSteps: number }).lastSteps = steps - before;
    },
    // No teleport API: users write the body's position.
    teleport: (x) => {
      bodies[0].position.x = x;
    },
    dispose: () => run.dispose(),
  };
  return rig;
}
