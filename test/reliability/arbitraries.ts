/**
 * fast-check generators shared by the reliability properties: frame times (sane, tiny, huge and
 * broken), timestamp jumps, and the option values a user may set on a live loop.
 *
 * The ranges keep each case cheap (a few hundred steps at most per frame) without hiding edge
 * cases: both clamps can be switched off, but never both at once, because a loop with neither
 * clamp is asked to simulate whatever it is fed (a 10⁷ s frame would be 6·10⁸ steps).
 */
import fc from 'fast-check';

/** Number of cases per property (the contract: 1 000). */
export const RUNS = 1000;

/**
 * The seed every property runs with, so a run is reproducible and a failure can be replayed:
 * `FIXEDTICK_SEED=… npx vitest run test/reliability`. It is in each suite's title; fast-check
 * also prints it (with the path of the shrunk counterexample) when a property fails.
 */
export const SEED = Number(process.env.FIXEDTICK_SEED ?? 20_261_201);

/** The `fc.assert` parameters of every property: {@link RUNS} cases from {@link SEED}. */
export const PROPERTY_RUNS = { numRuns: RUNS, seed: SEED } as const;

/**
 * Frame times at the edges of the doubles: the largest finite ones (whose sums and products
 * overflow), subnormals, and their negatives.
 */
export const extremeSeconds: fc.Arbitrary<number> = fc.constantFrom(
  Number.MAX_VALUE,
  1.7e308,
  8.9e307,
  1e308,
  Number.MIN_VALUE,
  1e-320,
  2.2250738585072014e-308,
  -Number.MAX_VALUE,
  -Number.MIN_VALUE,
  -0,
);

/** Absolute timestamps in ms at the edges of the doubles (for `frame(t)` as given). */
export const extremeTimestampMs: fc.Arbitrary<number> = fc.constantFrom(
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1.7e308,
  -1.7e308,
  8.6e15,
  -8.6e15,
  Number.MIN_VALUE,
  0,
);

/** Where a test's timestamp clock starts: a `performance.now()` one or a `Date.now()` one. */
export const clockOriginMs: fc.Arbitrary<number> = fc.constantFrom(1000, 1.7e12, 6e10, 2 ** 42);

/** A frame time in seconds as `advance()` may receive it, broken values included. */
export const frameSeconds: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 0.001, max: 0.1, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom(0, 1 / 144, 1 / 120, 1 / 60, 1 / 30, 0.02, 0.25) },
  // just under / over a 60 Hz step: where the 1 ns tolerance decides
  {
    weight: 2,
    arbitrary: fc.constantFrom(1 / 60 - 1e-9, 1 / 60 - 2e-9, 1 / 60 + 1e-12, 1 / 60 - 1e-10),
  },
  { weight: 2, arbitrary: fc.double({ min: 1e-15, max: 1e-6, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: 0.1, max: 5, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 1e3, max: 1e7, noNaN: true }) },
  // absurd but finite (a clock in the wrong unit, a corrupted timestamp): beyond float-exact
  // step counts when neither clamp stops them
  { weight: 1, arbitrary: fc.constantFrom(1e16, 3.3e22, 7.1e24, 9.9e28, 1e300) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      Number.NaN,
      -0.016,
      -1e-12,
      -3600,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -0,
    ),
  },
);

/** How far the next rAF timestamp is from the last one, in ms (negative = clock went back). */
export const timestampStepMs: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 1, max: 100, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1000 / 144, 1000 / 60, 1000 / 30) },
  { weight: 1, arbitrary: fc.double({ min: 1e-9, max: 1e-3, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 100, max: 6e5, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(-3.6e6, -16.7, -1e-6, -1) },
);

/** A timestamp that is not a finite number. */
export const brokenTimestamp: fc.Arbitrary<number> = fc.constantFrom(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
);

/** A live option change `loop[name] = value`, with valid values only. */
export type OptionChange =
  | { option: 'fixedDelta'; value: number }
  | { option: 'tickRate'; value: number }
  | { option: 'timeScale'; value: number }
  | { option: 'maxDeltaTime'; value: number }
  | { option: 'maxStepsPerFrame'; value: number }
  | { option: 'jitterFix'; value: number }
  | { option: 'captureDeltaTime'; value: number };

/** Option changes, `jitterFix` excluded unless `withJitter`. */
export function optionChange(withJitter: boolean): fc.Arbitrary<OptionChange> {
  const options: fc.Arbitrary<OptionChange>[] = [
    fc.record({
      option: fc.constant('fixedDelta' as const),
      value: fc.oneof(
        fc.constantFrom(1 / 60, 0.02, 1 / 64, 0.01, 1 / 30, 0.1, 1 / 240),
        fc.double({ min: 1 / 240, max: 0.1, noNaN: true }),
      ),
    }),
    fc.record({
      option: fc.constant('tickRate' as const),
      value: fc.constantFrom(10, 30, 50, 60, 64, 120, 144, 240),
    }),
    fc.record({
      option: fc.constant('timeScale' as const),
      value: fc.oneof(
        fc.constantFrom(0, 0.5, 1, 2),
        fc.double({ min: 0, max: 4, noNaN: true }),
        fc.double({ min: 1e-9, max: 1e-3, noNaN: true }),
      ),
    }),
    fc.record({
      option: fc.constant('maxDeltaTime' as const),
      value: fc.constantFrom(0.001, 0.05, 0.1, 0.25, 1 / 3, 2, Number.POSITIVE_INFINITY),
    }),
    fc.record({
      option: fc.constant('maxStepsPerFrame' as const),
      value: fc.constantFrom(1, 2, 3, 5, 8, 16, Number.POSITIVE_INFINITY),
    }),
    fc.record({
      option: fc.constant('captureDeltaTime' as const),
      value: fc.constantFrom(0, 0, 0, 1 / 60, 1 / 144, 0.02, 0.3),
    }),
  ];
  if (withJitter) {
    options.push(
      fc.record({
        option: fc.constant('jitterFix' as const),
        value: fc.constantFrom(0, 0, 0.25, 0.5, 1, 2),
      }),
    );
  }
  return fc.oneof(...options);
}

/**
 * Applies an option change, except one that would switch both clamps off at once (see the
 * module doc): that one is replaced by the default clamp.
 */
export function applyOption(
  loop: { maxDeltaTime: number; maxStepsPerFrame: number } & Record<string, unknown>,
  change: OptionChange,
): void {
  const inf = Number.POSITIVE_INFINITY;
  if (change.option === 'maxDeltaTime' && change.value === inf && loop.maxStepsPerFrame === inf) {
    loop.maxDeltaTime = 0.25;
    return;
  }
  if (change.option === 'maxStepsPerFrame' && change.value === inf && loop.maxDeltaTime === inf) {
    loop.maxStepsPerFrame = 8;
    return;
  }
  loop[change.option] = change.value;
}
