/**
 * `npm run pack`: builds the four packages for publishing (declarations included) and packs
 * each into a tarball in packs/ (or `--out <folder>`), as `npm publish` would upload it. Until
 * the packages are on the registry, an app installs these files: each guide and package README
 * has the lines, under "Before the packages are on the registry". `--no-build` packs what
 * `dist/` holds now.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Core first: the adapters' declarations are built against it. */
const PACKAGES = ['core', 'three', 'babylon', 'react-three'];

const args = process.argv.slice(2);
const outFlag = args.indexOf('--out');
const out = resolve(outFlag >= 0 ? args[outFlag + 1] : join(root, 'packs'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (command: string, commandArgs: string[]) =>
  execFileSync(command, commandArgs, {
    cwd: root,
    stdio: 'pipe',
    shell: process.platform === 'win32',
  });

if (!args.includes('--no-build')) {
  process.stdout.write('Building the packages with their declaration files… ');
  const started = performance.now();
  run(npm, ['run', 'build', '--silent']);
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}
mkdirSync(out, { recursive: true });
run(npm, [
  'pack',
  '--silent',
  '--pack-destination',
  out,
  ...PACKAGES.map((p) => `./packages/${p}`),
]);

const version = (
  JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')) as { version: string }
).version;
const shown = relative(process.cwd(), out) || '.';
console.log(`Packed into ${shown}/:`);
for (const pkg of PACKAGES) console.log(`  fixedtick-${pkg}-${version}.tgz`);
console.log(
  'Install them in an app as the guides show ("Before the packages are on the registry").',
);
