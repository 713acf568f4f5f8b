/**
 * `<FixedRapierWorker>` and `useWorkerBody` on real R3F roots, with real Rapier WASM in a real
 * worker thread (support/falling-worker.ts): each mesh is drawn between the last poses its body's
 * id was published with — two steps behind the loop, lerped by alpha — a teleport sent from a
 * component lands with no streak, Strict Mode's double mount leaves one worker running, and
 * unmounting ends it.
 */
import type { Worker } from 'node:worker_threads';
import { FixedTick, type ThreeFixedLoop, useFixedLoop } from '@fixedtick/react-three';
import {
  FixedRapierWorker,
  useWorkerBody,
  useWorkerPhysics,
  type WorkerPhysics,
} from '@fixedtick/react-three/rapier';
import { advance, useThree } from '@react-three/fiber';
import { StrictMode, useLayoutEffect, useRef } from 'react';
import type { Mesh } from 'three';
import { describe, expect, it } from 'vitest';
import { exited, startWorker } from '../../three/test/support/start-worker.ts';
import { expectMountToThrow, failOnConsoleErrors, mount } from './r3f-harness.tsx';

failOnConsoleErrors();

const FALLING = new URL('./support/falling-worker.ts', import.meta.url).href;

/** What the scene saw: the loop, the physics, each published frame and each drawn frame. */
interface Seen {
  loop?: ThreeFixedLoop;
  physics?: WorkerPhysics | null;
  /** Published poses: state tick → y of each body id. */
  published: Map<number, number[]>;
  /** When R3F renders: the loop's tick and alpha, and the y of each mesh. */
  drawn: { tick: number; alpha: number; y: number[] }[];
  meshes: Mesh[];
  /** The workers started, in order, and when each exited (its code). */
  workers: Worker[];
  exits: Promise<number>[];
}

function newSeen(): Seen {
  return { published: new Map(), drawn: [], meshes: [], workers: [], exits: [] };
}

/** A box drawn from the worker's body `id`. */
function Crate({ id, seen }: { id: number; seen: Seen }) {
  const ref = useRef<Mesh>(null);
  useWorkerBody(ref, id);
  useLayoutEffect(() => {
    const mesh = ref.current as Mesh;
    if (!seen.meshes.includes(mesh)) seen.meshes[id] = mesh; // once through Strict Mode
  }, [seen, id]);
  return (
    <mesh ref={ref}>
      <boxGeometry />
      <meshBasicMaterial />
    </mesh>
  );
}

/** Records the published frames and the meshes when R3F renders. */
function Recorder({ seen }: { seen: Seen }) {
  const loop = useFixedLoop();
  const physics = useWorkerPhysics();
  seen.loop = loop;
  seen.physics = physics;
  useLayoutEffect(
    () =>
      physics?.onFrame((frame) => {
        const y: number[] = [];
        for (let k = 0; k < frame.count; k++) y[frame.ids[k]] = frame.rows[k * 13 + 1];
        seen.published.set(frame.tick, y);
      }),
    [physics, seen],
  );
  const scene = useThree((s) => s.scene);
  useLayoutEffect(() => {
    scene.onBeforeRender = () => {
      seen.drawn.push({
        tick: loop.tick,
        alpha: loop.alpha,
        y: seen.meshes.map((m) => m.position.y),
      });
    };
  }, [scene, loop, seen]);
  return null;
}

function Scene({ seen, count }: { seen: Seen; count: number }) {
  const start = () => {
    const worker = startWorker(FALLING, { count });
    seen.workers.push(worker);
    seen.exits.push(exited(worker));
    return worker;
  };
  return (
    <FixedTick tickRate={60}>
      <FixedRapierWorker worker={start}>
        <Recorder seen={seen} />
        {Array.from({ length: count }, (_, id) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the id is the body's, fixed
          <Crate key={id} id={id} seen={seen} />
        ))}
      </FixedRapierWorker>
    </FixedTick>
  );
}

/**
 * Runs `count` frames of a `rate` Hz display from `startMs`, each followed by the worker's
 * answer for the ticks it sent (no clock: the test waits on the worker, not on time).
 */
async function frames(seen: Seen, startMs: number, rate: number, count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    advance(startMs + (i * 1000) / rate);
    await seen.physics?.synced();
  }
  return startMs + (count * 1000) / rate;
}

