/**
 * Default seconds of game time per fixed step: 1/60 s.
 *
 * 60 Hz is what Godot (`physics_ticks_per_second`) and Roblox's simulation pipeline use, so
 * ported scripts keep their feel. Against a 60 Hz display it can alternate 0- and 2-step frames
 * when vsync jitters around the step boundary; Bevy picks 64 Hz for that reason. Use
 * `presets.bevy` or `jitterFix` (Godot) if that matters to you.
 */
export const DEFAULT_FIXED_DELTA = 1 / 60;

/**
 * Default clamp of one frame's scaled time: 0.25 s (Glenn Fiedler, "Fix Your Timestep!"; Bevy's
 * `Time<Virtual>` `max_delta`).
 *
 * A frame that would advance the game more than this (a breakpoint, a hidden tab, a GC pause) is
 * treated as 0.25 s and the rest is dropped: simulating it would need a burst of steps that makes
 * the next frame longer still (the "death spiral").
 */
export const DEFAULT_MAX_DELTA_TIME = 0.25;

/**
 * Default cap on fixed steps per frame: `'auto'`, the steps of {@link AUTO_MAX_STEPS_SECONDS}
 * (2/15 s) at the current tick rate — 8 at 60 Hz (Godot's `max_physics_steps_per_frame`), 40 at
 * 300 Hz — following `fixedDelta` until a number is set.
 *
 * A fixed number would tie the cap to one tick rate: 8 steps at 300 Hz are 27 ms of game time,
 * so a 300 Hz game at 30 fps (10 steps due per frame) would silently run at 80 % speed.
 */
export const DEFAULT_MAX_STEPS_PER_FRAME = 'auto';

/**
 * Real time the `'auto'` step cap lets one frame simulate: 2/15 s, which is Godot's default cap
 * (8 steps) at Godot's default rate (60 Hz). The game keeps real time down to 7.5 fps at any
 * tick rate, and slows down (instead of spiralling) below that.
 */
export const AUTO_MAX_STEPS_SECONDS = 2 / 15;

/**
 * Tolerance (seconds) with which the accumulator is compared to the fixed step: 1 ns.
 *
 * Frame times such as 1/144 s are not exact in binary, so a naive `acc >= fixedDelta` loses a
 * step now and then (239 instead of 240 steps from 2 s of 144 fps frames at 120 Hz). One
 * nanosecond is far above float rounding at game time scales and far below any real frame time.
 * A frame from `frame(timestampMs)` uses the timestamps' own rounding instead when that is
 * coarser (a `Date.now()`-sized timestamp, ~1.7e12 ms, is exact to ~0.2 µs), up to
 * {@link MAX_TOLERANCE_STEPS} of a step.
 */
export const STEP_TOLERANCE = 1e-9;

/**
 * The largest share of a step the tolerance may reach for coarse timestamps: 1/1024. A clock
 * coarser than that cannot place a step boundary anyway; the step then waits for the time.
 */
export const MAX_TOLERANCE_STEPS = 1 / 1024;

/**
 * The longest fixed step, in seconds: 1 (so `tickRate` ≥ 1 Hz, the least Godot's
 * `physics_ticks_per_second` takes too). A longer step is almost always milliseconds given as
 * seconds (`fixedDelta: 16`, which would run no step in ten seconds), so the error says so.
 */
export const MAX_FIXED_DELTA = 1;

/**
 * The longest duration an option accepts, in seconds: 1e9 (about 31.7 years) — for
 * `maxDeltaTime` (or `Infinity`), `captureDeltaTime` and `accumulateOverstep`. Longer than any step or frame a game has, and small enough that
 * every sum and product the loop keeps (`tick × fixedDelta`, the accumulator) stays finite.
 */
export const MAX_DURATION = 1e9;
