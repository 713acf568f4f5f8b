/**
 * The loop hooks on real R3F roots: each one subscribes with the component's life (mount,
 * unmount, Strict Mode's double mount), always calls the latest callback without re-subscribing,
 * orders by `priority`, and passes what the loop passes.
 */
import {
  FixedLoop,
  FixedTick,
  type ThreeFixedLoop,
  useFixedLoop,
  useFixedUpdate,
  useLateUpdate,
  usePostSimulation,
  usePreRender,
  useUpdate,
} from '@fixedtick/react-three';
import { advance } from '@react-three/fiber';
import { StrictMode, useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleErrors, mount, timestamps } from './r3f-harness.tsx';

failOnConsoleErrors();
afterEach(() => vi.restoreAllMocks());

/** Every call of every hook, as `hook:label`, and what the loop passed. */
interface Calls {
  log: string[];
  args: Record<string, [number, number][]>;
  loops: ThreeFixedLoop[];
  mounts: number;
}

function calls(): Calls {
  return { log: [], args: {}, loops: [], mounts: 0 };
}

function record(c: Calls, hook: string, label: string, a: number, b: number): void {
  c.log.push(`${hook}:${label}`);
  c.args[hook] ??= [];
  c.args[hook].push([a, b]);
}

/** Uses all five loop hooks; `label` changes the callbacks' closure from render to render. */
function AllHooks({ c, label }: { c: Calls; label: string }) {
  c.loops.push(useFixedLoop());
  useFixedUpdate((dt, tick) => record(c, 'fixedUpdate', label, dt, tick));
  usePostSimulation((dt, tick) => record(c, 'postSimulation', label, dt, tick));
  useUpdate((delta, alpha) => record(c, 'update', label, delta, alpha));
  useLateUpdate((delta, alpha) => record(c, 'lateUpdate', label, delta, alpha));
  usePreRender((delta, alpha) => record(c, 'preRender', label, delta, alpha));
  useEffect(() => {
    c.mounts++;
  }, [c]);
  return null;
}

function Prioritised({ c, name, priority }: { c: Calls; name: string; priority: number }) {
  useFixedUpdate(() => c.log.push(name), { priority });
  return null;
}

/** Passes a number where a listener belongs. */
function NotAFunction() {
  useUpdate(42 as unknown as () => void);
  return null;
}

/** Runs `count` frames of 1/60 s from `startMs` (R3F's `advance`, frameloop 'never'). */
function frames(startMs: number, count: number): number {
  for (const t of timestamps(60, count)) advance(startMs + t);
  return startMs + (count * 1000) / 60;
}

describe('loop hooks', () => {
  it('pass what the loop passes: (fixedDelta, tick) per step, (delta, alpha) per frame', async () => {
    const c = calls();
    const r = await mount(
      <FixedTick tickRate={50}>
        <AllHooks c={c} label="a" />
      </FixedTick>,
    );
    frames(0, 61); // 1 s: 50 steps at 50 Hz
    const loop = c.loops[0];
    expect(c.args.fixedUpdate).toEqual(Array.from({ length: 50 }, (_, i) => [0.02, i]));
    expect(c.args.postSimulation).toEqual(c.args.fixedUpdate);
    expect(c.args.update).toHaveLength(61);
    expect(c.args.update.at(-1)).toEqual([loop.lastFrame.delta, loop.alpha]);
    expect(c.args.lateUpdate).toEqual(c.args.update);
    expect(c.args.preRender).toEqual(c.args.update);
    await r.unmount();
  });

  it('unsubscribe when the component unmounts (the loop goes on without them)', async () => {
    const c = calls();
    const tree = (show: boolean) => (
      <FixedTick tickRate={60}>{show && <AllHooks c={c} label="a" />}</FixedTick>
    );
    const r = await mount(tree(true));
    const end = frames(0, 11);
    expect(c.log.filter((e) => e.startsWith('fixedUpdate'))).toHaveLength(10);
    const loop = c.loops[0];
    await r.update(tree(false));
    c.log.length = 0;
    frames(end, 30);
    expect(c.log).toEqual([]);
    expect(loop.tick).toBe(40); // the steps still run
    await r.unmount();
  });

  it('survive Strict Mode’s double mount with one subscription each', async () => {
    const c = calls();
    const subscribe = vi.spyOn(FixedLoop.prototype, 'onFixedUpdate');
    // Strict Mode replays the effects of a component that mounts into a running tree (R3F's own
    // wrappers are above any <StrictMode> in a root's first render, so that one is not replayed)
    const tree = (show: boolean) => (
      <StrictMode>
        <FixedTick tickRate={60}>{show && <AllHooks c={c} label="a" />}</FixedTick>
      </StrictMode>
    );
    const r = await mount(tree(false));
    await r.update(tree(true));
    expect(c.mounts).toBe(2); // Strict Mode did mount, unmount and mount again
    expect(subscribe).toHaveBeenCalledTimes(2); // and the first subscription was undone…
    frames(0, 61);
    // …so each step and each frame calls each hook once
    const per = (hook: string) => c.log.filter((e) => e.startsWith(`${hook}:`)).length;
    expect([per('fixedUpdate'), per('postSimulation')]).toEqual([60, 60]);
    expect([per('update'), per('lateUpdate'), per('preRender')]).toEqual([61, 61, 61]);
    await r.unmount();
  });

  it('call the latest callback after a re-render, without subscribing again', async () => {
    const c = calls();
    const subscribe = vi.spyOn(FixedLoop.prototype, 'onUpdate');
    const tree = (label: string) => (
      <FixedTick>
        <AllHooks c={c} label={label} />
      </FixedTick>
    );
    const r = await mount(tree('first'));
    const end = frames(0, 2);
    await r.update(tree('second'));
    c.log.length = 0;
    frames(end, 1);
    expect(c.log).toEqual([
      'fixedUpdate:second',
      'postSimulation:second',
      'update:second',
      'lateUpdate:second',
      'preRender:second',
    ]);
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(new Set(c.loops).size).toBe(1); // useFixedLoop: the same loop at every render
    await r.unmount();
  });

  it('order by { priority }, lower first, and follow a changed priority', async () => {
    const c = calls();
    const tree = (late: number) => (
      <FixedTick>
        <Prioritised c={c} name="late" priority={late} />
        <Prioritised c={c} name="early" priority={1} />
      </FixedTick>
    );
    const r = await mount(tree(2));
    const end = frames(0, 2);
    expect(c.log).toEqual(['early', 'late']);
    await r.update(tree(0));
    c.log.length = 0;
    frames(end, 1);
    expect(c.log).toEqual(['late', 'early']);
    await r.unmount();
  });

  it('throw a clear error outside <FixedTick>, and a RangeError for a callback that is not a function', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const c = calls();
    await expect(mount(<AllHooks c={c} label="a" />)).rejects.toThrow(
      'fixedtick: useFixedLoop() must be called in a component below <FixedTick> (itself inside <Canvas>)',
    );
    const bad = mount(
      <FixedTick>
        <NotAFunction />
      </FixedTick>,
    );
    await expect(bad).rejects.toThrow(
      'fixedtick: option "fn" must be a function (the listener of useUpdate), got 42',
    );
    await expect(bad).rejects.toBeInstanceOf(RangeError);
    quiet.mockRestore();
  });
});