/** The y a mesh is drawn at: its published poses two steps behind the loop, lerped by alpha. */
function expectedY(seen: Seen, tick: number, alpha: number, id: number): number {
  const from = seen.published.get(tick - 2);
  const to = seen.published.get(tick - 1);
  if (from === undefined || to === undefined) throw new Error(`no frames ${tick - 2}, ${tick - 1}`);
  return from[id] + (to[id] - from[id]) * alpha;
}

/** Uses the body hook outside <FixedRapierWorker>. */
function Orphan() {
  const ref = useRef<Mesh>(null);
  useWorkerBody(ref, 0);
  return null;
}

/** Mounts the scene and waits until the worker has built its world. */
async function mountScene(seen: Seen, count: number) {
  const r = await mount(<Scene seen={seen} count={count} />);
  await seen.physics?.ready;
  return r;
}

describe('<FixedRapierWorker> and useWorkerBody', () => {
  it('draws each worker body interpolated between its published poses, two steps behind', async () => {
    const seen = newSeen();
    const r = await mountScene(seen, 2);
    expect(seen.physics?.status).toBe('running');
    expect(seen.physics?.transport).toBe('shared');
    await frames(seen, 0, 144, 145); // 1 s at 144 fps
    const loop = seen.loop as ThreeFixedLoop;
    expect(loop.tick).toBe(60);
    expect(seen.physics?.newestTick).toBe(60);
    const drawn = seen.drawn.filter((f) => f.tick >= 3);
    expect(drawn.length).toBeGreaterThan(130);
    for (const f of drawn) {
      for (let id = 0; id < 2; id++) {
        expect(f.y[id]).toBeCloseTo(expectedY(seen, f.tick, f.alpha, id), 5);
      }
    }
    // falling: the second box, from 4 m, is drawn lower than it started and above the ground
    const last = seen.drawn[seen.drawn.length - 1];
    expect(last.y[1]).toBeLessThan(3);
    expect(last.y[1]).toBeGreaterThan(0.4);
    await r.unmount();
  });

  it('a teleport sent from a component is drawn from the frame of its tick with no streak', async () => {
    const seen = newSeen();
    const r = await mountScene(seen, 1);
    let next = await frames(seen, 0, 144, 289); // 2 s: landed at y ≈ 0.5
    const physics = seen.physics as WorkerPhysics;
    physics.teleport(0, { x: 0, y: 10, z: 0 });
    const sentAt = (seen.loop as ThreeFixedLoop).tick;
    seen.drawn.length = 0;
    next = await frames(seen, next, 144, 12);
    // until the drawn time reaches the teleport's tick: the landed box; from then on: from 10 m
    // down, never a pose between the two
    for (const f of seen.drawn) {
      const landed = Math.abs(f.y[0] - 0.5) < 0.05;
      expect(landed || f.y[0] > 9.5).toBe(true);
    }
    expect(seen.drawn.some((f) => f.y[0] > 9.5 && f.tick > sentAt)).toBe(true);
    await r.unmount();
  });

  it('starts one worker through Strict Mode’s double mount and ends it on unmount', async () => {
    const seen = newSeen();
    const tree = (show: boolean) => (
      <StrictMode>{show && <Scene seen={seen} count={1} />}</StrictMode>
    );
    const r = await mount(tree(false));
    await r.update(tree(true)); // mounts into a running tree: Strict Mode replays its effects
    await seen.physics?.ready;
    // Strict Mode mounted, unmounted and mounted again: the first worker was ended
    expect(seen.workers.length).toBe(2);
    expect(await seen.exits[0]).toBeTypeOf('number');
    await frames(seen, 0, 60, 31);
    expect(seen.physics?.newestTick).toBe(30);
    await r.unmount();
    expect(await seen.exits[1]).toBeTypeOf('number');
    expect(seen.physics?.status).toBe('disposed');
  });

  it('throws a clear error outside <FixedRapierWorker>', async () => {
    await expectMountToThrow(
      <FixedTick>
        <Orphan />
      </FixedTick>,
      'fixedtick: useWorkerBody() must be called in a component below <FixedRapierWorker> (itself below <FixedTick>)',
    );
  });
});
