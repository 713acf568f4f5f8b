import {
  animationLoopDriver,
  FixedLoop,
  lerp,
  PoseBuffer,
  slerp,
  ThreeFixedLoop,
} from '@fixedtick/three';
import {
  BoxGeometry,
  Euler,
  Group,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  Object3D,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
} from 'three';
import { describe, expect, it } from 'vitest';

interface Pose {
  position: number[];
  quaternion: number[];
  scale: number[];
}

function poseOf(object: Object3D): Pose {
  return {
    position: object.position.toArray(),
    quaternion: object.quaternion.toArray(),
    scale: object.scale.toArray(),
  };
}

/** lerp/slerp of two recorded simulation poses with the core's own math. */
function blend(a: Pose, b: Pose, alpha: number): Pose {
  const quaternion = [0, 0, 0, 0];
  slerp(quaternion, 0, a.quaternion, 0, b.quaternion, 0, alpha);
  return {
    position: a.position.map((v, i) => lerp(v, b.position[i], alpha)),
    quaternion,
    scale: a.scale.map((v, i) => lerp(v, b.scale[i], alpha)),
  };
}

function expectPose(actual: Pose, expected: Pose, digits = 12): void {
  for (const key of ['position', 'quaternion', 'scale'] as const) {
    expected[key].forEach((v, i) => {
      expect(actual[key][i], `${key}[${i}]`).toBeCloseTo(v, digits);
    });
  }
}

function yawOf(object: Object3D): number {
  return new Euler().setFromQuaternion(object.quaternion, 'YXZ').y;
}

