import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixed, perFrame, timesDt } from '../examples/node-jump/jump.ts';

describe('examples/node-jump', () => {
  it('per-frame stepping keeps the height but runs 2.4× faster at 144 fps than at 60', () => {
    expect(perFrame(144).peak.toFixed(1)).toBe('95.0');
    expect(perFrame(60).airtime / perFrame(144).airtime).toBeCloseTo(2.4, 9);
  });

  it('×dt stepping gets the speed right but the height varies: 90.0 / 95.0 / 97.9', () => {
    expect([30, 60, 144].map((r) => timesDt(r).peak.toFixed(1))).toEqual(['90.0', '95.0', '97.9']);
  });

  it('the fixed 60 Hz loop gives 95.0 px and 0.650 s at every rate', () => {
    for (const rate of [30, 60, 144, 240]) {
      const r = fixed(rate);
      expect(r.peak.toFixed(1)).toBe('95.0');
      expect(r.airtime.toFixed(3)).toBe('0.650');
    }
  });

  it('`npm run demo` prints the table from the real library', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/node-jump/main.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out).toMatch(
      /y \+= v·dt\s+│\s+90\.0 px \/ 0\.633 s\s+│\s+95\.0 px \/ 0\.650 s\s+│\s+97\.9 px/,
    );
    expect(out).toMatch(
      /Fixedtick 60 Hz\s+│\s+95\.0 px \/ 0\.650 s\s+│\s+95\.0 px \/ 0\.650 s\s+│\s+95\.0 px \/ 0\.650 s/,
    );
  });
});
