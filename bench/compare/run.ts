/**
 * `npm run bench:compare`: runs every comparison scenario through Fixedtick and the alternatives
 * in one process, prints the results as JSON on stdout, writes them to
 * `.bench-out/compare.json`, and regenerates `docs/comparison.md`.
 *
 * Run under `node --expose-gc --max-semi-space-size=512` (the npm script does): allocation is
 * measured as heap growth with no scavenge in between.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { allocation, teleport } from './behaviour-bodies.ts';
import { pressTwoStep, pressZeroStep } from './behaviour-input.ts';
import { drift, jumpPeak, stallCap, stallClamp } from './behaviour-timing.ts';
import { closingNotes } from './closing.ts';
import { babylon, CONTENDERS, prepare } from './contenders.ts';
import { loadFixedtick } from './fixedtick-parts.ts';
import { renderReport } from './report.ts';
import type { Row } from './report-types.ts';
import { havok, interpolation, overhead } from './speed.ts';

const COMMAND = 'npm run bench:compare';
const started = performance.now();

// stdout carries the JSON only: Babylon's banner and any library chatter go to stderr.
console.log = console.error;
babylon.Logger.LogLevels = babylon.Logger.WarningLogLevel | babylon.Logger.ErrorLogLevel;

function progress(message: string): void {
  process.stderr.write(
    `bench:compare ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}\n`,
  );
}

await prepare();
const parts = await loadFixedtick();
for (const [name, reason] of Object.entries(parts.missing)) {
  progress(`Fixedtick part missing — ${name}: ${reason}`);
}

const behaviour: Row[] = [];
for (const [name, run] of [
  ['drift', drift],
  ['1 s stall', stallClamp],
  ['0.5 s stall, cap 8', stallCap],
  ['teleport', teleport],
  ['jump peak', jumpPeak],
  ['press in a 0-step frame', pressZeroStep],
  ['press in a 2-step frame', pressTwoStep],
  ['allocation', allocation],
] as const) {
  progress(name);
  const result = await run();
  behaviour.push(...(Array.isArray(result) ? result : [result]));
}

const speed: Row[] = [];
for (const [name, run] of [
  ['loop overhead', overhead],
  ['10 000 interpolated bodies', interpolation],
  ['1 000 Havok bodies', havok],
] as const) {
  progress(name);
  speed.push(await run());
}

const durationSeconds = (performance.now() - started) / 1000;
const machine = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  platform: `${os.platform()} ${os.arch()}`,
};
const out = {
  command: COMMAND,
  machine,
  gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
  durationSeconds: Number(durationSeconds.toFixed(1)),
  contenders: CONTENDERS,
  fixedtickMissing: parts.missing,
  behaviour,
  speed,
};

const root = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(`${root}.bench-out`, { recursive: true });
const json = `${JSON.stringify(out, null, 2)}\n`;
writeFileSync(`${root}.bench-out/compare.json`, json);
writeFileSync(
  `${root}docs/comparison.md`,
  renderReport({
    command: COMMAND,
    machine,
    durationSeconds,
    behaviour,
    speed,
    closing: closingNotes(behaviour, speed),
  }),
);
process.stdout.write(json);
progress('done: .bench-out/compare.json and docs/comparison.md written');
