import type { FixedLoopOptions } from './options.ts';

/** A named set of loop options mirroring an engine's defaults. Spread it into the options. */
export type Preset = Readonly<
  Required<Pick<FixedLoopOptions, 'fixedDelta' | 'maxDeltaTime' | 'jitterFix'>> & {
    /** The engine's own step cap (a number: presets keep theirs whatever the tick rate). */
    maxStepsPerFrame: number;
  }
>;

/**
 * Loop settings that reproduce each engine's defaults, so a ported game keeps its timing:
 * `new FixedLoop({ ...presets.godot, timeScale: 0.5 })`.
 *
 * | preset | fixedDelta | maxDeltaTime | maxStepsPerFrame | jitterFix |
 * |---|---|---|---|---|
 * | unity | 0.02 | 1/3 | Infinity | 0 |
 * | godot | 1/60 | Infinity | 8 | 0 |
 * | roblox | 1/60 | 0.25 | Infinity | 0 |
 * | fiedler | 0.01 | 0.25 | Infinity | 0 |
 * | bevy | 1/64 | 0.25 | Infinity | 0 |
 */
export const presets = Object.freeze({
  /**
   * Unity: `Time.fixedDeltaTime` defaults to 0.02 s (50 Hz) and `Time.maximumDeltaTime` to
   * 1/3 s; Unity has no separate step cap (the clamp bounds the steps: at most 16 per frame).
   * @see https://docs.unity3d.com/ScriptReference/Time-maximumDeltaTime.html
   */
  unity: Object.freeze({
    fixedDelta: 0.02,
    maxDeltaTime: 1 / 3,
    maxStepsPerFrame: Number.POSITIVE_INFINITY,
    jitterFix: 0,
  }),
  /**
   * Godot 4: `physics/common/physics_ticks_per_second` = 60 and
   * `max_physics_steps_per_frame` = 8 (below 7.5 fps the game slows down); Godot clamps no frame
   * time. `physics_jitter_fix` is 0, not Godot's 0.5. Godot's class reference (`Engine`): "For
   * best results, when using a custom physics interpolation solution, the physics jitter fix
   * should be disabled by setting physics_jitter_fix to 0." Fixedtick interpolates. The fix at 0.5 lets a frame run up to half a step (8.3 ms at 60 Hz)
   * early or late, which interpolation would then show; set `jitterFix: 0.5` for Godot's
   * uninterpolated default.
   * @see https://docs.godotengine.org/en/stable/classes/class_projectsettings.html
   */
  godot: Object.freeze({
    fixedDelta: 1 / 60,
    maxDeltaTime: Number.POSITIVE_INFINITY,
    maxStepsPerFrame: 8,
    jitterFix: 0,
  }),
  /**
   * Roblox: the simulation pipeline runs at 60 Hz. Roblox documents no clamp; 0.25 s is ours
   * (Fiedler's), so a hidden tab does not burst.
   */
  roblox: Object.freeze({
    fixedDelta: 1 / 60,
    maxDeltaTime: 0.25,
    maxStepsPerFrame: Number.POSITIVE_INFINITY,
    jitterFix: 0,
  }),
  /**
   * Glenn Fiedler, "Fix Your Timestep!": `dt = 0.01` and a frame time clamped to 0.25 s.
   * @see https://gafferongames.com/post/fix_your_timestep/
   */
  fiedler: Object.freeze({
    fixedDelta: 0.01,
    maxDeltaTime: 0.25,
    maxStepsPerFrame: Number.POSITIVE_INFINITY,
    jitterFix: 0,
  }),
  /**
   * Bevy: `Time<Fixed>` defaults to 64 Hz (exact in binary, and it does not beat against 60 Hz
   * displays), `Time<Virtual>::max_delta` to 250 ms.
   * @see https://docs.rs/bevy/latest/bevy/time/struct.Fixed.html
   */
  bevy: Object.freeze({
    fixedDelta: 1 / 64,
    maxDeltaTime: 0.25,
    maxStepsPerFrame: Number.POSITIVE_INFINITY,
    jitterFix: 0,
  }),
} satisfies Record<string, Preset>);
