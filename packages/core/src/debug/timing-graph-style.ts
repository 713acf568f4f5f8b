/**
 * The timing graph's look: the colours of its marks, its font and the heights of its parts.
 * Shared by the canvas drawing (timing-graph.ts) and the in-place help (timing-graph-help.ts),
 * whose explanation names the same colours.
 */

/** Bar colour by steps run in the frame: 0, 1, 2, 3, 4 or more. Distinct at a glance. */
export const STEP_COLOURS = ['#6b7280', '#22c55e', '#facc15', '#f97316', '#a855f7'] as const;
export const DROPPED_COLOUR = '#ef4444';
export const ANOMALY_COLOUR = 'rgba(236, 72, 153, 0.75)';
export const ALPHA_COLOUR = '#38bdf8';
/** The main-thread mark: a line across the bar at the frame's own work. */
export const MAIN_THREAD_COLOUR = '#5eead4';
export const STEP_LINE_COLOUR = '#ffffff';
export const CLIP_COLOUR = '#ffffff';
export const ZONE_COLOUR = 'rgba(255, 255, 255, 0.18)';
/** Share of the plot height drawn on the linear scale; the rest is logarithmic up to 1 s. */
export const LINEAR_SHARE = 0.75;
export const LOG_TOP_MS = 1000;
export const BACKGROUND = 'rgba(15, 23, 42, 0.85)';
export const TEXT_COLOUR = '#e5e7eb';
export const FONT = '10px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace';
/** Two text lines (rates, legend) above the plot. */
export const TEXT_HEIGHT = 28;
/** The alpha lane under the plot. */
export const ALPHA_HEIGHT = 14;
export const PAD = 3;
