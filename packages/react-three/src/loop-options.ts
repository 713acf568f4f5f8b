import {
  DEFAULT_FIXED_DELTA,
  DEFAULT_MAX_DELTA_TIME,
  DEFAULT_MAX_STEPS_PER_FRAME,
  type ThreeFixedLoop,
  type ThreeFixedLoopOptions,
} from '@fixedtick/three';

/**
 * The loop options `<FixedTick>` takes as props: every `FixedLoop` option and three's
 * `defaultInterpolation`. Not `renderer`, `scene` or `camera`: R3F draws its own scene.
 */
export type FixedTickLoopOptions = Omit<ThreeFixedLoopOptions, 'renderer' | 'scene' | 'camera'>;

type Key = keyof FixedTickLoopOptions;

/**
 * What a prop that is removed goes back to: each option's default (the same the loop starts
 * with). `tickRate` has none of its own: `fixedDelta`'s stands for both.
 */
const DEFAULTS = {
  fixedDelta: DEFAULT_FIXED_DELTA,
  tickRate: undefined,
  maxDeltaTime: DEFAULT_MAX_DELTA_TIME,
  maxStepsPerFrame: DEFAULT_MAX_STEPS_PER_FRAME,
  timeScale: 1,
  jitterFix: 0,
  captureDeltaTime: 0,
  errorPolicy: 'report',
  defaultInterpolation: 'interpolate',
} as const satisfies Record<Key, unknown>;

const KEYS = Object.keys(DEFAULTS) as Key[];

/**
 * The loop options among `props` (all but `children` and `framePriority`), in a new object. An
 * unknown key stays in, for {@link applyLoopOptions} to reject: a typo such as `tickrate` fails
 * loudly instead of silently keeping the default.
 */
export function pickLoopOptions(props: Record<string, unknown>): FixedTickLoopOptions {
  const options: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    if (key !== 'children' && key !== 'framePriority') options[key] = props[key];
  }
  return options as FixedTickLoopOptions;
}

/**
 * Applies the options that differ between `applied` and `next` to the live loop (every option is
 * a live property: a change applies from the next frame, and a new `fixedDelta` keeps the
 * accumulated time), and records them in `applied`. A removed prop goes back to its default.
 * `<FixedTick>` builds its loop with no options and applies its props through here, so the
 * first render and every later one take the same path. A bad value throws the loop's
 * `RangeError` naming it; an unknown key, or `tickRate` and `fixedDelta` that disagree, throw
 * one too.
 */
export function applyLoopOptions(
  loop: ThreeFixedLoop,
  applied: Record<string, unknown>,
  next: FixedTickLoopOptions,
): void {
  const values = next as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    if (!(key in DEFAULTS)) {
      throw new RangeError(
        `fixedtick: unknown <FixedTick> option "${key}" (known: ${KEYS.join(', ')})`,
      );
    }
  }
  const target = loop as unknown as Record<string, unknown>;
  // the step first, from whichever of the two is given, so the other options see the new rate
  if (values.tickRate !== applied.tickRate || values.fixedDelta !== applied.fixedDelta) {
    const { tickRate, fixedDelta } = values as { tickRate?: number; fixedDelta?: number };
    if (
      tickRate !== undefined &&
      fixedDelta !== undefined &&
      !(Math.abs(1 / tickRate - fixedDelta) <= 1e-12)
    ) {
      throw new RangeError(
        `fixedtick: <FixedTick> options "fixedDelta" (${fixedDelta}) and "tickRate" (${tickRate}) disagree; give one of them`,
      );
    }
    if (tickRate !== undefined) loop.tickRate = tickRate;
    else loop.fixedDelta = fixedDelta === undefined ? DEFAULT_FIXED_DELTA : fixedDelta;
    applied.tickRate = values.tickRate;
    applied.fixedDelta = values.fixedDelta;
  }
  for (const key of KEYS) {
    if (key === 'tickRate' || key === 'fixedDelta' || values[key] === applied[key]) continue;
    // null is refused by the loop's setter, as in its options: only undefined means the default
    target[key] = values[key] === undefined ? DEFAULTS[key] : values[key];
    applied[key] = values[key];
  }
}
