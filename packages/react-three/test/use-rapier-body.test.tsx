/**
 * `<FixedRapier>` and `useRapierBody` on real R3F roots with real Rapier WASM: the world is
 * stepped once per tick with `timestep = fixedDelta`, what R3F draws is each body's last two
 * step poses lerped by alpha, a write to a mesh in an event handler teleports its body with no
 * streak, and bindings follow the components' life through Strict Mode.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import {
  FixedTick,
  type InterpolationMode,
  type ThreeFixedLoop,
  useFixedLoop,
  usePostSimulation,
} from '@fixedtick/react-three';
import {
  FixedRapier,
  RapierPhysics,
  useRapierBody,
  useRapierPhysics,
} from '@fixedtick/react-three/rapier';
import { advance, useThree } from '@react-three/fiber';
import { type ReactNode, StrictMode, useLayoutEffect, useRef } from 'react';
import type { Mesh } from 'three';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectMountToThrow, failOnConsoleErrors, mount, timestamps } from './r3f-harness.tsx';

failOnConsoleErrors();
beforeAll(() => RAPIER.init());

/** What the scene saw: the loop, the physics, each step's body poses and each drawn frame. */
interface Seen {
  loop?: ThreeFixedLoop;
  physics?: RapierPhysics | null;
  /** After every step: [tick, y of each body]. */
  steps: { tick: number; y: number[] }[];
  /** When R3F renders: alpha, tick and the y of each mesh. */
  drawn: { tick: number; alpha: number; y: number[] }[];
  meshes: Mesh[];
}

function newSeen(): Seen {
  return { steps: [], drawn: [], meshes: [] };
}

/** A world with a ground at y = 0 and `count` boxes falling from 2, 4, 6 … m. */
function fallingBoxes(count: number): { world: RAPIER.World; bodies: RAPIER.RigidBody[] } {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  world.createCollider(RAPIER.ColliderDesc.cuboid(20, 0.5, 20), ground);
  const bodies = Array.from({ length: count }, (_, i) => {
    const desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(i * 2, 2 + 2 * i, 0);
    const body = world.createRigidBody(desc);
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
    return body;
  });
  return { world, bodies };
}

/** A box mesh bound to `body`; a click moves the mesh to (x, 10, 0). */
function Crate(props: {
  body: RAPIER.RigidBody | null;
  seen: Seen;
  interpolation?: InterpolationMode;
  teleportWith?: 'write' | 'physics';
}) {
  const { body, seen, interpolation, teleportWith = 'write' } = props;
  const ref = useRef<Mesh>(null);
  const physics = useRapierPhysics();
  useRapierBody(ref, body, { interpolation });
  useLayoutEffect(() => {
    const mesh = ref.current as Mesh;
    if (!seen.meshes.includes(mesh)) seen.meshes.push(mesh); // once through Strict Mode
  }, [seen]);
  const onClick = () => {
    const mesh = ref.current as Mesh;
    if (teleportWith === 'physics') physics?.teleport(mesh, { x: mesh.position.x, y: 10, z: 0 });
    else mesh.position.y = 10;
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: an R3F <mesh> is a three.js object, not DOM
    <mesh ref={ref} onClick={onClick}>
      <boxGeometry />
      <meshBasicMaterial />
    </mesh>
  );
}

/** Records the bodies after each step and the meshes when R3F renders. */
function Recorder({ seen, bodies }: { seen: Seen; bodies: RAPIER.RigidBody[] }) {
  const loop = useFixedLoop();
  seen.loop = loop;
  seen.physics = useRapierPhysics();
  usePostSimulation((_dt, tick) => {
    seen.steps.push({ tick, y: bodies.map((b) => b.translation().y) });
  });
  const scene = useThree((s) => s.scene);
  useLayoutEffect(() => {
    scene.onBeforeRender = () => {
      const y = seen.meshes.map((m) => m.position.y);
      seen.drawn.push({ tick: loop.tick, alpha: loop.alpha, y });
    };
  }, [scene, loop, seen]);
  return null;
}

function Scene(props: {
  world: RAPIER.World;
  bodies: RAPIER.RigidBody[];
  seen: Seen;
  children: ReactNode;
}) {
  return (
    <FixedTick tickRate={60}>
      <FixedRapier world={props.world}>
        <Recorder seen={props.seen} bodies={props.bodies} />
        {props.children}
      </FixedRapier>
    </FixedTick>
  );
}

/** Uses the body hook outside <FixedRapier>. */
function Orphan() {
  const ref = useRef<Mesh>(null);
  useRapierBody(ref, null);
  return null;
}

/** Frames of a `rate` Hz display from `startMs` (R3F's `advance`); returns the next timestamp. */
function frames(startMs: number, rate: number, count: number): number {
  for (const t of timestamps(rate, count)) advance(startMs + t);
  return startMs + (count * 1000) / rate;
}

/** The y a mesh is drawn at: its body's last two step poses lerped by alpha. */
function lerpedY(seen: Seen, tick: number, alpha: number, body: number): number {
  const current = seen.steps.find((s) => s.tick === tick - 1);
  const previous = seen.steps.find((s) => s.tick === tick - 2);
  if (current === undefined) throw new Error(`no step ${tick - 1} recorded`);
  if (previous === undefined) return current.y[body];
  return previous.y[body] + (current.y[body] - previous.y[body]) * alpha;
}

