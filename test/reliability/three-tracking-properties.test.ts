/**
 * The three.js adapter under random track / untrack / teleport operations issued from inside every
 * kind of hook (and from an adapter during the interpolation pass), with random frame times.
 * After every frame each object must show exactly what the adapters' rule promises:
 *
 * - tracked, no pending teleport: its interpolated pose — `lerp(prev, curr, alpha)` for
 *   `'interpolate'`, `curr` for `'none'`, `curr + (curr − prev)·alpha` for `'extrapolate'` —
 *   where prev/curr are the simulation poses the test saw in `postSimulation`;
 * - tracked, written outside the fixed step after the interpolation pass: the written pose (the
 *   teleport is adopted, with its tracked descendants reset, at the next frame);
 * - untracked: the pose it was left at, untouched.
 *
 * Nothing is ever NaN and `trackedCount` matches. 1 000 random runs (real three.js objects).
 */
import { type LoopAdapter, ThreeFixedLoop } from '@fixedtick/three';
import fc from 'fast-check';
import { Group, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { RUNS } from './arbitraries.ts';

const N = 6;
/** Scene graph: 1 under 0; 3 under 2; 4 under 3; 5 alone. */
const PARENT = [-1, 0, -1, 2, 3, -1];
const MODES = ['interpolate', 'none', 'extrapolate'] as const;
const HOOKS = ['onFrameStart', 'onFixedUpdate', 'onUpdate', 'onLateUpdate', 'onPreRender'] as const;
const OUTSIDE_STEP = ['onFrameStart', 'onUpdate', 'onLateUpdate', 'onPreRender'] as const;

type Action =
  | { type: 'track'; target: number; mode: (typeof MODES)[number]; where: (typeof HOOKS)[number] }
  | { type: 'untrack'; target: number; where: (typeof HOOKS)[number] | 'interpolation' }
  | { type: 'teleport'; target: number; x: number; where: (typeof OUTSIDE_STEP)[number] }
  | { type: 'resetAll'; where: (typeof HOOKS)[number] };

const target = fc.integer({ min: 0, max: N - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    type: fc.constant('track' as const),
    target,
    mode: fc.constantFrom(...MODES),
    where: fc.constantFrom(...HOOKS),
  }),
  fc.record({
    type: fc.constant('untrack' as const),
    target,
    where: fc.constantFrom(...HOOKS, 'interpolation' as const),
  }),
  fc.record({
    type: fc.constant('teleport' as const),
    target,
    x: fc.integer({ min: -1000, max: 1000 }),
    where: fc.constantFrom(...OUTSIDE_STEP),
  }),
  fc.record({ type: fc.constant('resetAll' as const), where: fc.constantFrom(...HOOKS) }),
);
const frame = fc.record({
  seconds: fc.oneof(
    fc.double({ min: 0, max: 0.08, noNaN: true }),
    fc.constantFrom(0, 1 / 144, 1 / 60, 1 / 30),
  ),
  actions: fc.array(action, { maxLength: 4 }),
});

/** A cheap assertion for the hot loop (1 000 runs × thousands of checks; `expect` is slow). */
function check(ok: boolean, what: string, actual?: unknown, expected?: unknown): void {
  if (!ok) throw new Error(`${what}: got ${String(actual)}, expected ${String(expected)}`);
}

interface Body {
  object: Object3D;
  tracked: boolean;
  mode: (typeof MODES)[number];
  /** The mode the last interpolation pass used (a change after it shows from the next frame). */
  shownMode: (typeof MODES)[number];
  prev: number;
  curr: number;
  /** A pose written outside the step, not yet adopted by the adapter. */
  pending: number | undefined;
  velocity: number;
  /** An action ran on it during the current frame. */
  touched: boolean;
  /** `resetInterpolation()` ran inside the step under way: previous = current when it ends. */
  resetAfterStep: boolean;
}

