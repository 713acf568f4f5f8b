/**
 * "Before the packages are on the registry", followed verbatim: `npm run pack` writes the four
 * tarballs into a clone's `packs/` folder, and in a fresh app beside that clone each install
 * block of the guides and package READMEs (```` ```sh before-publishing.sh ````) runs as it is,
 * line by line in bash. Afterwards every `@fixedtick/...` package is installed from its tarball
 * (never from the registry, where it is not yet) and every specifier the guide imports resolves
 * from the app. A package README carries the same block as its guide.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { docSnippet, labelledBlock } from './support/doc-snippets.ts';
import { cleanEnv, ensureBuilt, PACKAGES, run } from './support/packages.ts';

// npm installs from the registry (the engines, Vite): generous limits.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const root = fileURLToPath(new URL('..', import.meta.url));
const BLOCK = 'before-publishing.sh';
const readmeBlock = (pkg: string) => labelledBlock(join(root, 'packages', pkg, 'README.md'), BLOCK);

/**
 * Each install block, where it is shown, the specifiers its guide's code imports, and the one
 * whose `FixedLoop` the test runs in the app (React Three Fiber itself is left to the browser).
 */
const APPS = [
  {
    name: 'core',
    block: () => readmeBlock('core'),
    imports: ['@fixedtick/core'],
    runs: '@fixedtick/core',
  },
  {
    name: 'three',
    block: () => docSnippet('three.md', BLOCK),
    imports: ['@fixedtick/three', '@fixedtick/three/debug'],
    runs: '@fixedtick/three',
  },
  {
    name: 'rapier',
    block: () => docSnippet('rapier.md', BLOCK),
    imports: ['@fixedtick/three', '@fixedtick/three/rapier'],
    runs: '@fixedtick/three',
  },
  {
    name: 'babylon',
    block: () => docSnippet('babylon.md', BLOCK),
    imports: ['@fixedtick/babylon', '@fixedtick/babylon/havok'],
    runs: '@fixedtick/babylon',
  },
  {
    name: 'react-three',
    block: () => docSnippet('react-three.md', BLOCK),
    imports: ['@fixedtick/react-three', '@fixedtick/react-three/debug'],
    runs: '@fixedtick/three',
  },
] as const;

const work = mkdtempSync(join(tmpdir(), 'fixedtick-before-publishing-'));
/** The clone, as the guides name it from the app's folder: `../fixedtick`. */
const clone = join(work, 'fixedtick');

beforeAll(async () => {
  for (const pkg of PACKAGES) ensureBuilt(pkg);
  // `npm run pack`, writing into the clone's packs/ folder (built just above).
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/pack.ts', '--no-build', '--out', join(clone, 'packs')],
    root,
  );
  expect(stdout).toContain('fixedtick-react-three-');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the package READMEs', () => {
  it.each([
    ['three', 'three.md'],
    ['babylon', 'babylon.md'],
    ['react-three', 'react-three.md'],
  ])('packages/%s/README.md has the install block of docs/%s', (pkg, doc) => {
    expect(readmeBlock(pkg)).toBe(docSnippet(doc, BLOCK));
  });
});

describe.each(APPS)('the install block for $name, run verbatim in a fresh app', (app) => {
  it('installs @fixedtick from the tarballs and the imports resolve', async () => {
    const folder = join(work, `${app.name}-app`);
    mkdirSync(folder);
    // The app's environment: no npm_* variables of this test run; the registry cache first.
    const env = { ...cleanEnv(), npm_config_prefer_offline: 'true', npm_config_audit: 'false' };
    await run('bash', ['-euo', 'pipefail', '-c', app.block()], folder, env);
    const lock = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; version?: string }>;
    };
    const ours = Object.entries(lock.packages).filter(([path]) =>
      path.startsWith('node_modules/@fixedtick/'),
    );
    expect(ours.length).toBeGreaterThan(0);
    for (const [path, entry] of ours) {
      const pkg = path.slice('node_modules/@fixedtick/'.length);
      expect(entry.resolved, path).toBe(
        `file:../fixedtick/packs/fixedtick-${pkg}-${entry.version}.tgz`,
      );
    }
    const resolve = app.imports.map((s) => `import.meta.resolve(${JSON.stringify(s)})`).join(',');
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', `console.log(JSON.stringify([${resolve}]))`],
      folder,
    );
    const resolved = JSON.parse(stdout) as string[];
    for (const url of resolved) expect(url).toMatch(/\/node_modules\/@fixedtick\/[a-z-]+\/dist\//);
    // The loop loads and runs in the app.
    const { stdout: ticks } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { FixedLoop } = await import(${JSON.stringify(app.runs)}); const loop = new FixedLoop({ tickRate: 60 }); for (let i = 0; i < 144; i++) loop.advance(1 / 144); console.log(loop.tick);`,
      ],
      folder,
    );
    expect(ticks.trim()).toBe('60');
  });
});
