/**
 * `@fixedtick/core/roblox`: Roblox's `RunService` (per-frame events in Roblox's order,
 * `BindToRenderStep` by priority, `BindToSimulation` at a divisor of the 60 Hz pipeline) and the
 * `Enum` items it uses, over one `FixedLoop`. See `docs/porting/roblox.md`.
 * @packageDocumentation
 */
export {
  Enum,
  type EnumItem,
  RenderPriority,
  StepFrequency,
  type StepFrequencyItem,
} from '../roblox/enum.ts';
export { type DeltaCallback, RunService } from '../roblox/run-service.ts';
export { RBXScriptConnection, RBXScriptSignal } from '../roblox/script-signal.ts';
