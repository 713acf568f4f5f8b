import { FixedLoop, type LoopAdapter } from '@fixedtick/core';
import { describe, expect, it, vi } from 'vitest';

describe('frame order', () => {
  it('runs frameStart → (fixedUpdate → physics → postSimulation)×n → interpolate → update → lateUpdate → preRender → render → postRender', () => {
    const loop = new FixedLoop();
    const log: string[] = [];
    const adapter: LoopAdapter = {
      beginFrame: () => log.push('beginFrame'),
      beforeSteps: () => log.push('beforeSteps'),
      physicsStep: () => log.push('physics'),
      afterStep: () => log.push('afterStep'),
      interpolate: (l) => log.push(`interpolate ${l.alpha.toFixed(2)}`),
      render: () => log.push('render'),
    };
    loop.addAdapter(adapter);
    loop.onFrameStart(() => log.push('frameStart'));
    loop.onFixedUpdate((_dt, tick) => log.push(`fixedUpdate ${tick}`));
    loop.onPostSimulation((_dt, tick) => log.push(`postSimulation ${tick}`));
    loop.onUpdate(() => log.push('update'));
    loop.onLateUpdate(() => log.push('lateUpdate'));
    loop.onPreRender(() => log.push('preRender'));
    loop.onPostRender(() => log.push('postRender'));
    loop.advance(2.5 / 60);
    expect(log).toEqual([
      'frameStart',
      'beginFrame',
      'beforeSteps',
      'fixedUpdate 0',
      'physics',
      'postSimulation 0',
      'afterStep',
      'fixedUpdate 1',
      'physics',
      'postSimulation 1',
      'afterStep',
      'interpolate 0.50',
      'update',
      'lateUpdate',
      'preRender',
      'render',
      'postRender',
    ]);
  });

  it('inFixedStep is true only inside the step', () => {
    const loop = new FixedLoop();
    const seen: boolean[] = [];
    loop.onFrameStart(() => seen.push(loop.inFixedStep));
    loop.onFixedUpdate(() => seen.push(loop.inFixedStep));
    loop.onPostSimulation(() => seen.push(loop.inFixedStep));
    loop.onUpdate(() => seen.push(loop.inFixedStep));
    loop.advance(1 / 60);
    expect(seen).toEqual([false, true, true, false]);
  });

  it('delta and alpha reach the per-frame hooks, fixedDelta the step hooks', () => {
    const loop = new FixedLoop({ tickRate: 50 });
    const fixed = vi.fn();
    const update = vi.fn();
    loop.onFixedUpdate(fixed);
    loop.onUpdate(update);
    loop.advance(0.03);
    expect(fixed).toHaveBeenCalledWith(0.02, 0);
    expect(update.mock.calls[0][0]).toBeCloseTo(0.03, 12);
    expect(update.mock.calls[0][1]).toBeCloseTo(0.5, 9);
  });
});

