/**
 * <FixedTick> on real React Three Fiber roots: one loop frame per R3F frame, at the frame's
 * timestamp, in every way R3F runs frames (its own loop in 'always' and 'demand', `advance()` in
 * 'never', its WebXR loop, test-renderer's `advanceFrames`), before `useFrame` callbacks at the
 * default priority and before R3F renders; the clock rests with R3F in 'demand' and while the
 * page is hidden; props are live options.
 */
import {
  FixedLoop,
  FixedTick,
  type FixedTickProps,
  type ThreeFixedLoop,
  useFixedLoop,
  useFixedUpdate,
  useLateUpdate,
  usePostSimulation,
  usePreRender,
  useUpdate,
} from '@fixedtick/react-three';
import { advance, useFrame, useThree } from '@react-three/fiber';
import { act } from '@react-three/test-renderer';
import { StrictMode, useLayoutEffect } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  enterXR,
  failOnConsoleErrors,
  ManualDisplay,
  mount,
  rootState,
  timestamps,
} from './r3f-harness.tsx';

failOnConsoleErrors();

// One display for the file: R3F keeps its loop's state in module scope (a frame it has asked for
// stays asked for), so the queue must outlive each test.
const display = new ManualDisplay();
beforeAll(() => display.install());
afterAll(() => display.uninstall());

/** What a component under <FixedTick> saw: every step's delta and tick, and the loop. */
interface Seen {
  deltas: number[];
  ticks: number[];
  loop?: ThreeFixedLoop;
}

function StepProbe({ seen }: { seen: Seen }) {
  seen.loop = useFixedLoop();
  useFixedUpdate((dt, tick) => {
    seen.deltas.push(dt);
    seen.ticks.push(tick);
  });
  return null;
}

function probe(): Seen {
  return { deltas: [], ticks: [] };
}

/** A root with `<FixedTick tickRate={60}>` and a {@link StepProbe}, in `frameloop` mode. */
async function mountProbe(frameloop?: 'always' | 'never') {
  const seen = probe();
  const r = await mount(
    <FixedTick tickRate={60}>
      <StepProbe seen={seen} />
    </FixedTick>,
    frameloop,
  );
  return { r, seen };
}

/** Logs each hook and R3F callback of one frame in the order they run. */
function Order({ log }: { log: string[] }) {
  useFrame(() => log.push('useFrame -200'), -200);
  useFixedUpdate(() => log.push('fixedUpdate'));
  usePostSimulation(() => log.push('postSimulation'));
  useUpdate(() => log.push('update'));
  useLateUpdate(() => log.push('lateUpdate'));
  usePreRender(() => log.push('preRender'));
  useFrame(() => log.push('useFrame 0'));
  const scene = useThree((s) => s.scene);
  useLayoutEffect(() => {
    scene.onBeforeRender = () => log.push('render');
  }, [scene, log]);
  return null;
}

/** Keeps R3F rendering in 'demand' mode while `state.moving`, as a moving game would. */
function KeepsRendering({ state }: { state: { moving: boolean } }) {
  const invalidate = useThree((s) => s.invalidate);
  useUpdate(() => {
    if (state.moving) invalidate();
  });
  return null;
}

