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
 * Default clamp of one frame's unscaled time: 0.25 s (Glenn Fiedler, "Fix Your Timestep!").
 *
 * A frame longer than this (a breakpoint, a hidden tab, a GC pause) is treated as 0.25 s and the
 * rest is dropped: simulating it would need a burst of steps that makes the next frame longer
 * still (the "death spiral").
 */
export const DEFAULT_MAX_DELTA_TIME = 0.25;

/**
 * Default cap on fixed steps per frame: 8 (Godot's `max_physics_steps_per_frame`).
 *
 * With the 1/60 s step this lets the simulation keep real time down to 7.5 fps; below that the
 * game slows down instead of spiralling.
 */
export const DEFAULT_MAX_STEPS_PER_FRAME = 8;

/**
 * Tolerance (seconds) with which the accumulator is compared to the fixed step: 1 ns.
 *
 * Frame times such as 1/144 s are not exact in binary, so a naive `acc >= fixedDelta` loses a
 * step now and then (239 instead of 240 steps from 2 s of 144 fps frames at 120 Hz). One
 * nanosecond is far above float rounding at game time scales and far below any real frame time.
 */
export const STEP_TOLERANCE = 1e-9;