describe('ThreeFixedLoop: the rendered pose', () => {
  it('equals lerp/slerp(previous, current, alpha) of the simulation poses after every frame', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const cube = new Mesh(new BoxGeometry(), new MeshBasicMaterial());
    loop.track(cube);
    const simulated: Pose[] = [poseOf(cube)];
    loop.onFixedUpdate((dt) => {
      cube.position.x += 3 * dt;
      cube.position.y -= 9.81 * dt * cube.position.x;
      cube.rotateY(2 * dt);
      cube.rotateX(0.7 * dt);
      cube.scale.setScalar(1 + cube.position.x);
    });
    loop.onPostSimulation(() => simulated.push(poseOf(cube)));
    let checked = 0;
    for (let frame = 0; frame < 300; frame++) {
      // 0-, 1- and multi-step frames
      const info = loop.advance(frame % 7 === 0 ? 1 / 25 : frame % 3 === 0 ? 1 / 144 : 1 / 90);
      const n = simulated.length;
      const prev = simulated[Math.max(0, n - 2)];
      const curr = simulated[n - 1];
      expectPose(poseOf(cube), blend(prev, curr, info.alpha));
      checked++;
    }
    expect(checked).toBe(300);
    expect(loop.tick).toBeGreaterThan(200);
  });

  it('renders bit for bit the core slerp in frames with and without steps (cached acos/sin θ)', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
    const spinner = new Object3D();
    loop.track(spinner);
    const axis = new Vector3(1, 2, 3).normalize();
    // 8 rad/s: 0.13 rad per step, so slerp takes its acos/sin path, not nlerp
    loop.onFixedUpdate((dt) => spinner.rotateOnAxis(axis, 8 * dt));
    const simulated: Pose[] = [poseOf(spinner)];
    loop.onPostSimulation(() => simulated.push(poseOf(spinner)));
    let withoutSteps = 0;
    for (let frame = 0; frame < 120; frame++) {
      const info = loop.advance(1 / 144);
      if (info.steps === 0) withoutSteps++;
      const n = simulated.length;
      const expected = blend(simulated[Math.max(0, n - 2)], simulated[n - 1], info.alpha);
      const actual = spinner.quaternion.toArray();
      for (let i = 0; i < 4; i++) expect(Object.is(actual[i], expected.quaternion[i])).toBe(true);
    }
    expect(withoutSteps).toBeGreaterThan(60);
  });

  it('144 frames of 1/144 s, x += 300 * dt at 60 Hz: simulation x = 300, rendered x = 295', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const runner = new Object3D();
    loop.track(runner);
    loop.onFixedUpdate((dt) => {
      runner.position.x += 300 * dt;
    });
    for (let i = 0; i < 144; i++) loop.advance(1 / 144);
    expect(loop.tick).toBe(60);
    expect(loop.getSimulationPose(runner).position[0]).toBeCloseTo(300, 9);
    expect(runner.position.x).toBeCloseTo(295, 9);
  });

  it('a 90° turn renders 45° at alpha 0.5', () => {
    const loop = new ThreeFixedLoop({ tickRate: 10 });
    const turret = new Object3D();
    loop.track(turret);
    loop.onFixedUpdate(() => {
      if (loop.tick === 0) turret.rotation.y = Math.PI / 2;
    });
    expect(loop.advance(0.1).alpha).toBeCloseTo(0, 12);
    expect(yawOf(turret)).toBeCloseTo(0, 12);
    expect(loop.advance(0.05).alpha).toBeCloseTo(0.5, 12);
    expect(yawOf(turret)).toBeCloseTo(Math.PI / 4, 12);
    expect(turret.rotation.y).toBeCloseTo(Math.PI / 4, 12);
    expect(
      new Quaternion().fromArray(loop.getSimulationPose(turret).rotation).angleTo(new Quaternion()),
    ).toBeCloseTo(Math.PI / 2, 12);
  });

  it("'none' renders the latest simulation pose", () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const box = new Object3D();
    loop.track(box, { interpolation: 'none' });
    loop.onFixedUpdate((dt) => {
      box.position.x += 300 * dt;
      box.rotation.z += dt;
    });
    for (let i = 0; i < 144; i++) {
      loop.advance(1 / 144);
      const sim = loop.getSimulationPose(box);
      expect(box.position.x).toBe(sim.position[0]);
      expect(box.quaternion.toArray()).toEqual(sim.rotation);
    }
    expect(box.position.x).toBeCloseTo(300, 9);
  });

  it("'extrapolate' of a constant velocity renders the exact continuous motion", () => {
    const loop = new ThreeFixedLoop({ tickRate: 30, defaultInterpolation: 'extrapolate' });
    const ship = new Object3D();
    loop.track(ship);
    const v = 7; // units/s
    const w = 1.5; // rad/s about y
    loop.onFixedUpdate((dt) => {
      ship.position.x += v * dt;
      ship.rotateY(w * dt);
    });
    let elapsed = 0;
    for (let frame = 0; frame < 200; frame++) {
      const dt = frame % 2 === 0 ? 1 / 144 : 1 / 75;
      loop.advance(dt);
      elapsed += dt;
      if (loop.tick < 2) continue; // needs two poses to know the velocity
      expect(ship.position.x).toBeCloseTo(v * elapsed, 9);
      const expected = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), w * elapsed);
      expect(ship.quaternion.angleTo(expected)).toBeCloseTo(0, 7);
    }
  });

  it('inside fixedUpdate and postSimulation a tracked object holds its simulation pose', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const body = new Object3D();
    loop.track(body);
    let expectedX = 0;
    const seen: number[] = [];
    loop.onFixedUpdate((dt) => {
      seen.push(body.position.x - expectedX);
      expect(loop.getSimulationPose(body).position[0]).toBe(body.position.x);
      body.position.x += 10 * dt;
      expectedX = body.position.x;
    });
    loop.onPostSimulation(() => seen.push(body.position.x - expectedX));
    for (let i = 0; i < 50; i++) loop.advance(1 / 144);
    expect(seen.length).toBeGreaterThan(30);
    expect(seen.every((d) => d === 0)).toBe(true);
  });

  it('fixedUpdate integrating rotation.y keeps its own Euler angles past ±90°', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const wheel = new Object3D();
    loop.track(wheel);
    const seen: number[] = [];
    loop.onFixedUpdate((dt) => {
      seen.push(wheel.rotation.y);
      wheel.rotation.y += 2 * dt;
    });
    for (let i = 0; i < 144; i++) loop.advance(1 / 144); // 60 steps: 2 rad, past π/2
    expect(seen).toHaveLength(60);
    seen.forEach((y, tick) => {
      expect(y).toBeCloseTo((2 * tick) / 60, 12);
    });
    // outside the step, rotation describes the drawn quaternion
    const drawn = new Euler().setFromQuaternion(wheel.quaternion);
    expect(wheel.rotation.toArray()).toEqual(drawn.toArray());
  });

  it('a camera following in lateUpdate sees the interpolated pose (no jitter)', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const player = new Object3D();
    const camera = new PerspectiveCamera();
    loop.track(player);
    loop.onFixedUpdate((dt) => {
      player.position.x += 300 * dt;
    });
    loop.onLateUpdate(() => camera.position.set(player.position.x - 5, 2, 0));
    const steps: number[] = [];
    let last = camera.position.x;
    for (let i = 0; i < 144; i++) {
      loop.advance(1 / 144);
      steps.push(camera.position.x - last);
      last = camera.position.x;
    }
    // evenly spaced: 300 / 144 per frame once moving, never 0 or 2 steps' worth
    for (const d of steps.slice(3)) expect(d).toBeCloseTo(300 / 144, 9);
  });
});

