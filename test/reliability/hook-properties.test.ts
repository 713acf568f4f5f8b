/**
 * Hook dispatch as a property: listeners that subscribe and unsubscribe listeners (of their own
 * hook or any other, themselves included, twice over) from inside a dispatch. Each dispatch must
 * call exactly the listeners subscribed when it began, each once, in priority then subscription
 * order — also when listeners start frames of their own from inside the dispatch (refused, with
 * no effect on the frame under way). 1 000 random runs from a fixed seed (in the title).
 */
import { FixedLoop } from '@fixedtick/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extremeSeconds, PROPERTY_RUNS, SEED } from './arbitraries.ts';
import { FRAME_HOOKS } from './loop-model.ts';

const HOOKS = FRAME_HOOKS;
type HookName = (typeof HOOKS)[number];

type Action =
  | { type: 'subscribe'; hook: HookName; priority: number }
  | { type: 'unsubscribe'; pick: number }
  | { type: 'unsubscribeSelf' }
  | { type: 'unsubscribeTwice'; pick: number }
  | { type: 'nestFrame'; call: 'advance' | 'frame' | 'frameAfterGap' | 'stepOnce'; value: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    type: fc.constant('subscribe' as const),
    hook: fc.constantFrom(...HOOKS),
    priority: fc.integer({ min: -3, max: 3 }),
  }),
  fc.record({ type: fc.constant('unsubscribe' as const), pick: fc.nat() }),
  fc.constant({ type: 'unsubscribeSelf' as const }),
  fc.record({ type: fc.constant('unsubscribeTwice' as const), pick: fc.nat() }),
  fc.record({
    type: fc.constant('nestFrame' as const),
    call: fc.constantFrom(
      'advance' as const,
      'frame' as const,
      'frameAfterGap' as const,
      'stepOnce' as const,
    ),
    value: fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      extremeSeconds,
      fc.constant(1.7e12),
    ),
  }),
);

interface Entry {
  id: number;
  hook: HookName;
  priority: number;
  seq: number;
  off: () => void;
}

/** The listeners' behaviours: listener `id` runs `behaviours[id % n]` on its first call. */
const scenario = fc.record({
  initial: fc.array(
    fc.record({ hook: fc.constantFrom(...HOOKS), priority: fc.integer({ min: -3, max: 3 }) }),
    { minLength: 1, maxLength: 12 },
  ),
  behaviours: fc.array(fc.array(action, { maxLength: 3 }), { minLength: 1, maxLength: 8 }),
  frames: fc.array(fc.double({ min: 0, max: 0.06, noNaN: true }), { minLength: 1, maxLength: 12 }),
});

describe(`hook dispatch property (1 000 random runs, seed ${SEED})`, () => {
  it('no listener is skipped or called twice in one dispatch, whatever listeners do to the list', () => {
    fc.assert(
      fc.property(scenario, ({ initial, behaviours, frames }) => {
        // 'throw': an assertion failing inside a listener fails the case
        const loop = new FixedLoop({ maxStepsPerFrame: 4, errorPolicy: 'throw' });
        const active = new Map<HookName, Entry[]>(HOOKS.map((h) => [h, []]));
        const dispatches: { hook: HookName; expected: number[]; actual: number[] }[] = [];
        const current = new Map<HookName, { expected: number[]; actual: number[] }>();
        let nextId = 0;
        let seq = 0;
        let nestedCalls = 0;
        let nestedRefused = 0;

        const remove = (entry: Entry): void => {
          const list = active.get(entry.hook) ?? [];
          const at = list.indexOf(entry);
          if (at >= 0) list.splice(at, 1);
          entry.off();
        };
        const all = (): Entry[] => HOOKS.flatMap((h) => active.get(h) ?? []);

        const subscribe = (hook: HookName, priority: number): void => {
          if (nextId >= 150) return; // keep a case small
          const id = nextId++;
          let calls = 0;
          const entry: Entry = { id, hook, priority, seq: seq++, off: () => {} };
          const listener = (a: unknown, b: unknown): void => {
            // plain checks: `expect` per listener call would dominate the run time
            if (typeof a !== 'number' || typeof b !== 'number') {
              throw new Error(`${hook} got (${String(a)}, ${String(b)}): not numbers`);
            }
            if (!Number.isFinite(a) || !Number.isFinite(b)) {
              throw new Error(`${hook} got (${a}, ${b}): not finite`);
            }
            current.get(hook)?.actual.push(id);
            if (calls++ > 0) return;
            for (const act of behaviours[id % behaviours.length]) {
              const pool = all();
              if (act.type === 'subscribe') subscribe(act.hook, act.priority);
              else if (act.type === 'unsubscribeSelf') remove(entry);
              else if (act.type === 'nestFrame') {
                nestedCalls++;
                try {
                  if (act.call === 'stepOnce') loop.stepOnce();
                  else loop[act.call](act.value);
                } catch (error) {
                  if (String(error).includes('inside a frame')) nestedRefused++;
                }
              } else if (pool.length > 0) {
                const victim = pool[act.pick % pool.length];
                remove(victim);
                if (act.type === 'unsubscribeTwice') victim.off();
              }
            }
          };
          entry.off = loop[hook](listener, { priority });
          active.get(hook)?.push(entry);
        };

        // a sentinel first in every hook opens a dispatch record with the listeners subscribed now
        for (const hook of HOOKS) {
          loop[hook](
            () => {
              const expected = [...(active.get(hook) ?? [])]
                .sort((x, y) => x.priority - y.priority || x.seq - y.seq)
                .map((e) => e.id);
              const record = { hook, expected, actual: [] as number[] };
              dispatches.push(record);
              current.set(hook, record);
            },
            { priority: Number.NEGATIVE_INFINITY },
          );
        }
        for (const { hook, priority } of initial) subscribe(hook, priority);
        const before = { tick: 0, frames: 0 };
        for (const seconds of frames) {
          const info = loop.advance(seconds);
          before.frames++;
          before.tick += info.steps;
        }
        // nested frames were refused and changed nothing: frames and steps are the outer ones
        expect(nestedRefused).toBe(nestedCalls);
        expect([loop.stats.frames, loop.tick, loop.stats.anomalies]).toEqual([
          before.frames,
          before.tick,
          0,
        ]);

        expect(dispatches.length).toBeGreaterThanOrEqual(5 * frames.length);
        for (const d of dispatches) {
          if (d.actual.join() !== d.expected.join()) expect(d.actual).toEqual(d.expected);
        }
      }),
      PROPERTY_RUNS,
    );
  });
});