describe('three adapter under random track/untrack/teleport from inside hooks (1 000 runs)', () => {
  it('every object shows exactly the pose the adapters’ rule promises, after every frame', () => {
    // what the random runs exercised, so a generator change cannot quietly test nothing
    const seen = { teleports: 0, untrackInInterpolation: 0, untrackInStep: 0, trackTwice: 0 };
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 25 }), (frames) => {
        const loop = new ThreeFixedLoop({ tickRate: 60, errorPolicy: 'throw' });
        const root = new Group();
        const bodies: Body[] = [];
        for (let i = 0; i < N; i++) {
          const object = new Group();
          object.name = `body${i}`;
          (PARENT[i] < 0 ? root : bodies[PARENT[i]].object).add(object);
          object.position.set(i * 10, 0, 0);
          bodies.push({
            object,
            tracked: false,
            mode: 'interpolate',
            shownMode: 'interpolate',
            prev: 0,
            curr: 0,
            pending: undefined,
            velocity: (i + 1) * 3,
            touched: false,
            resetAfterStep: false,
          });
        }
        const isBelow = (i: number, ancestor: number): boolean => {
          for (let p = PARENT[i]; p >= 0; p = PARENT[p]) if (p === ancestor) return true;
          return false;
        };

        const run = (a: Action): void => {
          if (a.type === 'resetAll') {
            loop.resetInterpolation();
            for (const b of bodies) {
              if (!b.tracked) continue;
              if (loop.inFixedStep) {
                // Godot: interpolation is off until the step under way is complete
                b.resetAfterStep = true;
                continue;
              }
              b.curr = b.pending ?? b.object.position.x;
              b.prev = b.curr;
              b.pending = undefined;
            }
            return;
          }
          const b = bodies[a.target];
          b.touched = true;
          if (a.type === 'track') {
            if (b.tracked) seen.trackTwice++;
            loop.track(b.object, { interpolation: a.mode });
            if (!b.tracked) {
              b.tracked = true;
              b.prev = b.object.position.x;
              b.curr = b.prev;
            }
            b.mode = a.mode;
          } else if (a.type === 'untrack') {
            check(loop.untrack(b.object) === b.tracked, 'untrack() tells whether it was tracked');
            if (b.tracked && a.where === 'interpolation') seen.untrackInInterpolation++;
            if (b.tracked && loop.inFixedStep) seen.untrackInStep++;
            if (b.tracked && !loop.inFixedStep && b.pending === undefined) {
              // outside the step an untracked object is left at its simulation pose
              b.object.position.x = b.curr;
            }
            b.tracked = false;
            b.pending = undefined;
            b.resetAfterStep = false;
          } else {
            b.object.position.x = a.x;
            if (b.tracked) b.pending = a.x;
          }
        };

        // the test's own adapter, after the tracker: adopts teleports into the model right after
        // the tracker did, and runs the "untrack during the interpolation pass" actions
        let interpolationActions: Action[] = [];
        const observer: LoopAdapter = {
          beginFrame: () => {
            for (let i = 0; i < N; i++) {
              const b = bodies[i];
              if (b.pending === undefined) continue;
              b.curr = b.pending;
              b.prev = b.pending;
              b.pending = undefined;
              seen.teleports++;
              for (let j = 0; j < N; j++) {
                if (bodies[j].tracked && isBelow(j, i)) bodies[j].prev = bodies[j].curr;
              }
            }
          },
          interpolate: () => {
            for (const b of bodies) b.shownMode = b.mode;
            for (const a of interpolationActions) run(a);
          },
        };
        loop.addAdapter(observer);
        loop.onFixedUpdate((dt) => {
          for (const b of bodies) if (b.tracked) b.object.position.x += b.velocity * dt;
        });
        loop.onPostSimulation(() => {
          for (const b of bodies) {
            if (!b.tracked) continue;
            b.prev = b.resetAfterStep ? b.object.position.x : b.curr;
            b.curr = b.object.position.x;
            b.resetAfterStep = false;
          }
        });

        for (const { seconds, actions } of frames) {
          interpolationActions = actions.filter((a) => a.where === 'interpolation');
          for (const a of actions) {
            if (a.where === 'interpolation') continue;
            const off = loop[a.where](
              () => {
                off();
                run(a);
              },
              { priority: a.type === 'teleport' ? 1 : -1 },
            );
          }
          // an untracked object's pose must not be touched by the loop
          const frozen = bodies.map((b) => b.object.position.x);
          for (const b of bodies) b.touched = false;
          loop.advance(seconds);
          const alpha = loop.alpha;
          let tracked = 0;
          for (let i = 0; i < N; i++) {
            const b = bodies[i];
            const { position, quaternion, scale } = b.object;
            for (const v of [...position.toArray(), ...quaternion.toArray(), ...scale.toArray()]) {
              check(Number.isFinite(v), `body${i} pose is finite`, v);
            }
            check(Math.abs(quaternion.length() - 1) < 1e-12, `body${i} rotation is normalised`);
            if (!b.tracked) {
              if (!b.touched) check(position.x === frozen[i], `untracked body${i} left alone`);
              continue;
            }
            tracked++;
            const x = position.x;
            if (b.pending !== undefined) {
              check(x === b.pending, `body${i} shows the pose written to it`, x, b.pending);
              continue;
            }
            const expected =
              b.shownMode === 'none'
                ? b.curr
                : b.shownMode === 'interpolate'
                  ? b.prev + (b.curr - b.prev) * alpha
                  : b.curr + (b.curr - b.prev) * alpha;
            check(
              Math.abs(x - expected) <= 1e-9 * (1 + Math.abs(expected)),
              `body${i} (${b.shownMode}) at alpha ${alpha}`,
              x,
              expected,
            );
          }
          check(loop.trackedCount === tracked, 'trackedCount', loop.trackedCount, tracked);
        }
        expect(loop.stats.frames).toBe(frames.length);
      }),
      { numRuns: RUNS },
    );
    expect(seen.teleports).toBeGreaterThan(100);
    expect(seen.untrackInInterpolation).toBeGreaterThan(50);
    expect(seen.untrackInStep).toBeGreaterThan(50);
    expect(seen.trackTwice).toBeGreaterThan(100);
  });
});
