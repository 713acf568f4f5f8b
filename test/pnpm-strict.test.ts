/**
 * docs/packaging.md: a project that installs only an adapter can import every subpath of it — core's
 * re-exported ones included — under pnpm's strict layout, where `@fixedtick/core` is a
 * dependency of the adapter but not of the project, so `@fixedtick/core/debug` itself does not
 * resolve. The packed tarballs (test/support/packages.ts) are installed by pnpm (pinned in the
 * repository's devDependencies) in a temporary project; each subpath is then imported from ESM
 * and required from CommonJS with plain `node`, and type-checked by `tsc` (`nodenext`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, ownEntries } from '../scripts/lib/adapter-subpaths.ts';
import { packedTarballs, pinned, run } from './support/packages.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'fixedtick-pnpm-'));

/** Every import specifier an adapter's package.json exports: `@fixedtick/three`, `…/debug`, … */
function specifiers(adapter: string): string[] {
  const manifest = JSON.parse(
    readFileSync(join(root, 'packages', adapter, 'package.json'), 'utf8'),
  ) as { exports: Record<string, unknown> };
  return Object.keys(manifest.exports)
    .filter((key) => key !== './package.json')
    .map((key) =>
      key === '.' ? `@fixedtick/${adapter}` : `@fixedtick/${adapter}/${key.slice(2)}`,
    );
}

const all = ADAPTERS.flatMap(specifiers);

/** Prints, as JSON, each specifier's export names (or the error code of a failed import). */
const ESM_PROBE = `const out = {};
for (const spec of process.argv.slice(2)) {
  try { out[spec] = Object.keys(await import(spec)).sort(); }
  catch (error) { out[spec] = error.code ?? String(error); }
}
console.log(JSON.stringify(out));
`;
const CJS_PROBE = `const out = {};
for (const spec of process.argv.slice(2)) {
  try { out[spec] = Object.keys(require(spec)).sort(); }
  catch (error) { out[spec] = error.code ?? String(error); }
}
console.log(JSON.stringify(out));
`;

const pnpm = (args: string[]) =>
  run(process.execPath, [join(root, 'node_modules/pnpm/bin/pnpm.cjs'), ...args], project);

beforeAll(async () => {
  const tarballs = await packedTarballs();
  const manifest = {
    name: 'pnpm-project',
    private: true,
    type: 'module',
    dependencies: {
      '@fixedtick/three': `file:${tarballs.three}`,
      '@fixedtick/babylon': `file:${tarballs.babylon}`,
      '@fixedtick/react-three': `file:${tarballs['react-three']}`,
      three: pinned('three'),
      '@types/three': pinned('@types/three'),
      '@babylonjs/core': pinned('@babylonjs/core'),
      '@babylonjs/havok': pinned('@babylonjs/havok'),
      react: pinned('react'),
      '@types/react': pinned('@types/react'),
      '@react-three/fiber': pinned('@react-three/fiber'),
    },
    // The adapters depend on @fixedtick/core (the R3F bindings on @fixedtick/three) at their own
    // version: take them from their tarballs.
    pnpm: {
      overrides: {
        '@fixedtick/core': `file:${tarballs.core}`,
        '@fixedtick/three': `file:${tarballs.three}`,
      },
    },
  };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await pnpm(['install', '--reporter=append-only', '--config.strict-peer-dependencies=true']);
  writeFileSync(join(project, 'probe.mjs'), ESM_PROBE);
  writeFileSync(join(project, 'probe.cjs'), CJS_PROBE);
}, 600_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs a probe with plain node in the project, returning what it printed. */
async function probe(file: string, specs: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [file, ...specs], project);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The export names of core's built entry for `subpath` (read from the repository's dist). */
async function coreNames(subpath: string): Promise<string[]> {
  const file = join(root, 'packages/core/dist', `${subpath}.js`);
  return Object.keys(await import(file)).sort();
}

describe('pnpm, strict layout: only the adapters are dependencies of the project', () => {
  it('is strict: @fixedtick/core itself does not resolve from the project', async () => {
    const result = await probe('probe.mjs', ['@fixedtick/core', '@fixedtick/core/debug']);
    expect(result).toEqual({
      '@fixedtick/core': 'ERR_MODULE_NOT_FOUND',
      '@fixedtick/core/debug': 'ERR_MODULE_NOT_FOUND',
    });
  });

  it.each(ADAPTERS)(
    'every subpath of @fixedtick/%s imports from ESM with core exports',
    async (adapter) => {
      const result = await probe('probe.mjs', specifiers(adapter));
      for (const spec of specifiers(adapter)) {
        const subpath = spec.split('/')[2];
        expect(Array.isArray(result[spec]), `${spec}: ${result[spec]}`).toBe(true);
        // an adapter's own entries (havok, rapier) have exports of their own
        if (subpath !== undefined && !ownEntries(adapter).includes(subpath)) {
          expect(result[spec], spec).toEqual(await coreNames(subpath));
        }
      }
      expect(result[`@fixedtick/${adapter}`]).toEqual(expect.arrayContaining(['FixedLoop']));
    },
  );

  it('every subpath of every adapter requires from CommonJS with the same exports', async () => {
    const [esm, cjs] = await Promise.all([probe('probe.mjs', all), probe('probe.cjs', all)]);
    expect(cjs).toEqual(esm);
  });

  it('every export of every subpath type-checks (tsc, nodenext)', async () => {
    const esm = await probe('probe.mjs', all);
    const lines = all.map((spec, i) => {
      const names = (esm[spec] as string[]).map((name) => `${name} as ${name}_${i}`).join(', ');
      return `import { ${names} } from '${spec}';`;
    });
    writeFileSync(join(project, 'types.ts'), `${lines.join('\n')}\nexport {};\n`);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const { stdout } = await run(
      process.execPath,
      [tsc, ...args, '--skipLibCheck', 'types.ts'],
      project,
    );
    expect(stdout).toBe('');
  }, 120_000);
});
