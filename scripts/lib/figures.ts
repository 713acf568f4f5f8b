/**
 * The SVG figures of the guides, computed from the real library (imported from source).
 * Deterministic: no clock, no randomness, fixed number format, so an unchanged library gives
 * byte-identical files. `npm run figures` writes them; a test checks the committed ones are
 * current.
 *
 *   jump-peak.svg      jump peak and airtime vs render rate: per frame, ×dt, fixed steps
 *   steps-alpha.svg    steps per frame and alpha over 24 frames of 144 Hz on 60 Hz physics
 *   clamps.svg         what maxDeltaTime and maxStepsPerFrame do to one long frame
 */
import {
  FixedLoop,
  type FixedLoopOptions,
  presets,
  semiImplicitEuler,
} from '../../packages/core/src/index.ts';
import { el, legend, lineChart, num, scale, svgDocument, text } from './svg.ts';

/** The reference jump (docs/guarantees.md, "Reference numbers"): 600 px/s up, 1800 px/s² down, semi-implicit Euler. */
const V0 = 600;
const G = 1800;
/** The per-frame (no dt) version is tuned so it matches at 60 fps: px per frame, px per frame². */
const TUNED_FPS = 60;
const RATES = [30, 60, 75, 90, 120, 144, 165, 240] as const;

interface Jump {
  peak: number;
  airtime: number;
}

/** `x += v; v -= g` once per frame, constants tuned at 60 fps: same peak, wrong speed. */
function perFrame(fps: number): Jump {
  const body = { x: 0, v: V0 / TUNED_FPS };
  let peak = 0;
  for (let frame = 1; frame < fps * 10; frame++) {
    semiImplicitEuler(body, -G / (TUNED_FPS * TUNED_FPS), 1);
    peak = Math.max(peak, body.x);
    if (body.x <= 0) return { peak, airtime: frame / fps };
  }
  throw new Error('per-frame jump never landed');
}

/** One integration step per frame with the frame's dt: right speed, peak depends on fps. */
function timesDt(fps: number): Jump {
  const body = { x: 0, v: V0 };
  let peak = 0;
  for (let frame = 1; frame < fps * 10; frame++) {
    semiImplicitEuler(body, -G, 1 / fps);
    peak = Math.max(peak, body.x);
    if (body.x <= 0) return { peak, airtime: frame / fps };
  }
  throw new Error('×dt jump never landed');
}

/** A 60 Hz FixedLoop fed frames of 1/fps: the same trajectory at every rate. */
function fixed(fps: number): Jump {
  const loop = new FixedLoop({ tickRate: 60 });
  const body = { x: 0, v: V0 };
  let peak = 0;
  let landed = false;
  loop.onFixedUpdate((dt) => {
    if (landed) return;
    semiImplicitEuler(body, -G, dt);
    peak = Math.max(peak, body.x);
    if (body.x <= 0) landed = true;
  });
  for (let frame = 1; frame < fps * 10; frame++) {
    loop.advance(1 / fps);
    // Airtime as a player sees it: the first frame that shows the landing.
    if (landed) return { peak, airtime: frame / fps };
  }
  throw new Error('fixed-step jump never landed');
}

const COLOURS = { perFrame: '#dc2626', timesDt: '#d97706', fixed: '#059669' } as const;

