/**
 * `npm run demo`: prints, from the real library, how high the reference jump goes and how long it
 * lasts when a game steps it per frame, multiplies by dt, or uses Fixedtick's fixed 60 Hz step.
 */
import { fixed, perFrame, timesDt } from './jump.ts';

const rates = [30, 60, 144];
const rows: string[][] = [['stepping', ...rates.map((r) => `${r} fps`)]];
const cell = (r: { peak: number; airtime: number }) =>
  `${r.peak.toFixed(1)} px / ${r.airtime.toFixed(3)} s`;
rows.push(['y += v per frame', ...rates.map((r) => cell(perFrame(r)))]);
rows.push(['y += v·dt', ...rates.map((r) => cell(timesDt(r)))]);
rows.push(['Fixedtick 60 Hz', ...rates.map((r) => cell(fixed(r)))]);

const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
const line = (row: string[]) => row.map((text, c) => text.padEnd(widths[c])).join('  │  ');
console.log('\nJump v0 = 600 px/s, g = 1800 px/s² — peak height / airtime by display rate\n');
console.log(line(rows[0]));
console.log(widths.map((w) => '─'.repeat(w)).join('──┼──'));
for (const row of rows.slice(1)) console.log(line(row));
console.log(
  '\nPer frame: same height, but 2.4× faster at 144 fps. ×dt: right speed, height varies',
  '\n(90 → 97.9 px). Fixed 60 Hz steps: 95.0 px and the same airtime at every rate.\n',
);