describe('ThreeFixedLoop: teleports', () => {
  function mover(): { loop: ThreeFixedLoop; body: Object3D } {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const body = new Object3D();
    loop.track(body);
    loop.onFixedUpdate((dt) => {
      body.position.x += 60 * dt; // 1 unit per step
    });
    for (let i = 0; i < 20; i++) loop.advance(1 / 144);
    return { loop, body };
  }

  it('a direct write outside the fixed step renders exactly the new pose, then moves on from it', () => {
    const { loop, body } = mover();
    const q = new Quaternion().setFromEuler(new Euler(0, 1, 0));
    body.position.set(100, 5, 0);
    body.quaternion.copy(q);
    // a frame with no step shows exactly what was written
    expect(loop.advance(0).steps).toBe(0);
    expect(body.position.toArray()).toEqual([100, 5, 0]);
    expect(body.quaternion.toArray()).toEqual(q.toArray());
    expect(loop.getSimulationPose(body).position).toEqual([100, 5, 0]);
    // motion continues from it: no streak from the old position
    let previous = body.position.x;
    for (let i = 0; i < 30; i++) {
      loop.advance(1 / 144);
      expect(body.position.x).toBeGreaterThanOrEqual(previous);
      expect(body.position.x - previous).toBeLessThan(1);
      previous = body.position.x;
    }
    expect(body.position.x).toBeGreaterThan(100);
    expect(body.position.y).toBe(5);
  });

  it('a write between frames followed by a stepping frame interpolates from exactly the new pose', () => {
    const { loop, body } = mover();
    body.position.set(-50, 0, 0);
    const alphaBefore = loop.alpha;
    const info = loop.advance((1 - alphaBefore) / 60 + 0.25 / 60);
    expect(info.steps).toBe(1);
    expect(info.alpha).toBeCloseTo(0.25, 9);
    expect(body.position.x).toBeCloseTo(lerp(-50, -49, info.alpha), 12);
  });

  it('a write in update renders in the same frame, and the next frame does not jump back', () => {
    const { loop, body } = mover();
    let teleportNow = true;
    loop.onUpdate(() => {
      if (teleportNow) body.position.set(0, 40, 0);
      teleportNow = false;
    });
    let renderedY = Number.NaN;
    loop.onPreRender(() => {
      renderedY = body.position.y;
    });
    loop.advance(1 / 144);
    expect(renderedY).toBe(40);
    expect(body.position.x).toBe(0);
    loop.advance(0);
    expect(body.position.toArray()).toEqual([0, 40, 0]);
  });

  it('resetInterpolation after a jump inside fixedUpdate renders exactly the new pose', () => {
    const { loop, body } = mover();
    let respawn = false;
    loop.onFixedUpdate(() => {
      if (!respawn) return;
      respawn = false;
      body.position.set(-200, 0, 0);
      loop.resetInterpolation(body);
    });
    respawn = true;
    const info = loop.advance(1 / 60);
    expect(info.steps).toBe(1);
    // the mover added 1 before the respawn listener ran; the respawn wins and is not smeared
    expect(body.position.x).toBe(-200);
    // one more step: motion continues from the new pose
    const next = loop.advance(1 / 60);
    expect(next.steps).toBe(1);
    expect(body.position.x).toBeCloseTo(lerp(-200, -199, next.alpha), 12);
  });

  it('resetInterpolation(object) outside the step snaps the render to the simulation pose', () => {
    const { loop, body } = mover();
    const sim = loop.getSimulationPose(body).position[0];
    expect(body.position.x).not.toBe(sim);
    loop.resetInterpolation(body);
    expect(body.position.x).toBe(sim);
    loop.advance(0);
    expect(body.position.x).toBe(sim);
  });

  it('a teleport of a parent resets its tracked children too', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const parent = new Group();
    const child = new Object3D();
    parent.add(child);
    loop.track(parent);
    loop.track(child);
    loop.onFixedUpdate((dt) => {
      parent.position.x += 60 * dt;
      child.position.y += 60 * dt;
    });
    for (let i = 0; i < 10; i++) loop.advance(1 / 144);
    const childSim = loop.getSimulationPose(child).position[1];
    parent.position.set(500, 0, 0);
    loop.advance(0);
    expect(parent.position.x).toBe(500);
    expect(child.position.y).toBe(childSim);
  });

  it('resetInterpolation() with no argument snaps everything', () => {
    const { loop, body } = mover();
    const other = new Object3D();
    loop.track(other);
    loop.resetInterpolation();
    expect(body.position.x).toBe(loop.getSimulationPose(body).position[0]);
  });
});

