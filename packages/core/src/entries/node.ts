/**
 * `@fixedtick/core/node`: {@link nodeDriver}, the authoritative tick for headless servers on
 * Node, scheduled on absolute time. A separate entry so browser games never ship it.
 * @packageDocumentation
 */
export {
  type ClockAnomalyKind,
  type NodeDriver,
  type NodeDriverOptions,
  type NodeDriverStats,
  type NodeScheduler,
  nodeDriver,
} from '../drivers/node-driver.ts';