describe('<FixedTick>: fixed steps from R3F frames', () => {
  it.each([
    { mode: 'always', fps: 30, tickRate: 60, steps: 120 },
    { mode: 'always', fps: 60, tickRate: 60, steps: 120 },
    { mode: 'always', fps: 144, tickRate: 60, steps: 120 },
    { mode: 'always', fps: 144, tickRate: 120, steps: 240 },
    { mode: 'never', fps: 30, tickRate: 60, steps: 120 },
    { mode: 'never', fps: 60, tickRate: 60, steps: 120 },
    { mode: 'never', fps: 144, tickRate: 60, steps: 120 },
    { mode: 'never', fps: 144, tickRate: 120, steps: 240 },
  ] as const)(
    "frameloop '$mode', 2 s at $fps fps, $tickRate Hz: useFixedUpdate runs $steps steps of exactly fixedDelta",
    async ({ mode, fps, tickRate, steps }) => {
      const seen = probe();
      const r = await mount(
        <FixedTick tickRate={tickRate}>
          <StepProbe seen={seen} />
        </FixedTick>,
        mode,
      );
      // 2 s of frames after the first (which sets the time origin): 0 ms … 2000 ms
      for (const t of timestamps(fps, 2 * fps + 1)) {
        if (mode === 'always') display.frame(t);
        else advance(t);
      }
      const loop = seen.loop as ThreeFixedLoop;
      expect(seen.deltas).toHaveLength(steps);
      expect(new Set(seen.deltas)).toEqual(new Set([1 / tickRate]));
      expect(seen.deltas[0]).toBe(loop.fixedDelta);
      expect(seen.ticks).toEqual(Array.from({ length: steps }, (_, i) => i));
      expect(loop.frameCount).toBe(2 * fps + 1);
      expect(loop.time).toBeCloseTo(2, 12);
      await r.unmount();
    },
  );

  it('runs one loop frame per R3F frame, before useFrame at priority 0 and before R3F renders', async () => {
    const log: string[] = [];
    const r = await mount(
      <FixedTick tickRate={60}>
        <Order log={log} />
      </FixedTick>,
      'always',
    );
    display.frame(0);
    log.length = 0;
    display.frame(1000 / 60);
    expect(log).toEqual([
      'useFrame -200',
      'fixedUpdate',
      'postSimulation',
      'update',
      'lateUpdate',
      'preRender',
      'useFrame 0',
      'render',
    ]);
    await r.unmount();
  });

  it('in WebXR runs on the XR frames’ timestamps (a 90 Hz headset: 60 steps a second at 60 Hz)', async () => {
    const { r, seen } = await mountProbe('always');
    for (const t of timestamps(60, 61)) display.frame(t); // 1 s on the page
    expect(seen.deltas).toHaveLength(60);
    const xrFrame = enterXR(r);
    display.frame(1000 + 1000 / 60); // R3F's page loop skips a presenting root, and stops
    expect(display.pending).toBe(0);
    // then 1 s of the session's frames, on the same clock
    for (let i = 1; i <= 90; i++) xrFrame(1000 + (i * 1000) / 90);
    const loop = seen.loop as ThreeFixedLoop;
    expect(seen.deltas).toHaveLength(120);
    expect(new Set(seen.deltas)).toEqual(new Set([1 / 60]));
    expect(loop.frameCount).toBe(61 + 90);
    expect(loop.stats.droppedTime).toBe(0);
    await r.unmount();
  });

  it('@react-three/test-renderer’s advanceFrames(n, delta) advances the loop by delta per frame', async () => {
    const { r, seen } = await mountProbe();
    await act(async () => r.advanceFrames(31, 1 / 60));
    // the first frame sets the time origin; the other 30 bring 1/60 s each
    expect(seen.deltas).toHaveLength(30);
    expect((seen.loop as ThreeFixedLoop).frameCount).toBe(31);
    await r.unmount();
  });

  it("in frameloop 'demand' the clock runs while R3F renders and rests with it: no catch-up after", async () => {
    const seen = probe();
    const state = { moving: true };
    const r = await mount(
      <FixedTick tickRate={60}>
        <StepProbe seen={seen} />
        <KeepsRendering state={state} />
      </FixedTick>,
      'demand',
    );
    const t = timestamps(60, 61);
    for (const ms of t) display.frame(ms);
    expect(seen.deltas).toHaveLength(60);
    state.moving = false;
    // the frame the last invalidate() asked for; R3F stops its loop after it
    display.frame(1000 + 1000 / 60);
    expect(display.pending).toBe(0);
    const atRest = seen.deltas.length;
    expect(atRest).toBe(61);
    // 10 s later something asks for frames again
    state.moving = true;
    rootState(r).invalidate();
    display.frame(11_000); // a new time origin: the 10 s are not simulated
    expect(seen.deltas.length).toBe(atRest);
    for (let i = 1; i <= 30; i++) display.frame(11_000 + (i * 1000) / 60);
    expect(seen.deltas.length).toBe(atRest + 30);
    expect((seen.loop as ThreeFixedLoop).stats.droppedTime).toBe(0);
    await r.unmount();
  });

  it('a switch of frameloop mode starts a new time origin (no anomaly, no burst)', async () => {
    const { r, seen } = await mountProbe();
    for (const t of timestamps(60, 31)) advance(50_000 + t); // frameloop 'never', its own clock
    expect(seen.deltas).toHaveLength(30);
    await act(async () => rootState(r).setFrameloop('always'));
    for (const t of timestamps(60, 31)) display.frame(t); // rAF time, far before 50 s
    const loop = seen.loop as ThreeFixedLoop;
    expect(seen.deltas).toHaveLength(60);
    expect(loop.stats.anomalies).toBe(0);
    expect(loop.stats.droppedTime).toBe(0);
    await r.unmount();
  });

  it('feeds no time while the page is hidden, and drops the gap when it is shown again', async () => {
    const page = Object.assign(new EventTarget(), { hidden: false });
    (globalThis as { document?: unknown }).document = page;
    try {
      const seen = probe();
      const r = await mount(
        <FixedTick tickRate={60}>
          <StepProbe seen={seen} />
        </FixedTick>,
        'always',
      );
      for (const t of timestamps(60, 61)) display.frame(t);
      expect(seen.deltas).toHaveLength(60);
      page.hidden = true;
      page.dispatchEvent(new Event('visibilitychange'));
      page.hidden = false;
      page.dispatchEvent(new Event('visibilitychange'));
      display.frame(30_000); // back after 29 s
      display.frame(30_000 + 1000 / 60);
      const loop = seen.loop as ThreeFixedLoop;
      expect(seen.deltas).toHaveLength(61);
      expect(loop.stats.droppedTime).toBeCloseTo(29, 9);
      await r.unmount();
    } finally {
      delete (globalThis as { document?: unknown }).document;
    }
  });

  it('survives Strict Mode’s double mount: one loop driven once, one useFrame subscriber', async () => {
    const seen = probe();
    const start = vi.spyOn(FixedLoop.prototype, 'start');
    const tree = (show: boolean) => (
      <StrictMode>
        {show && (
          <FixedTick tickRate={60}>
            <StepProbe seen={seen} />
          </FixedTick>
        )}
      </StrictMode>
    );
    const r = await mount(tree(false), 'always');
    await r.update(tree(true)); // mounts into a running tree: Strict Mode replays its effects
    expect(start).toHaveBeenCalledTimes(2); // started, stopped, started again
    start.mockRestore();
    expect(rootState(r).internal.subscribers).toHaveLength(1);
    for (const t of timestamps(144, 289)) display.frame(t);
    const loop = seen.loop as ThreeFixedLoop;
    expect(loop.running).toBe(true);
    expect(seen.deltas).toHaveLength(120);
    expect(loop.frameCount).toBe(289);
    await r.unmount();
  });

  it('leaves R3F rendering on its own and adds one useFrame subscriber', async () => {
    const r = await mount(<FixedTick />, 'always');
    const internal = rootState(r).internal;
    expect(internal.subscribers).toHaveLength(1);
    expect(internal.subscribers[0].priority).toBe(-100);
    expect(internal.priority).toBe(0); // no positive priority: R3F still renders itself
    await r.unmount();
  });
});