describe('priority and re-entrancy', () => {
  it('lower priority runs first; ties run in subscription order', () => {
    const loop = new FixedLoop();
    const order: string[] = [];
    loop.onUpdate(() => order.push('a0'));
    loop.onUpdate(() => order.push('b200'), { priority: 200 });
    loop.onUpdate(() => order.push('c-5'), { priority: -5 });
    loop.onUpdate(() => order.push('d0'));
    loop.onUpdate(() => order.push('e200'), { priority: 200 });
    loop.advance(0);
    expect(order).toEqual(['c-5', 'a0', 'd0', 'b200', 'e200']);
  });

  it('subscribing during dispatch takes effect on the next dispatch', () => {
    const loop = new FixedLoop();
    const calls: string[] = [];
    loop.onUpdate(() => {
      calls.push('first');
      if (calls.length === 1) loop.onUpdate(() => calls.push('added'));
    });
    loop.onUpdate(() => calls.push('second'));
    loop.advance(0);
    expect(calls).toEqual(['first', 'second']);
    loop.advance(0);
    expect(calls).toEqual(['first', 'second', 'first', 'second', 'added']);
  });

  it('unsubscribing during dispatch never skips or repeats another listener', () => {
    const loop = new FixedLoop();
    const calls: string[] = [];
    let offB: () => void = () => {};
    const offA = loop.onUpdate(() => {
      calls.push('a');
      offA();
      offB();
    });
    offB = loop.onUpdate(() => calls.push('b'));
    loop.onUpdate(() => calls.push('c'));
    loop.advance(0);
    expect(calls).toEqual(['a', 'b', 'c']);
    loop.advance(0);
    expect(calls).toEqual(['a', 'b', 'c', 'c']);
  });

  it('an unsubscribe function may be called twice', () => {
    const loop = new FixedLoop();
    const fn = vi.fn();
    const off = loop.onUpdate(fn);
    off();
    off();
    loop.advance(0);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('listener errors', () => {
  it('a throwing listener reaches onError; the others and the rest of the frame still run; no time is lost', () => {
    const loop = new FixedLoop();
    const errors: [unknown, string][] = [];
    loop.onError((error, source) => errors.push([error, source]));
    const boom = new Error('boom');
    loop.onFixedUpdate(() => {
      throw boom;
    });
    const after = vi.fn();
    loop.onFixedUpdate(after);
    const update = vi.fn();
    loop.onUpdate(update);
    for (let i = 0; i < 60; i++) loop.advance(1 / 60);
    expect(errors).toHaveLength(60);
    expect(errors[0]).toEqual([boom, 'onFixedUpdate']);
    expect(after).toHaveBeenCalledTimes(60);
    expect(update).toHaveBeenCalledTimes(60);
    expect(loop.tick).toBe(60);
    expect(loop.fixedTime).toBeCloseTo(1, 12);
  });

  it('without onError listeners, errors go to console.error', () => {
    const loop = new FixedLoop();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    loop.onUpdate(() => {
      throw new Error('oops');
    });
    loop.advance(0);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(String(spy.mock.calls[0][0])).toMatch(/error in onUpdate/);
    spy.mockRestore();
  });

  it('an onError listener that throws goes to console.error and the loop goes on', () => {
    const loop = new FixedLoop();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    loop.onError(() => {
      throw new Error('handler broke');
    });
    loop.onUpdate(() => {
      throw new Error('oops');
    });
    loop.advance(1 / 60);
    loop.advance(1 / 60);
    expect(loop.tick).toBe(2);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it("errorPolicy 'throw' rethrows the first error after the frame completes", () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    loop.onError(() => {});
    const first = new Error('first');
    loop.onFixedUpdate(() => {
      throw first;
    });
    const postRender = vi.fn();
    loop.onPostRender(postRender);
    expect(() => loop.advance(2 / 60)).toThrow(first);
    expect(postRender).toHaveBeenCalledTimes(1);
    expect(loop.tick).toBe(2);
  });

  it('a throwing adapter is reported like a listener', () => {
    const loop = new FixedLoop();
    const sources: string[] = [];
    loop.onError((_e, source) => sources.push(source));
    loop.addAdapter({
      physicsStep: () => {
        throw new Error('physics');
      },
    });
    loop.advance(1 / 60);
    expect(sources).toEqual(['adapter.physicsStep']);
    expect(loop.tick).toBe(1);
  });
});

describe('lifecycle', () => {
  it('dispose from inside a hook finishes the frame without further listeners', () => {
    const loop = new FixedLoop();
    const detach = vi.fn();
    loop.addAdapter({ detach });
    const later = vi.fn();
    loop.onFixedUpdate(() => loop.dispose());
    loop.onFixedUpdate(later);
    loop.onUpdate(later);
    const info = loop.advance(3 / 60);
    expect(info.steps).toBe(1);
    expect(loop.tick).toBe(1);
    expect(later).not.toHaveBeenCalled();
    expect(detach).toHaveBeenCalledTimes(1);
    expect(loop.disposed).toBe(true);
    expect(loop.advance(1).steps).toBe(0);
  });

  it('resetInterpolation reaches every adapter', () => {
    const loop = new FixedLoop();
    const reset = vi.fn();
    loop.addAdapter({ resetInterpolation: reset });
    loop.resetInterpolation();
    expect(reset).toHaveBeenCalledTimes(1);
  });

  it('removing an adapter detaches it and stops its calls', () => {
    const loop = new FixedLoop();
    const render = vi.fn();
    const detach = vi.fn();
    const remove = loop.addAdapter({ render, detach });
    loop.advance(0);
    remove();
    loop.advance(0);
    expect(render).toHaveBeenCalledTimes(1);
    expect(detach).toHaveBeenCalledTimes(1);
  });

  it('a frame started from inside a frame is refused', () => {
    const loop = new FixedLoop();
    const errors: unknown[] = [];
    loop.onError((e) => errors.push(e));
    loop.onUpdate(() => loop.advance(1));
    loop.advance(0);
    expect(String(errors[0])).toMatch(/re-entrant/);
    expect(loop.frameCount).toBe(1);
  });

  it('the FrameInfo object is reused, so frames allocate nothing', () => {
    const loop = new FixedLoop();
    expect(loop.advance(0)).toBe(loop.advance(1 / 60));
    expect(loop.lastFrame).toBe(loop.advance(0));
  });
});