describe('useRapierBody', () => {
  it('steps the world once per tick with timestep = fixedDelta and draws each body interpolated', async () => {
    const { world, bodies } = fallingBoxes(3);
    const step = vi.spyOn(world, 'step');
    const seen = newSeen();
    const r = await mount(
      <Scene world={world} bodies={bodies} seen={seen}>
        {bodies.map((body) => (
          <Crate key={body.handle} body={body} seen={seen} />
        ))}
      </Scene>,
    );
    frames(0, 144, 289); // 2 s at 144 fps
    const loop = seen.loop as ThreeFixedLoop;
    expect(loop.tick).toBe(120);
    expect(step).toHaveBeenCalledTimes(120);
    expect(world.timestep).toBe(Math.fround(1 / 60));
    expect(seen.physics?.size).toBe(3);
    // every frame after the first two steps: the lerp of the last two step poses, by alpha
    const drawn = seen.drawn.filter((f) => f.tick >= 2);
    expect(drawn.length).toBeGreaterThan(250);
    for (const f of drawn) {
      for (let b = 0; b < bodies.length; b++) {
        expect(f.y[b]).toBeCloseTo(lerpedY(seen, f.tick, f.alpha, b), 5);
      }
    }
    // the boxes fell and landed on the ground (half a metre high)
    for (const body of bodies) expect(body.translation().y).toBeCloseTo(0.5, 1);
    await r.unmount();
    world.free();
  });

  it.each(['write', 'physics'] as const)(
    'a teleport in an event handler (%s) is drawn in the next frame with no streak, and the body goes on from there',
    async (teleportWith) => {
      const { world, bodies } = fallingBoxes(1);
      const seen = newSeen();
      const r = await mount(
        <Scene world={world} bodies={bodies} seen={seen}>
          <Crate body={bodies[0]} seen={seen} teleportWith={teleportWith} />
        </Scene>,
      );
      let next = frames(0, 144, 289); // landed: y ≈ 0.5
      await r.fireEvent(r.scene.findByType('Mesh'), 'onClick');
      const tickAtClick = (seen.loop as ThreeFixedLoop).tick;
      seen.drawn.length = 0;
      next = frames(next, 144, 3);
      // the first frame draws the new pose (or motion from exactly it): nothing near 0.5 → 10
      const first = seen.drawn[0];
      if (first.tick === tickAtClick) expect(first.y[0]).toBe(10);
      else expect(first.y[0]).toBeCloseTo(lerpedY(seen, first.tick, first.alpha, 0), 5);
      for (const f of seen.drawn) expect(f.y[0]).toBeGreaterThan(9.9);
      // the body itself was moved there, and falls from there
      const after = seen.steps.filter((s) => s.tick >= tickAtClick);
      expect(after[0].y[0]).toBeGreaterThan(9.9);
      expect(after[0].y[0]).toBeLessThanOrEqual(10);
      await r.unmount();
      world.free();
    },
  );

  it('binds once through Strict Mode’s double mount and unbinds on unmount; the world is stepped once per tick', async () => {
    const { world, bodies } = fallingBoxes(2);
    const step = vi.spyOn(world, 'step');
    const seen = newSeen();
    const tree = (show: boolean) => (
      <StrictMode>
        {show && (
          <Scene world={world} bodies={bodies} seen={seen}>
            {bodies.map((body) => (
              <Crate key={body.handle} body={body} seen={seen} interpolation="none" />
            ))}
          </Scene>
        )}
      </StrictMode>
    );
    const dispose = vi.spyOn(RapierPhysics.prototype, 'dispose');
    const r = await mount(tree(false));
    await r.update(tree(true)); // mounts into a running tree: Strict Mode replays its effects
    expect(dispose).toHaveBeenCalledTimes(1); // the first RapierPhysics, undone by the replay
    dispose.mockRestore();
    const physics = seen.physics as RapierPhysics;
    expect(physics.size).toBe(2);
    frames(0, 60, 61);
    expect(step).toHaveBeenCalledTimes(60); // one RapierPhysics steps it: the first was disposed
    expect(physics.steps).toBe(60);
    // 'none': drawn exactly at the last step's pose
    const last = seen.drawn.at(-1) as Seen['drawn'][number];
    expect(last.y).toEqual(seen.steps.at(-1)?.y.map((y) => Math.fround(y)) ?? []);
    const lastY = bodies.map((b) => b.translation().y);
    await r.update(tree(false));
    expect(physics.size).toBe(0);
    // unbound: left where its body was at the last step; the bodies stay in the world
    expect(seen.meshes.map((m) => m.position.y)).toEqual(lastY);
    expect(world.bodies.len()).toBe(3);
    await r.unmount();
    world.free();
  });

  it('binds a body that arrives after the mesh, and a new body in place of the old one', async () => {
    const { world, bodies } = fallingBoxes(2);
    const seen = newSeen();
    const tree = (body: RAPIER.RigidBody | null) => (
      <Scene world={world} bodies={bodies} seen={seen}>
        <Crate body={body} seen={seen} />
      </Scene>
    );
    const r = await mount(tree(null));
    expect(seen.physics?.size).toBe(0);
    await r.update(tree(bodies[0]));
    const physics = seen.physics as RapierPhysics;
    const mesh = seen.meshes[0];
    expect(physics.bodyOf(mesh)).toBe(bodies[0]);
    expect(mesh.position.y).toBe(2); // placed on its body at once
    await r.update(tree(bodies[1]));
    expect(physics.bodyOf(mesh)).toBe(bodies[1]);
    expect(physics.size).toBe(1);
    await r.unmount();
    world.free();
  });

  it('throws a clear error outside <FixedRapier>', async () => {
    await expectMountToThrow(
      <FixedTick>
        <Orphan />
      </FixedTick>,
      'fixedtick: useRapierBody() must be called in a component below <FixedRapier> (itself below <FixedTick>)',
    );
  });
});