describe('<FixedTick> props: live loop options', () => {
  it('applies a changed prop from the next frame, and a removed one goes back to its default', async () => {
    const seen = probe();
    const tree = (props: FixedTickProps) => (
      <FixedTick {...props}>
        <StepProbe seen={seen} />
      </FixedTick>
    );
    const r = await mount(tree({ tickRate: 60, timeScale: 0.5, defaultInterpolation: 'none' }));
    const loop = seen.loop as ThreeFixedLoop;
    expect([loop.fixedDelta, loop.timeScale, loop.defaultInterpolation]).toEqual([
      1 / 60,
      0.5,
      'none',
    ]);
    for (const t of timestamps(60, 61)) advance(t);
    expect(seen.deltas).toHaveLength(30); // half speed
    await r.update(tree({ tickRate: 30 }));
    expect(seen.loop).toBe(loop); // the same loop, for <FixedTick>'s whole life
    expect([loop.fixedDelta, loop.timeScale, loop.defaultInterpolation]).toEqual([
      1 / 30,
      1,
      'interpolate',
    ]);
    seen.deltas.length = 0;
    for (const t of timestamps(60, 60)) advance(1000 + 1000 / 60 + t);
    expect(seen.deltas).toHaveLength(30);
    expect(new Set(seen.deltas)).toEqual(new Set([1 / 30]));
    await r.update(tree({ fixedDelta: 0.02, maxDeltaTime: 1, maxStepsPerFrame: 3 }));
    expect([loop.fixedDelta, loop.maxDeltaTime, loop.maxStepsPerFrame]).toEqual([0.02, 1, 3]);
    await r.unmount();
  });

  it.each([
    [{ tickRate: -60 }, /option "tickRate" must be .*, got -60$/],
    [{ timeScale: Number.NaN }, /option "timeScale" must be .*, got NaN$/],
    [{ defaultInterpolation: 'smooth' }, /option "defaultInterpolation" must be .*got "smooth"/],
    [{ tickrate: 60 }, /unknown <FixedTick> option "tickrate"/],
    [{ tickRate: 60, fixedDelta: 0.02 }, /"fixedDelta" \(0.02\) and "tickRate" \(60\) disagree/],
    [{ framePriority: 1 }, /option "framePriority" must be a finite number ≤ 0.*got 1/],
  ])('rejects %o with a RangeError naming it', async (props, message) => {
    // React reports the render error on console.error before it reaches the caller
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bad = props as unknown as FixedTickProps;
    await expect(mount(<FixedTick {...bad} />)).rejects.toThrow(message);
    await expect(mount(<FixedTick {...bad} />)).rejects.toBeInstanceOf(RangeError);
    quiet.mockRestore();
  });
});
