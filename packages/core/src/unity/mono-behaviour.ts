/**
 * The shape of a Unity script that {@link UnityTime.register} drives: any object with some of
 * `Start`, `FixedUpdate`, `Update` and `LateUpdate`. The methods take no arguments, as in Unity:
 * they read `Time.deltaTime`, which is the fixed step inside `FixedUpdate` and the frame time
 * elsewhere.
 */
export interface UnityBehaviour {
  /**
   * `false` skips every message (Unity's `Behaviour.enabled`). Missing counts as enabled.
   * @defaultValue true
   */
  enabled?: boolean;
  /** Once, before the behaviour's first `FixedUpdate`, `Update` or `LateUpdate`. */
  Start?(): void;
  /** Every fixed step (zero or more times per frame), before the physics step. */
  FixedUpdate?(): void;
  /** Once per frame, after the fixed steps and the interpolation pass. */
  Update?(): void;
  /** Once per frame, after every `Update`: cameras that follow interpolated objects. */
  LateUpdate?(): void;
}

/**
 * Optional base class for ported scripts, so `class Player extends MonoBehaviour` reads as it
 * did in C#. Nothing in it is required: {@link UnityTime.register} accepts any
 * {@link UnityBehaviour}.
 *
 * @example
 * ```ts
 * const Time = new UnityTime(loop);
 * class Spinner extends MonoBehaviour {
 *   angle = 0;
 *   override FixedUpdate() { this.angle += 90 * Time.deltaTime; } // Time.deltaTime = 0.02 here
 * }
 * Time.register(new Spinner());
 * ```
 */
export abstract class MonoBehaviour implements UnityBehaviour {
  /** `false` skips every message until set back to `true`. */
  enabled = true;
  /** Once, before the first `FixedUpdate`, `Update` or `LateUpdate`. */
  Start?(): void;
  /** Every fixed step. */
  FixedUpdate?(): void;
  /** Once per frame. */
  Update?(): void;
  /** Once per frame, after every `Update`. */
  LateUpdate?(): void;
}
