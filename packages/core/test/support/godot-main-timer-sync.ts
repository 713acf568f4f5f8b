/**
 * A transcription of Godot's `MainTimerSync` (main/main_timer_sync.cpp, Godot 4) and of the step
 * cap in `Main::iteration` (main/main.cpp), written from the C++ statement by statement and
 * kept separate from the library's `JitterFix`, so the differential test compares two
 * independent readings of the same code. Names are Godot's. Not a test file.
 *
 * C++ details kept: `physics_steps` is an `int` from `std::floor` of a double; `min_output_step`
 * is a `float`; `MAX(float, double)` compares as doubles; `clamp_process_step` tests the lower
 * bound first. The delta smoother (`DeltaSmoother`, off unless vsync and `delta_smoothing`) and
 * `--fixed-fps` are not transcribed: the test feeds the process step Godot would compute,
 * `cpu_ticks_elapsed / 1000000.0`.
 */

/** Godot's `CONTROL_STEPS`. */
const CONTROL_STEPS = 12;

/** Godot's `MainFrameTime`. */
export interface MainFrameTime {
  process_step: number;
  physics_steps: number;
  interpolation_fraction: number;
}

function clamp_process_step(
  ret: MainFrameTime,
  min_process_step: number,
  max_process_step: number,
) {
  if (ret.process_step < min_process_step) {
    ret.process_step = min_process_step;
  } else if (ret.process_step > max_process_step) {
    ret.process_step = max_process_step;
  }
}

/** C++ `(int)std::floor(x)`. */
function intFloor(x: number): number {
  return Math.floor(x);
}

/** C++ `float` conversion. */
const float = Math.fround;

export class GodotMainTimerSync {
  time_accum = 0;
  time_deficit = 0;
  typical_physics_steps: number[] = new Array(CONTROL_STEPS).fill(0);
  accumulated_physics_steps: number[] = new Array(CONTROL_STEPS).fill(0);
  /** `Engine::get_physics_jitter_fix()`. */
  physics_jitter_fix = 0.5;

  constructor() {
    for (let i = CONTROL_STEPS - 1; i >= 0; --i) {
      this.typical_physics_steps[i] = i;
      this.accumulated_physics_steps[i] = i;
    }
  }

  get_physics_jitter_fix(): number {
    return this.physics_jitter_fix;
  }

  get_average_physics_steps(out: { p_min: number; p_max: number }): number {
    out.p_min = this.typical_physics_steps[0];
    out.p_max = out.p_min + 1;
    for (let i = 1; i < CONTROL_STEPS; ++i) {
      const typical_lower = this.typical_physics_steps[i];
      const current_min = typical_lower / (i + 1);
      if (current_min > out.p_max) {
        return i; // bail out if further restrictions would void the interval
      } else if (current_min > out.p_min) {
        out.p_min = current_min;
      }
      const current_max = (typical_lower + 1) / (i + 1);
      if (current_max < out.p_min) {
        return i;
      } else if (current_max < out.p_max) {
        out.p_max = current_max;
      }
    }
    return CONTROL_STEPS;
  }

