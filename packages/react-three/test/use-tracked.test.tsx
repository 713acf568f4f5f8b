/**
 * useTracked on real R3F roots: the mesh R3F draws is at the interpolated pose (docs/guarantees.md: 144
 * frames of 1/144 s, x += 300·dt at 60 Hz: simulated 300, drawn 295), a pose written in an event
 * handler or by a changed prop is a teleport with no streak, the mode changes in place, and the
 * object is tracked once through Strict Mode's double mount.
 */
import {
  FixedTick,
  type InterpolationMode,
  ThreeFixedLoop,
  useFixedLoop,
  useFixedUpdate,
  useTracked,
} from '@fixedtick/react-three';
import { advance, useFrame, useThree } from '@react-three/fiber';
import { StrictMode, useLayoutEffect, useRef } from 'react';
import type { Mesh } from 'three';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleErrors, mount, timestamps } from './r3f-harness.tsx';

failOnConsoleErrors();
afterEach(() => vi.restoreAllMocks());

/** Where a runner starts without a `position` prop. */
const ORIGIN: [number, number, number] = [0, 0, 0];
/** Speed of the runner, px/s: 5 px per 60 Hz step. */
const SPEED = 300;
const STEP_PX = SPEED / 60;

/** What each drawn frame showed, read when R3F renders the scene. */
interface Frame {
  tick: number;
  alpha: number;
  drawnX: number;
  /** What a `useFrame` callback at R3F's default priority saw, earlier in the same frame. */
  useFrameX: number;
}

interface Out {
  frames: Frame[];
  loop?: ThreeFixedLoop;
  mesh?: Mesh;
}

interface RunnerProps {
  out: Out;
  interpolation?: InterpolationMode;
  /** A `position` prop, as declarative R3F code sets one. */
  position?: [number, number, number];
  /** Teleport with `loop.teleport` instead of a write to `position`. */
  viaTeleport?: boolean;
}

/** A mesh moved at 300 px/s in fixed steps, drawn interpolated; a click puts it at x = 100. */
function Runner({ out, interpolation, position, viaTeleport = false }: RunnerProps) {
  const ref = useRef<Mesh>(null);
  const loop = useFixedLoop();
  out.loop = loop;
  useTracked(ref, { interpolation });
  useFixedUpdate((dt) => {
    (ref.current as Mesh).position.x += SPEED * dt;
  });
  let useFrameX = Number.NaN;
  useFrame(() => {
    useFrameX = (ref.current as Mesh).position.x;
  });
  const scene = useThree((s) => s.scene);
  useLayoutEffect(() => {
    out.mesh = ref.current as Mesh;
    scene.onBeforeRender = () => {
      const drawnX = (ref.current as Mesh).position.x;
      out.frames.push({ tick: loop.tick, alpha: loop.alpha, drawnX, useFrameX });
    };
  });
  const onClick = () => {
    const mesh = ref.current as Mesh;
    if (viaTeleport) loop.teleport(mesh, { x: 100, y: 0, z: 0 });
    else mesh.position.x = 100;
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: an R3F <mesh> is a three.js object, not DOM
    <mesh ref={ref} position={position ?? ORIGIN} onClick={onClick}>
      <boxGeometry />
      <meshBasicMaterial />
    </mesh>
  );
}

/** Tracks a ref that no object is attached to. */
function NoMesh() {
  const ref = useRef<Mesh>(null);
  useTracked(ref);
  return null;
}

/** Drawn x of a 'interpolate' runner that started at `x0` `steps` steps ago, at `alpha`. */
function interpolated(x0: number, steps: number, alpha: number): number {
  return steps === 0 ? x0 : x0 + STEP_PX * (steps - 1 + alpha);
}

/** Runs `count` frames of a `rate` Hz display from `startMs`; returns the next timestamp. */
function frames(startMs: number, rate: number, count: number): number {
  for (const t of timestamps(rate, count)) advance(startMs + t);
  return startMs + (count * 1000) / rate;
}

function newOut(): Out {
  return { frames: [] };
}