describe('ThreeFixedLoop: hierarchies and instances', () => {
  it('a tracked child of a tracked parent renders at the composition of both interpolated poses', () => {
    const loop = new ThreeFixedLoop({ tickRate: 20 });
    const scene = new Scene();
    const arm = new Group();
    const hand = new Object3D();
    scene.add(arm);
    arm.add(hand);
    hand.position.set(2, 0, 0);
    loop.track(arm);
    loop.track(hand);
    const armPoses: Pose[] = [poseOf(arm)];
    const handPoses: Pose[] = [poseOf(hand)];
    loop.onFixedUpdate((dt) => {
      arm.position.z += 4 * dt;
      arm.rotateY(3 * dt);
      hand.rotateZ(5 * dt);
      hand.position.x += dt;
    });
    loop.onPostSimulation(() => {
      armPoses.push(poseOf(arm));
      handPoses.push(poseOf(hand));
    });
    const compose = (p: Pose) =>
      new Matrix4().compose(
        new Vector3().fromArray(p.position),
        new Quaternion().fromArray(p.quaternion),
        new Vector3().fromArray(p.scale),
      );
    for (let frame = 0; frame < 60; frame++) {
      const { alpha } = loop.advance(1 / 144);
      scene.updateMatrixWorld(true);
      const n = armPoses.length;
      const i = Math.max(0, n - 2);
      const expected = compose(blend(armPoses[i], armPoses[n - 1], alpha)).multiply(
        compose(blend(handPoses[i], handPoses[n - 1], alpha)),
      );
      hand.matrixWorld.elements.forEach((v, k) => {
        expect(v).toBeCloseTo(expected.elements[k], 12);
      });
    }
  });

  it('an instanced mesh keeps each instance’s scale while its instances move', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const scales = [1, 2.5, 0.25];
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), scales.length);
    const m = new Matrix4();
    const position = new Vector3();
    const rotation = new Quaternion();
    const scale = new Vector3();
    scales.forEach((s, i) => {
      mesh.setMatrixAt(
        i,
        m.compose(position.set(i, 0, 0), rotation.identity(), scale.setScalar(s)),
      );
      loop.trackInstance(mesh, i);
    });
    const step = new Quaternion().setFromEuler(new Euler(0, 0.05, 0));
    loop.onFixedUpdate(() => {
      for (let i = 0; i < scales.length; i++) {
        mesh.getMatrixAt(i, m).decompose(position, rotation, scale);
        position.y += 1;
        rotation.premultiply(step);
        mesh.setMatrixAt(i, m.compose(position, rotation, scale));
      }
    });
    const version = mesh.instanceMatrix.version;
    for (let frame = 0; frame < 100; frame++) {
      loop.advance(1 / 144);
      for (let i = 0; i < scales.length; i++) {
        mesh.getMatrixAt(i, m).decompose(position, rotation, scale);
        // float32 matrices: about 7 significant digits
        expect(scale.x).toBeCloseTo(scales[i], 5);
        expect(scale.y).toBeCloseTo(scales[i], 5);
        expect(scale.z).toBeCloseTo(scales[i], 5);
        expect(position.x).toBeCloseTo(i, 5);
      }
    }
    expect(mesh.instanceMatrix.version).toBeGreaterThan(version);
    // rendered between the last two steps, one step behind the simulation
    const sim = loop.getSimulationPose(mesh, 1);
    expect(sim.scale[0]).toBeCloseTo(2.5, 5);
    mesh.getMatrixAt(1, m).decompose(position, rotation, scale);
    expect(sim.position[1] - position.y).toBeGreaterThan(0);
    expect(sim.position[1] - position.y).toBeLessThanOrEqual(1);
  });

  it('a write to an instance outside the fixed step is a teleport', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 2);
    loop.trackInstance(mesh, 0);
    const m = new Matrix4();
    loop.onFixedUpdate(() => {
      mesh.getMatrixAt(0, m);
      m.elements[12] += 1;
      mesh.setMatrixAt(0, m);
    });
    for (let i = 0; i < 10; i++) loop.advance(1 / 144);
    mesh.setMatrixAt(0, m.makeTranslation(0, 0, 30).scale(new Vector3(3, 3, 3)));
    loop.advance(0);
    mesh.getMatrixAt(0, m);
    expect(m.elements[14]).toBe(30);
    expect(m.elements[0]).toBe(3);
    expect(loop.getSimulationPose(mesh, 0).position[2]).toBe(30);
  });
});

