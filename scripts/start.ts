/**
 * `npm start`: builds what the examples need and serves them, saying in a few lines what it is
 * doing. Three steps, each one line and its time (the tools' own output is kept back and shown
 * only when a step fails):
 *
 * 1. the ES modules of `@fixedtick/core`, `/three` and `/babylon` that the import-map page loads
 *    (no declaration files: only publishing needs them, `npm run build` and `npm run pack` write
 *    them);
 * 2. the examples, with Vite (the bundled pages import the packages' sources);
 * 3. the server (examples/serve.ts), which prints the address.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { serveBuiltExamples, wantedPort } from '../examples/serve.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string): string => join(root, 'node_modules/.bin', name);

/** Runs a command with its output kept back; rejects with that output when it fails. */
function quietly(command: string, args: string[], cwd: string, env = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} failed:\n${output}`)),
    );
  });
}

/** Runs one step: its line, then its time. */
async function step(n: number, what: string, work: () => Promise<void>): Promise<void> {
  const started = performance.now();
  process.stdout.write(`${n}/2 ${what}… `);
  await work();
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function main(): Promise<void> {
  await step(1, 'Building the packages the import-map page loads', async () => {
    await quietly(bin('tsx'), ['scripts/sync-subpaths.ts'], root);
    const env = { ...process.env, FIXEDTICK_DECLARATIONS: '0' };
    const tsup = (pkg: string) =>
      quietly(bin('tsup'), ['--silent'], join(root, 'packages', pkg), env);
    await tsup('core');
    await Promise.all([tsup('three'), tsup('babylon')]);
  });
  await step(2, 'Building the examples with Vite', async () => {
    await build({ configFile: join(root, 'examples/vite.config.ts'), logLevel: 'error' });
  });
  await serveBuiltExamples(wantedPort());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