function jumpFigure(): string {
  const rows = RATES.map((fps) => ({ fps, a: perFrame(fps), b: timesDt(fps), c: fixed(fps) }));
  const series = (pick: (j: Jump) => number) => [
    {
      name: 'per frame, no dt',
      colour: COLOURS.perFrame,
      points: rows.map((r) => [r.fps, pick(r.a)] as const),
    },
    {
      name: 'per frame × dt',
      colour: COLOURS.timesDt,
      points: rows.map((r) => [r.fps, pick(r.b)] as const),
    },
    {
      name: 'fixed 60 Hz steps',
      colour: COLOURS.fixed,
      points: rows.map((r) => [r.fps, pick(r.c)] as const),
      dashed: true,
    },
  ];
  const xTicks = [30, 60, 90, 120, 144, 165, 240];
  const body = [
    lineChart({
      x: 0,
      y: 28,
      width: 380,
      height: 260,
      title: 'Jump peak (px)',
      xLabel: 'display rate (Hz)',
      yLabel: 'peak height (px)',
      xDomain: [20, 250],
      yDomain: [88, 100],
      xTicks,
      yTicks: [88, 90, 92, 94, 96, 98, 100],
      series: series((j) => j.peak),
    }),
    lineChart({
      x: 380,
      y: 28,
      width: 380,
      height: 260,
      title: 'Airtime (s of real time)',
      xLabel: 'display rate (Hz)',
      yLabel: 'airtime (s)',
      xDomain: [20, 250],
      yDomain: [0, 1.4],
      xTicks,
      yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4],
      series: series((j) => j.airtime),
      yFormat: (v) => v.toFixed(1),
    }),
    legend(60, 306, [
      { name: 'per frame, no dt (tuned at 60 fps)', colour: COLOURS.perFrame },
      { name: 'per frame × dt', colour: COLOURS.timesDt },
      { name: 'fixed 60 Hz steps (FixedLoop)', colour: COLOURS.fixed },
    ]),
    text(
      380,
      16,
      `Same jump (v0 ${V0} px/s, g ${G} px/s², semi-implicit Euler) at different display rates`,
      { 'text-anchor': 'middle', fill: '#374151' },
    ),
    text(
      380,
      330,
      `×dt: ${rows[0].b.peak.toFixed(1)} px at ${rows[0].fps} Hz, ${rows[rows.length - 1].b.peak.toFixed(1)} px at ${rows[rows.length - 1].fps} Hz. No dt and fixed steps: ${rows[0].c.peak.toFixed(1)} px at every rate —`,
      { 'text-anchor': 'middle', fill: '#6b7280', 'font-size': 11 },
    ),
    text(
      380,
      346,
      'but with no dt the whole game runs faster on a faster display (airtime, right).',
      {
        'text-anchor': 'middle',
        fill: '#6b7280',
        'font-size': 11,
      },
    ),
  ];
  return svgDocument(760, 358, 'Jump peak and airtime versus display rate', body.join('\n'));
}

/** Colours of steps per frame, the same as the live timing graph. */
const STEP_COLOURS = ['#9ca3af', '#22c55e', '#facc15'] as const;

