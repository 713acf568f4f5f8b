/**
 * `@fixedtick/core/debug`: tools to see the clock — a live timing graph of frame time, steps per
 * frame, alpha and dropped time. A separate entry so games that never show it never ship it.
 * @packageDocumentation
 */
export {
  createTimingGraph,
  type TimingGraph,
  type TimingGraphSource,
} from '../debug/timing-graph.ts';
export type { TimingGraphOptions, TimingGraphPosition } from '../debug/timing-graph-options.ts';
export {
  TIMING_MAX_FRAMES,
  TIMING_RATE_PERIOD,
  TimingHistory,
  type TimingRates,
} from '../debug/timing-history.ts';