describe('ThreeFixedLoop: the loop', () => {
  it('is a FixedLoop, splits its own options from the loop options and validates both', () => {
    const loop = new ThreeFixedLoop({ tickRate: 50, maxStepsPerFrame: 3 });
    expect(loop).toBeInstanceOf(FixedLoop);
    expect(loop.fixedDelta).toBeCloseTo(0.02, 15);
    expect(loop.maxStepsPerFrame).toBe(3);
    expect(() => new ThreeFixedLoop({ tickrate: 60 } as never)).toThrow(
      /unknown option "tickrate"/,
    );
    expect(() => new ThreeFixedLoop({ renderer: {} as never })).toThrow(/option "renderer"/);
    const renderer = { setAnimationLoop() {}, render() {} };
    expect(() => new ThreeFixedLoop({ renderer })).toThrow(/option "scene"/);
    expect(() => new ThreeFixedLoop({ defaultInterpolation: 'smooth' as never })).toThrow(
      RangeError,
    );
    expect(() => new ThreeFixedLoop(null as never)).toThrow(RangeError);
    expect(() => loop.track({} as never)).toThrow(
      new TypeError('fixedtick: object3d must be a three.js Object3D, got a plain object'),
    );
    expect(() => loop.track(new Vector3() as never)).toThrow(
      new TypeError('fixedtick: object3d must be a three.js Object3D, got a Vector3'),
    );
    expect(() => loop.track(new Object3D(), { interpolation: 'lerp' as never })).toThrow(
      /option "interpolation"/,
    );
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 2);
    expect(() => loop.trackInstance(mesh, 2)).toThrow(/option "index".*got 2/);
    expect(() => loop.getSimulationPose(new Object3D())).toThrow(RangeError);
    expect(() => loop.track(new Object3D(), 'none' as never)).toThrow(
      /option "options" must be an object, got "none"/,
    );
    expect(() => {
      loop.defaultInterpolation = 'smooth' as never;
    }).toThrow(/option "defaultInterpolation" .*got "smooth"/);
    loop.defaultInterpolation = 'none';
    expect(loop.defaultInterpolation).toBe('none');
    // an instance index is never -1: that would untrack the mesh itself
    loop.track(mesh);
    loop.trackInstance(mesh, 1);
    expect(loop.untrackInstance(mesh, -1)).toBe(false);
    expect(() => loop.getSimulationPose(mesh, -1)).toThrow(/tracked instance -1/);
    loop.resetInterpolation(mesh, -1); // no such instance: nothing to reset, no error
    expect(loop.isTracked(mesh)).toBe(true);
    // a bad mode tracks nothing
    expect(() => loop.trackInstance(mesh, 0, { interpolation: 'bogus' as never })).toThrow(
      /option "interpolation"/,
    );
    expect(loop.trackedCount).toBe(2);
    expect(loop.untrackInstance(mesh, 0)).toBe(false);
    expect(loop.untrackInstance(mesh, 1)).toBe(true);
    expect(loop.untrackInstance(mesh, 1)).toBe(false);
    expect(loop.untrack(mesh)).toBe(true);
    expect(loop.trackedCount).toBe(0);
  });

  it('renders once per frame after preRender, only with a renderer', () => {
    const scene = new Scene();
    const camera = new PerspectiveCamera();
    const order: string[] = [];
    const renderer = {
      setAnimationLoop() {},
      render(s: unknown, c: unknown) {
        expect(s).toBe(scene);
        expect(c).toBe(camera);
        order.push('render');
      },
    };
    const loop = new ThreeFixedLoop({ renderer, scene, camera });
    loop.onPreRender(() => order.push('preRender'));
    loop.onPostRender(() => order.push('postRender'));
    loop.advance(1 / 60);
    loop.frame(1000);
    expect(order).toEqual([
      'preRender',
      'render',
      'postRender',
      'preRender',
      'render',
      'postRender',
    ]);
    const headless = new ThreeFixedLoop();
    headless.onPostRender(() => order.push('headless'));
    headless.advance(1 / 60);
    expect(order.at(-1)).toBe('headless');
  });

  it('start() runs on renderer.setAnimationLoop with the timestamps it passes; stop() clears it', () => {
    let callback: ((time: number) => void) | null = null;
    const renderer = {
      setAnimationLoop(fn: ((time: number) => void) | null) {
        callback = fn;
      },
      render() {},
    };
    const loop = new ThreeFixedLoop({
      renderer,
      scene: new Scene(),
      camera: new PerspectiveCamera(),
    });
    loop.start();
    expect(loop.running).toBe(true);
    expect(callback).toBeTypeOf('function');
    const tick = callback as unknown as (time: number) => void;
    tick(5000); // the origin (an XR session's clock starts anywhere)
    tick(5000 + 1000 / 30);
    tick(5000 + 2000 / 30);
    expect(loop.tick).toBe(4);
    expect(loop.frameCount).toBe(3);
    loop.stop();
    expect(callback).toBeNull();
    expect(loop.running).toBe(false);
  });

  it('animationLoopDriver feeds no time while the page is hidden and drops the gap after', () => {
    let callback: ((time: number) => void) | null = null;
    const renderer = {
      setAnimationLoop(fn: ((time: number) => void) | null) {
        callback = fn;
      },
      render() {},
    };
    const page = Object.assign(new EventTarget(), { hidden: false });
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    loop.start(animationLoopDriver(renderer, page));
    const tick = (t: number) => (callback as unknown as (time: number) => void)(t);
    tick(0);
    tick(100);
    expect(loop.tick).toBe(6);
    page.hidden = true;
    page.dispatchEvent(new Event('visibilitychange'));
    tick(200); // a stray frame while hidden: ignored
    page.hidden = false;
    page.dispatchEvent(new Event('visibilitychange'));
    tick(10_000); // back after 9.9 s: dropped, no burst of steps
    expect(loop.tick).toBe(6);
    expect(loop.stats.droppedTime).toBeCloseTo(9.9, 9);
    tick(10_000 + 50);
    expect(loop.tick).toBe(9);
    loop.stop();
    expect(callback).toBeNull();
  });

  it('untrack leaves the object at its simulation pose; dispose untracks everything', () => {
    const loop = new ThreeFixedLoop({ tickRate: 60 });
    const a = new Object3D();
    const b = new Object3D();
    loop.track(a);
    loop.track(b);
    loop.onFixedUpdate((dt) => {
      a.position.x += 60 * dt;
      b.position.x += 60 * dt;
    });
    for (let i = 0; i < 10; i++) loop.advance(1 / 144);
    const sim = loop.getSimulationPose(a).position[0];
    expect(a.position.x).not.toBe(sim);
    expect(loop.untrack(a)).toBe(true);
    expect(a.position.x).toBe(sim);
    expect(loop.untrack(a)).toBe(false);
    expect(loop.trackedCount).toBe(1);
    loop.dispose();
    expect(loop.trackedCount).toBe(0);
  });

  it('re-exports the core', () => {
    expect(new PoseBuffer().count).toBe(0);
    expect(typeof FixedLoop).toBe('function');
  });
});
