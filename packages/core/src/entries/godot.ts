/**
 * `@fixedtick/core/godot`: Godot's `Engine` timing properties and a scene tree of nodes with
 * `_physics_process(delta)` / `_process(delta)` and per-node physics interpolation, over one
 * `FixedLoop`, so GDScript ports keep their names and timing. See `docs/porting/godot.md`.
 * @packageDocumentation
 */
export { GodotEngine, type ResetListener } from '../godot/godot-engine.ts';
export {
  NOTIFICATION_RESET_PHYSICS_INTERPOLATION,
  Node,
  PhysicsInterpolationMode,
} from '../godot/node.ts';