function stepsAlphaFigure(): string {
  const FRAMES = 24;
  const DISPLAY = 144;
  const loop = new FixedLoop({ tickRate: 60 });
  const frames: { steps: number; alpha: number }[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const info = loop.advance(1 / DISPLAY);
    frames.push({ steps: info.steps, alpha: info.alpha });
  }
  const totalMs = (FRAMES / DISPLAY) * 1000;
  const left = 70;
  const right = 790;
  const sx = scale(0, totalMs, left, right);
  const col = (right - left) / FRAMES;
  const parts: string[] = [];
  parts.push(
    text(
      430,
      18,
      `60 Hz physics on a ${DISPLAY} Hz display: ${FRAMES} frames, ${loop.tick} steps`,
      {
        'text-anchor': 'middle',
        'font-weight': 'bold',
        'font-size': 13,
      },
    ),
  );
  // Two rulers: frame boundaries (display) and step boundaries (simulation).
  const rulerY = [46, 76];
  parts.push(text(left - 8, rulerY[0] + 4, 'frames', { 'text-anchor': 'end', fill: '#374151' }));
  parts.push(text(left - 8, rulerY[1] + 4, 'steps', { 'text-anchor': 'end', fill: '#374151' }));
  parts.push(el('line', { x1: left, x2: right, y1: rulerY[0], y2: rulerY[0], stroke: '#9ca3af' }));
  parts.push(el('line', { x1: left, x2: right, y1: rulerY[1], y2: rulerY[1], stroke: '#9ca3af' }));
  for (let i = 0; i <= FRAMES; i++) {
    const x = sx((i * 1000) / DISPLAY);
    parts.push(
      el('line', { x1: x, x2: x, y1: rulerY[0] - 6, y2: rulerY[0] + 6, stroke: '#2563eb' }),
    );
  }
  for (let t = 0; t <= loop.tick; t++) {
    const x = sx((t * 1000) / 60);
    parts.push(
      el('line', {
        x1: x,
        x2: x,
        y1: rulerY[1] - 6,
        y2: rulerY[1] + 6,
        stroke: '#059669',
        'stroke-width': 2,
      }),
    );
    if (t > 0)
      parts.push(
        text(x, rulerY[1] + 18, `${t}`, {
          'text-anchor': 'middle',
          fill: '#059669',
          'font-size': 10,
        }),
      );
  }
  // Steps per frame.
  const stepsTop = 112;
  const stepsH = 50;
  parts.push(
    text(left - 8, stepsTop + stepsH / 2 + 4, 'steps run', {
      'text-anchor': 'end',
      fill: '#374151',
    }),
  );
  frames.forEach((f, i) => {
    const x = left + i * col;
    const h = f.steps === 0 ? 4 : stepsH * Math.min(f.steps, 2) * 0.5;
    parts.push(
      el('rect', {
        x: x + 2,
        y: stepsTop + stepsH - h,
        width: col - 4,
        height: h,
        fill: STEP_COLOURS[Math.min(f.steps, 2)],
      }),
    );
    parts.push(
      text(x + col / 2, stepsTop + stepsH + 14, `${f.steps}`, {
        'text-anchor': 'middle',
        fill: '#111827',
      }),
    );
  });
  // Alpha per frame.
  const alphaTop = 196;
  const alphaH = 90;
  const sy = scale(0, 1, alphaTop + alphaH, alphaTop);
  parts.push(
    text(left - 30, alphaTop + alphaH / 2 + 4, 'alpha', { 'text-anchor': 'end', fill: '#374151' }),
  );
  for (const v of [0, 0.5, 1]) {
    parts.push(el('line', { x1: left, x2: right, y1: sy(v), y2: sy(v), stroke: '#e5e7eb' }));
    parts.push(
      text(left - 4, sy(v) + 4, v.toFixed(1), {
        'text-anchor': 'end',
        fill: '#9ca3af',
        'font-size': 10,
      }),
    );
  }
  const d = frames
    .map((f, i) => `${i === 0 ? 'M' : 'L'}${num(left + (i + 0.5) * col)} ${num(sy(f.alpha))}`)
    .join(' ');
  parts.push(el('path', { d, fill: 'none', stroke: '#0ea5e9', 'stroke-width': 2 }));
  frames.forEach((f, i) => {
    const x = left + (i + 0.5) * col;
    parts.push(el('circle', { cx: x, cy: sy(f.alpha), r: 3.5, fill: '#0ea5e9' }));
    parts.push(
      text(x, alphaTop + alphaH + 16, f.alpha.toFixed(2).replace(/^0/, ''), {
        'text-anchor': 'middle',
        fill: '#374151',
        'font-size': 10,
      }),
    );
  });
  parts.push(
    text(
      430,
      326,
      'Each frame renders alpha of the way from the previous step to the current one; every 12 frames run exactly 5 steps.',
      {
        'text-anchor': 'middle',
        fill: '#6b7280',
        'font-size': 11,
      },
    ),
  );
  parts.push(
    legend(250, 346, [
      { name: '0 steps', colour: STEP_COLOURS[0] },
      { name: '1 step', colour: STEP_COLOURS[1] },
      { name: 'frame boundary', colour: '#2563eb' },
      { name: 'step boundary', colour: '#059669' },
    ]),
  );
  return svgDocument(
    820,
    360,
    `Steps per frame and alpha, 60 Hz physics on a ${DISPLAY} Hz display`,
    parts.join('\n'),
  );
}

interface ClampRow {
  label: string;
  options: FixedLoopOptions;
}

