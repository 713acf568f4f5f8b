/**
 * `npm run bench`: runs every suite in `bench/suites/` (or those named on the command line) and
 * prints one JSON object `{ machine, suites: { name: result } }` on stdout.
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Suite } from './lib.ts';

const dir = fileURLToPath(new URL('./suites/', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, '')))
  .sort();

const suites: Record<string, unknown> = {};
for (const file of files) {
  const mod = (await import(pathToFileURL(dir + file).href)) as { default: Suite };
  const name = file.replace(/\.ts$/, '');
  process.stderr.write(`bench: ${name}…\n`);
  suites[name] = await mod.default();
}
const out = {
  machine: {
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
  },
  suites,
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
