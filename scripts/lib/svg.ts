/**
 * A tiny deterministic SVG writer for the docs figures: numbers are rounded to two decimals and
 * attributes written in a fixed order, so regenerating a figure from the same library gives the
 * same bytes (and a clean `git diff`).
 */

/** A number as SVG text: at most two decimals, no trailing zeros, no `-0`. */
export function num(value: number): string {
  const s = Number(value.toFixed(2)).toString();
  return s === '-0' ? '0' : s;
}

/** Escapes text for SVG content and attribute values. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

type Attrs = Record<string, string | number | undefined>;

function attrs(a: Attrs): string {
  let out = '';
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined) continue;
    out += ` ${k}="${typeof v === 'number' ? num(v) : esc(v)}"`;
  }
  return out;
}

/** One element; `children` is raw SVG (already escaped) or nothing. */
export function el(name: string, a: Attrs, children?: string): string {
  return children === undefined
    ? `<${name}${attrs(a)}/>`
    : `<${name}${attrs(a)}>${children}</${name}>`;
}

/** A text element (content escaped). */
export function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el('text', { x, y, ...a }, esc(content));
}

/** A complete SVG document with a white background and the shared font. */
export function svgDocument(width: number, height: number, title: string, body: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="12" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    el('rect', { width, height, fill: '#ffffff' }),
    body,
    '</svg>',
    '',
  ].join('\n');
}

/** A linear scale from a domain to a pixel range. */
export function scale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  return (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
}

/** One line series of a {@link lineChart}. */
export interface Series {
  name: string;
  colour: string;
  points: readonly (readonly [number, number])[];
  dashed?: boolean;
}

/** Options of {@link lineChart}. */
export interface LineChart {
  x: number;
  y: number;
  width: number;
  height: number;
  title: string;
  xLabel: string;
  yLabel: string;
  xDomain: readonly [number, number];
  yDomain: readonly [number, number];
  xTicks: readonly number[];
  yTicks: readonly number[];
  series: readonly Series[];
  /** Formats a y tick label. */
  yFormat?: (v: number) => string;
}

/** A line chart with axes, grid, point markers and a title, drawn at (x, y). */
export function lineChart(c: LineChart): string {
  const left = c.x + 48;
  const right = c.x + c.width - 8;
  const top = c.y + 24;
  const bottom = c.y + c.height - 36;
  const sx = scale(c.xDomain[0], c.xDomain[1], left, right);
  const sy = scale(c.yDomain[0], c.yDomain[1], bottom, top);
  const yFormat = c.yFormat ?? num;
  const parts: string[] = [];
  parts.push(
    text(c.x + c.width / 2, c.y + 14, c.title, {
      'text-anchor': 'middle',
      'font-weight': 'bold',
      'font-size': 13,
    }),
  );
  for (const t of c.yTicks) {
    parts.push(el('line', { x1: left, x2: right, y1: sy(t), y2: sy(t), stroke: '#e5e7eb' }));
    parts.push(text(left - 6, sy(t) + 4, yFormat(t), { 'text-anchor': 'end', fill: '#374151' }));
  }
  for (const t of c.xTicks) {
    parts.push(el('line', { x1: sx(t), x2: sx(t), y1: bottom, y2: bottom + 4, stroke: '#6b7280' }));
    parts.push(text(sx(t), bottom + 16, num(t), { 'text-anchor': 'middle', fill: '#374151' }));
  }
  parts.push(el('line', { x1: left, x2: right, y1: bottom, y2: bottom, stroke: '#6b7280' }));
  parts.push(el('line', { x1: left, x2: left, y1: top, y2: bottom, stroke: '#6b7280' }));
  parts.push(
    text((left + right) / 2, bottom + 31, c.xLabel, { 'text-anchor': 'middle', fill: '#111827' }),
  );
  const ly = (top + bottom) / 2;
  parts.push(
    text(c.x + 12, ly, c.yLabel, {
      'text-anchor': 'middle',
      fill: '#111827',
      transform: `rotate(-90 ${num(c.x + 12)} ${num(ly)})`,
    }),
  );
  for (const s of c.series) {
    const d = s.points
      .map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${num(sx(px))} ${num(sy(py))}`)
      .join(' ');
    parts.push(
      el('path', {
        d,
        fill: 'none',
        stroke: s.colour,
        'stroke-width': 2,
        'stroke-dasharray': s.dashed ? '6 4' : undefined,
      }),
    );
    for (const [px, py] of s.points)
      parts.push(el('circle', { cx: sx(px), cy: sy(py), r: 3, fill: s.colour }));
  }
  return el('g', {}, parts.join(''));
}

/** A horizontal legend of coloured swatches. */
export function legend(
  x: number,
  y: number,
  items: readonly { name: string; colour: string }[],
  gap = 24,
): string {
  let cx = x;
  const parts: string[] = [];
  for (const item of items) {
    parts.push(el('rect', { x: cx, y: y - 9, width: 12, height: 12, rx: 2, fill: item.colour }));
    parts.push(text(cx + 17, y + 1, item.name, { fill: '#111827' }));
    cx += 17 + item.name.length * 6.4 + gap;
  }
  return el('g', {}, parts.join(''));
}
