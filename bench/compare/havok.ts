/**
 * Havok scenes on Babylon's `NullEngine`: `n` dynamic spheres falling in a grid onto a static
 * ground, stepped at 60 Hz and rendered at 144 fps — once under Babylon's
 * `deterministicLockstep` (no interpolation: meshes show the latest step) and once under
 * Fixedtick's `BabylonFixedLoop` (which auto-tracks and interpolates the bodies).
 * Both render with `scene.render()` every frame, from `engine.runRenderLoop` on the fake display.
 */
import { babylon, babylonLockstepScene, loadHavok } from './contenders.ts';
import { ORIGIN_MS } from './drive.ts';
import { FakeDisplay } from './fake-clock.ts';
import { loadFixedtick } from './fixedtick-parts.ts';

type Scene = InstanceType<typeof babylon.Scene>;
type Mesh = InstanceType<typeof babylon.Mesh>;
type Engine = InstanceType<typeof babylon.NullEngine>;

/** A running Havok scene. */
export interface HavokRig {
  readonly scene: Scene;
  readonly spheres: readonly Mesh[];
  /** Steps the last frame ran. */
  readonly lastSteps: number;
  /** Runs the next 144 fps frame. */
  frame(): void;
  /** Teleports sphere 0 to `x` (same y, z) the way each side documents it. */
  teleport(x: number): void;
  dispose(): void;
}

function populate(scene: Scene, n: number, dynamic: boolean): Mesh[] {
  const ground = babylon.MeshBuilder.CreateBox(
    'ground',
    { width: 400, depth: 400, height: 1 },
    scene,
  );
  ground.position.y = -0.5;
  new babylon.PhysicsAggregate(ground, babylon.PhysicsShapeType.BOX, { mass: 0 }, scene);
  const template = babylon.MeshBuilder.CreateSphere('sphere', { diameter: 1, segments: 4 }, scene);
  template.setEnabled(false);
  const spheres: Mesh[] = [];
  const side = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n; i++) {
    const m = template.clone(`s${i}`) as Mesh;
    m.setEnabled(true);
    m.position.set((i % side) * 1.5 - side * 0.75, 2 + (i % 7) * 0.5, Math.floor(i / side) * 1.5);
    new babylon.PhysicsAggregate(
      m,
      babylon.PhysicsShapeType.SPHERE,
      { mass: dynamic ? 1 : 0, radius: 0.5 },
      scene,
    );
    spheres.push(m);
  }
  return spheres;
}

function counter(scene: Scene): { readonly steps: number } {
  const c = { steps: 0 };
  scene.onBeforePhysicsObservable.add(() => {
    c.steps++;
  });
  return c;
}

/** Babylon's `deterministicLockstep` (defaults: `lockstepMaxSteps` 4) with `n` spheres. */
export async function lockstepRig(n: number, gravity = true): Promise<HavokRig> {
  await loadHavok();
  const display = new FakeDisplay();
  display.nowMs = ORIGIN_MS;
  const { engine, scene } = babylonLockstepScene(60, 4, display);
  const spheres = display.run(() => populate(scene, n, true));
  if (!gravity) scene.getPhysicsEngine()?.setGravity(new babylon.Vector3(0, 0, 0));
  const c = counter(scene);
  display.run(() => engine.runRenderLoop(() => scene.render()));
  return rigOn(display, engine, scene, spheres, c, (x) => {
    // Babylon's documented teleport of a physics body: let the pre-step copy the node's
    // transform into the body, and move the node.
    const body = spheres[0].physicsBody;
    if (body) body.disablePreStep = false;
    spheres[0].position.x = x;
  });
}

/** Fixedtick's `BabylonFixedLoop` (60 Hz, defaults) with `n` spheres, or why it cannot run. */
export async function fixedtickHavokRig(n: number, gravity = true): Promise<HavokRig | string> {
  const parts = await loadFixedtick();
  const BabylonFixedLoop = parts.BabylonFixedLoop;
  if (!BabylonFixedLoop) return `BabylonFixedLoop: ${parts.missing.BabylonFixedLoop}`;
  const hk = await loadHavok();
  const display = new FakeDisplay();
  display.nowMs = ORIGIN_MS;
  const { engine, scene, loop, spheres } = display.run(() => {
    const engine = new babylon.NullEngine({
      deterministicLockstep: false,
      lockstepMaxSteps: 4,
      renderHeight: 256,
      renderWidth: 256,
      textureSize: 256,
    });
    const scene = new babylon.Scene(engine);
    new babylon.FreeCamera('camera', new babylon.Vector3(0, 5, -20), scene);
    scene.enablePhysics(
      new babylon.Vector3(0, gravity ? -9.81 : 0, 0),
      new babylon.HavokPlugin(true, hk as never),
    );
    const spheres = populate(scene, n, true);
    const loop = new BabylonFixedLoop(scene, { tickRate: 60 });
    loop.start();
    return { engine, scene, loop, spheres };
  });
  const c = counter(scene);
  return rigOn(
    display,
    engine,
    scene,
    spheres,
    c,
    (x) => {
      const p = spheres[0].position;
      loop.teleport(spheres[0], { x, y: p.y, z: p.z });
    },
    () => loop.dispose(),
  );
}

function rigOn(
  display: FakeDisplay,
  engine: Engine,
  scene: Scene,
  spheres: Mesh[],
  c: { readonly steps: number },
  teleport: (x: number) => void,
  before?: () => void,
): HavokRig {
  let k = 0;
  const rig: HavokRig = {
    scene,
    spheres,
    lastSteps: 0,
    frame: () => {
      const steps = c.steps;
      k++;
      display.frame(ORIGIN_MS + (k * 1000) / 144);
      (rig as { lastSteps: number }).lastSteps = c.steps - steps;
    },
    teleport,
    dispose: () => {
      display.run(() => {
        before?.();
        engine.stopRenderLoop();
        scene.dispose();
        engine.dispose();
      });
      display.clear();
    },
  };
  // The origin frame.
  display.frame(ORIGIN_MS);
  return rig;
}