describe('useTracked', () => {
  it('draws the interpolated pose: 144 frames of 1/144 s at 60 Hz end at simulated 300, drawn 295', async () => {
    const out = newOut();
    const r = await mount(
      <FixedTick tickRate={60}>
        <Runner out={out} />
      </FixedTick>,
    );
    frames(0, 144, 145);
    const loop = out.loop as ThreeFixedLoop;
    const mesh = out.mesh as Mesh;
    expect(loop.tick).toBe(60);
    expect(loop.getSimulationPose(mesh).position[0]).toBeCloseTo(300, 9);
    expect(out.frames.at(-1)?.drawnX).toBeCloseTo(295, 9);
    // every drawn frame: lerp of the last two steps by alpha; useFrame (priority 0) sees it too
    for (const f of out.frames) {
      expect(f.drawnX).toBeCloseTo(interpolated(0, f.tick, f.alpha), 9);
      expect(f.useFrameX).toBe(f.drawnX);
    }
    expect(new Set(out.frames.map((f) => f.alpha)).size).toBeGreaterThan(5);
    await r.unmount();
  });

  it.each([false, true])(
    'a teleport in an event handler is drawn in the next frame with no streak (loop.teleport: %s)',
    async (viaTeleport) => {
      const out = newOut();
      const r = await mount(
        <FixedTick tickRate={60}>
          <Runner out={out} viaTeleport={viaTeleport} />
        </FixedTick>,
      );
      let next = frames(0, 144, 145); // 1 s: x ≈ 300 simulated
      await r.fireEvent(r.scene.findByType('Mesh'), 'onClick');
      const tickAtClick = (out.loop as ThreeFixedLoop).tick;
      out.frames.length = 0;
      next = frames(next, 144, 30);
      // from the first frame on: the new pose, and motion from exactly it — nothing in between
      for (const f of out.frames) {
        expect(f.drawnX).toBeCloseTo(interpolated(100, f.tick - tickAtClick, f.alpha), 9);
      }
      expect(out.frames[0].drawnX).toBeLessThan(100 + STEP_PX);
      await r.unmount();
    },
  );

  it('a changed position prop teleports the mesh; the same one re-rendered does not touch it', async () => {
    const out = newOut();
    const tree = (x: number) => (
      <FixedTick tickRate={60}>
        <Runner out={out} position={[x, 0, 0]} />
      </FixedTick>
    );
    const r = await mount(tree(0));
    let next = frames(0, 144, 145);
    await r.update(tree(0)); // a new [0, 0, 0] array, equal: R3F writes nothing
    out.frames.length = 0;
    next = frames(next, 144, 10);
    for (const f of out.frames) expect(f.drawnX).toBeCloseTo(interpolated(0, f.tick, f.alpha), 9);
    const loop = out.loop as ThreeFixedLoop;
    await r.update(tree(100)); // a new x: R3F writes it, outside the step
    const tickAtUpdate = loop.tick;
    out.frames.length = 0;
    frames(next, 144, 10);
    for (const f of out.frames) {
      expect(f.drawnX).toBeCloseTo(interpolated(100, f.tick - tickAtUpdate, f.alpha), 9);
    }
    await r.unmount();
  });

  it('changes the interpolation mode in place (no untrack)', async () => {
    const out = newOut();
    const tree = (interpolation: InterpolationMode) => (
      <FixedTick tickRate={60}>
        <Runner out={out} interpolation={interpolation} />
      </FixedTick>
    );
    const r = await mount(tree('interpolate'));
    let next = frames(0, 144, 145);
    const loop = out.loop as ThreeFixedLoop;
    const untrack = vi.spyOn(loop, 'untrack');
    await r.update(tree('none'));
    out.frames.length = 0;
    next = frames(next, 144, 10);
    for (const f of out.frames) expect(f.drawnX).toBeCloseTo(STEP_PX * f.tick, 9);
    await r.update(tree('extrapolate'));
    out.frames.length = 0;
    frames(next, 144, 10);
    for (const f of out.frames) expect(f.drawnX).toBeCloseTo(STEP_PX * (f.tick + f.alpha), 9);
    expect(untrack).not.toHaveBeenCalled();
    expect(loop.trackedCount).toBe(1);
    await r.unmount();
  });

  it('tracks once through Strict Mode’s double mount, and untracks on unmount at the simulation pose', async () => {
    const out = newOut();
    const tree = (show: boolean) => (
      <StrictMode>
        <FixedTick tickRate={60}>{show && <Runner out={out} />}</FixedTick>
      </StrictMode>
    );
    const r = await mount(tree(false));
    const untrack = vi.spyOn(ThreeFixedLoop.prototype, 'untrack');
    await r.update(tree(true)); // mounts into a running tree: Strict Mode replays its effects
    expect(untrack).toHaveBeenCalledTimes(1); // mounted, unmounted, mounted again
    const loop = out.loop as ThreeFixedLoop;
    const mesh = out.mesh as Mesh;
    expect(loop.trackedCount).toBe(1);
    expect(loop.isTracked(mesh)).toBe(true);
    frames(0, 144, 145);
    for (const f of out.frames) expect(f.drawnX).toBeCloseTo(interpolated(0, f.tick, f.alpha), 9);
    const simulated = loop.getSimulationPose(mesh).position[0];
    await r.update(tree(false));
    expect(loop.trackedCount).toBe(0);
    expect(mesh.position.x).toBe(simulated);
    await r.unmount();
  });

  it('rejects a ref with no object at mount and a bad mode, with RangeErrors naming them', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const empty = mount(
      <FixedTick>
        <NoMesh />
      </FixedTick>,
    );
    await expect(empty).rejects.toThrow(
      'fixedtick: option "ref.current" must be a three.js Object3D when the component mounts (the ref of a <mesh>, <group>, …), got null',
    );
    await expect(empty).rejects.toBeInstanceOf(RangeError);
    const out = newOut();
    const bad = mount(
      <FixedTick>
        <Runner out={out} interpolation={'smooth' as InterpolationMode} />
      </FixedTick>,
    );
    await expect(bad).rejects.toThrow(/option "interpolation" must be .*got "smooth"/);
    quiet.mockRestore();
  });
});
