/**
 * Feeds a contender frames of chosen durations and records what it did per frame.
 */
import { type ContenderId, FACTORIES, type LoopRun, type LoopSpec } from './contenders.ts';
import { FakeDisplay } from './fake-clock.ts';

/** Where every run's clock starts (ms since page load, as `performance.now()` would say). */
export const ORIGIN_MS = 1000;

/** A contender started on a fresh display, its origin frame already run. */
export interface Driven {
  run: LoopRun;
  /** Milliseconds since the origin frame of the last frame fed. */
  elapsed: number;
  /** Steps run in the last frame fed. */
  lastSteps: number;
  /** Runs one frame at `ORIGIN_MS + elapsedMs`; returns the steps it ran. */
  at(elapsedMs: number): number;
  dispose(): void;
}

/**
 * Starts contender `id` on `spec` (its `step` wrapped to count steps) and runs the origin frame
 * (the first rAF callback, which only sets the time origin for most loops).
 */
export function start(id: ContenderId, spec: LoopSpec): Driven {
  const display = new FakeDisplay();
  display.nowMs = ORIGIN_MS;
  let count = 0;
  const counted: LoopSpec = {
    hz: spec.hz,
    cap: spec.cap,
    step: (dt) => {
      count++;
      spec.step(dt);
    },
    render: (alpha) => spec.render(alpha),
    thingItems: spec.thingItems,
  };
  const run = FACTORIES[id](counted, display);
  const driven: Driven = {
    run,
    elapsed: 0,
    lastSteps: 0,
    at(elapsedMs: number): number {
      driven.elapsed = elapsedMs;
      const before = count;
      display.frame(ORIGIN_MS + elapsedMs);
      driven.lastSteps = count - before;
      return driven.lastSteps;
    },
    dispose: () => run.dispose(),
  };
  display.frame(ORIGIN_MS);
  return driven;
}

/**
 * Runs `frames` frames of a steady display at `fps` after the last frame, and returns the steps
 * of each. Timestamps are computed as `base + k * 1000 / fps`, never as a running sum of rounded
 * frame times: a display's vsync timestamps do not drift, so 144 frames at 144 fps last exactly
 * 1000 ms.
 */
export function steady(driven: Driven, fps: number, frames: number): number[] {
  const base = driven.elapsed;
  const out: number[] = [];
  for (let k = 1; k <= frames; k++) out.push(driven.at(base + (k * 1000) / fps));
  return out;
}

/** Runs one frame `durationMs` after the last one (a stall); returns its steps. */
export function stall(driven: Driven, durationMs: number): number {
  return driven.at(driven.elapsed + durationMs);
}