  advance_core(p_physics_step: number, p_physics_ticks_per_second: number, p_process_step: number) {
    const ret: MainFrameTime = { process_step: 0, physics_steps: 0, interpolation_fraction: 0 };
    ret.process_step = p_process_step;

    // simple determination of number of physics iteration
    this.time_accum += ret.process_step;
    ret.physics_steps = intFloor(this.time_accum * p_physics_ticks_per_second);

    let min_typical_steps = this.typical_physics_steps[0];
    let max_typical_steps = min_typical_steps + 1;

    // given the past recorded steps and typical steps to match, calculate bounds for this
    // step to be typical
    let update_typical = false;

    for (let i = 0; i < CONTROL_STEPS - 1; ++i) {
      const steps_left_to_match_typical =
        this.typical_physics_steps[i + 1] - this.accumulated_physics_steps[i];
      if (
        steps_left_to_match_typical > max_typical_steps ||
        steps_left_to_match_typical + 1 < min_typical_steps
      ) {
        update_typical = true;
        break;
      }

      if (steps_left_to_match_typical > min_typical_steps) {
        min_typical_steps = steps_left_to_match_typical;
      }
      if (steps_left_to_match_typical + 1 < max_typical_steps) {
        max_typical_steps = steps_left_to_match_typical + 1;
      }
    }

    // try to keep it consistent with previous iterations
    if (ret.physics_steps < min_typical_steps) {
      const max_possible_steps = intFloor(
        this.time_accum * p_physics_ticks_per_second + this.get_physics_jitter_fix(),
      );
      if (max_possible_steps < min_typical_steps) {
        ret.physics_steps = max_possible_steps;
        update_typical = true;
      } else {
        ret.physics_steps = min_typical_steps;
      }
    } else if (ret.physics_steps > max_typical_steps) {
      const min_possible_steps = intFloor(
        this.time_accum * p_physics_ticks_per_second - this.get_physics_jitter_fix(),
      );
      if (min_possible_steps > max_typical_steps) {
        ret.physics_steps = min_possible_steps;
        update_typical = true;
      } else {
        ret.physics_steps = max_typical_steps;
      }
    }

    if (ret.physics_steps < 0) {
      ret.physics_steps = 0;
    }

    this.time_accum -= ret.physics_steps * p_physics_step;

    // keep track of accumulated step counts
    for (let i = CONTROL_STEPS - 2; i >= 0; --i) {
      this.accumulated_physics_steps[i + 1] = this.accumulated_physics_steps[i] + ret.physics_steps;
    }
    this.accumulated_physics_steps[0] = ret.physics_steps;

    if (update_typical) {
      for (let i = CONTROL_STEPS - 1; i >= 0; --i) {
        if (this.typical_physics_steps[i] > this.accumulated_physics_steps[i]) {
          this.typical_physics_steps[i] = this.accumulated_physics_steps[i];
        } else if (this.typical_physics_steps[i] < this.accumulated_physics_steps[i] - 1) {
          this.typical_physics_steps[i] = this.accumulated_physics_steps[i] - 1;
        }
      }
    }

    return ret;
  }

  advance_checked(
    p_physics_step: number,
    p_physics_ticks_per_second: number,
    p_process_step_in: number,
  ) {
    let p_process_step = p_process_step_in;
    let min_output_step = float(p_process_step / 8);
    min_output_step = float(Math.max(min_output_step, 1e-6));

    // compensate for last deficit
    p_process_step += this.time_deficit;

    const ret = this.advance_core(p_physics_step, p_physics_ticks_per_second, p_process_step);

    // we will do some clamping on ret.process_step and need to sync those changes to time_accum,
    // that's easiest if we just remember their fixed difference now
    const process_minus_accum = ret.process_step - this.time_accum;

    // first, least important clamping: keep ret.process_step consistent with typical_physics_steps.
    {
      const out = { p_min: 0, p_max: 0 };
      const consistent_steps = this.get_average_physics_steps(out);
      if (consistent_steps > 3) {
        clamp_process_step(ret, out.p_min * p_physics_step, out.p_max * p_physics_step);
      }
    }

    // second clamping: keep abs(time_deficit) < jitter_fix * frame_slise
    const max_clock_deviation = this.get_physics_jitter_fix() * p_physics_step;
    clamp_process_step(
      ret,
      p_process_step - max_clock_deviation,
      p_process_step + max_clock_deviation,
    );

    // last clamping: make sure time_accum is between 0 and p_physics_step
    clamp_process_step(ret, process_minus_accum, process_minus_accum + p_physics_step);

    // all the operations above may have turned ret.p_process_step negative or zero, keep a minimal value
    if (ret.process_step < min_output_step) {
      ret.process_step = min_output_step;
    }

    // restore time_accum
    this.time_accum = ret.process_step - process_minus_accum;

    if (this.time_accum > p_physics_step) {
      const extra_physics_steps = intFloor(this.time_accum * p_physics_ticks_per_second);
      this.time_accum -= extra_physics_steps * p_physics_step;
      ret.physics_steps += extra_physics_steps;
    }

    // track deficit
    this.time_deficit = p_process_step - ret.process_step;

    // p_physics_step is 1.0 / iterations_per_sec
    ret.interpolation_fraction = this.time_accum / p_physics_step;

    return ret;
  }
}

/**
 * One frame of `Main::iteration` as far as timing goes: the sync, then the step cap
 * (`max_physics_steps_per_frame`): `process_step` shrinks by the dropped steps, the fraction is
 * the sync's.
 */
export function godotIteration(
  sync: GodotMainTimerSync,
  physics_ticks_per_second: number,
  max_physics_steps: number,
  elapsedUsec: number,
): MainFrameTime {
  const physics_step = 1.0 / physics_ticks_per_second;
  const advance = sync.advance_checked(
    physics_step,
    physics_ticks_per_second,
    elapsedUsec / 1000000.0,
  );
  if (advance.physics_steps > max_physics_steps) {
    advance.process_step -= (advance.physics_steps - max_physics_steps) * physics_step;
    advance.physics_steps = max_physics_steps;
  }
  return advance;
}