function clampsFigure(): string {
  const HITCH = 1;
  const rows: ClampRow[] = [
    {
      label: 'no clamps',
      options: { tickRate: 60, maxDeltaTime: Infinity, maxStepsPerFrame: Infinity },
    },
    {
      label: 'maxDeltaTime 0.25 s',
      options: { tickRate: 60, maxDeltaTime: 0.25, maxStepsPerFrame: Infinity },
    },
    {
      label: 'maxStepsPerFrame 8',
      options: { tickRate: 60, maxDeltaTime: Infinity, maxStepsPerFrame: 8 },
    },
    { label: 'defaults (both)', options: { tickRate: 60 } },
    { label: 'presets.unity', options: presets.unity },
    { label: 'presets.godot', options: presets.godot },
  ];
  const results = rows.map((r) => {
    const loop = new FixedLoop(r.options);
    loop.advance(loop.fixedDelta); // one normal frame first: the hitch hits a running game
    const before = loop.fixedTime;
    const info = loop.advance(HITCH);
    return {
      label: r.label,
      steps: info.steps,
      simulated: loop.fixedTime - before,
      dropped: info.dropped,
      fixedDelta: loop.fixedDelta,
    };
  });
  const left = 170;
  const right = 690;
  const sx = scale(0, HITCH, left, right);
  const parts: string[] = [];
  parts.push(
    text(
      440,
      18,
      `One ${HITCH * 1000} ms frame (a hitch) at 60 Hz physics: what each clamp simulates and drops`,
      {
        'text-anchor': 'middle',
        'font-weight': 'bold',
        'font-size': 13,
      },
    ),
  );
  results.forEach((r, i) => {
    const y = 40 + i * 34;
    parts.push(text(left - 10, y + 15, r.label, { 'text-anchor': 'end', fill: '#111827' }));
    const simW = sx(r.simulated) - left;
    const dropW = sx(r.dropped) - left;
    parts.push(el('rect', { x: left, y, width: simW, height: 22, fill: '#22c55e' }));
    if (dropW > 0)
      parts.push(el('rect', { x: left + simW, y, width: dropW, height: 22, fill: '#ef4444' }));
    parts.push(
      text(
        right + 10,
        y + 15,
        `${r.steps} steps · ${(r.simulated * 1000).toFixed(0)} ms run · ${(r.dropped * 1000).toFixed(0)} ms dropped`,
        {
          fill: '#374151',
          'font-size': 11,
        },
      ),
    );
  });
  const axisY = 40 + results.length * 34 + 4;
  parts.push(el('line', { x1: left, x2: right, y1: axisY, y2: axisY, stroke: '#6b7280' }));
  for (let ms = 0; ms <= HITCH * 1000; ms += 250) {
    const x = sx(ms / 1000);
    parts.push(el('line', { x1: x, x2: x, y1: axisY, y2: axisY + 4, stroke: '#6b7280' }));
    parts.push(
      text(x, axisY + 16, `${ms} ms`, {
        'text-anchor': 'middle',
        fill: '#374151',
        'font-size': 11,
      }),
    );
  }
  parts.push(
    legend(left, axisY + 40, [
      { name: 'simulated (steps run this frame)', colour: '#22c55e' },
      { name: 'dropped (never simulated)', colour: '#ef4444' },
    ]),
  );
  parts.push(
    text(
      440,
      axisY + 62,
      'What is neither stays in the accumulator (less than one step) and is rendered through alpha.',
      {
        'text-anchor': 'middle',
        fill: '#6b7280',
        'font-size': 11,
      },
    ),
  );
  return svgDocument(
    960,
    axisY + 76,
    'Effect of maxDeltaTime and maxStepsPerFrame on one long frame',
    parts.join('\n'),
  );
}

/** Every figure of the guides: file name in docs/figures/ → SVG text. */
export function renderFigures(): Record<string, string> {
  return {
    'jump-peak.svg': jumpFigure(),
    'steps-alpha.svg': stepsAlphaFigure(),
    'clamps.svg': clampsFigure(),
  };
}
