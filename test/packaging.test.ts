/**
 * Publish-readiness of every package, on the built dist/ (built here if missing or older than
 * src/): publint (strict), Are the Types Wrong (`attw --pack`: ESM + CJS + types for every
 * subpath), the size-limit budgets of .size-limit.json (min+gzip, peers and @fixedtick/core
 * excluded for the adapters), and the metadata a registry page needs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGES } from './support/packages.ts';
import { rolldownPlugin } from './support/size-limit-rolldown.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const REPO = 'https://github.com/fixedtick/fixedtick';

interface Manifest {
  name: string;
  version: string;
  type?: string;
  sideEffects?: boolean;
  files?: string[];
  license?: string;
  author?: string;
  keywords?: string[];
  repository?: { type: string; url: string; directory: string };
  homepage?: string;
  bugs?: { url: string };
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, Record<string, string>>>;
  typesVersions?: Record<string, Record<string, string[]>>;
}

const dir = (pkg: string) => join(root, 'packages', pkg);
const manifest = (pkg: string): Manifest =>
  JSON.parse(readFileSync(join(dir(pkg), 'package.json'), 'utf8')) as Manifest;

beforeAll(() => {
  // Core first: the adapters' type declarations are built against it.
  for (const pkg of PACKAGES) ensureBuilt(pkg);
}, 300_000);

describe.each(PACKAGES)('@fixedtick/%s', (pkg) => {
  it('passes publint in strict mode (no errors, warnings or suggestions)', async () => {
    const { messages, pkg: json } = await publint({ pkgDir: dir(pkg), strict: true, pack: 'npm' });
    expect(messages.map((m) => formatMessage(m, json, { color: false }))).toEqual([]);
  }, 120_000);

  it('passes attw --pack: ESM, CJS and types resolve for every subpath under every resolution', () => {
    const run = spawnSync(
      join(root, 'node_modules', '.bin', 'attw'),
      ['--pack', dir(pkg), '--format', 'json'],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    // Strict profile: node10 (typesVersions), node16 from CJS and from ESM, and bundler.
    const report = JSON.parse(run.stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems?: unknown[] | Record<string, unknown[]>;
    };
    const problems = report.problems ?? [];
    expect(Array.isArray(problems) ? problems : Object.values(problems).flat()).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(
      Object.keys(manifest(pkg).exports).sort(),
    );
    expect(run.status).toBe(0);
  }, 120_000);

  it('is an ESM-first, side-effect-free package with types first in every export', () => {
    const m = manifest(pkg);
    expect(m.name).toBe(`@fixedtick/${pkg}`);
    expect(m.type).toBe('module');
    expect(m.sideEffects).toBe(false);
    expect(m.files).toEqual(['dist']);
    for (const [subpath, target] of Object.entries(m.exports)) {
      if (subpath === './package.json') continue;
      expect(typeof target, subpath).toBe('object');
      const conditions = target as Record<string, Record<string, string>>;
      expect(Object.keys(conditions), subpath).toEqual(['import', 'require']);
      for (const condition of ['import', 'require']) {
        expect(Object.keys(conditions[condition])[0], `${subpath} ${condition}`).toBe('types');
      }
    }
  });

  it('exports exactly its entries: src/index.ts as "." and each src/entries/*.ts as a subpath', () => {
    const entriesDir = join(dir(pkg), 'src', 'entries');
    // one level of folders: `src/entries/rapier/worker.ts` is the subpath `./rapier/worker`
    const entries = existsSync(entriesDir)
      ? readdirSync(entriesDir, { recursive: true, encoding: 'utf8' })
          .map((f) => f.replaceAll('\\', '/'))
          .filter((f) => f.endsWith('.ts') && f.split('/').length <= 2)
          .map((f) => `./${f.slice(0, -3)}`)
      : [];
    const subpaths = Object.keys(manifest(pkg).exports).filter((k) => k !== './package.json');
    expect(subpaths.sort()).toEqual(['.', ...entries].sort());
    // Old `moduleResolution: node` (node10) finds subpath types through typesVersions.
    const typesVersions = manifest(pkg).typesVersions?.['*'] ?? {};
    expect(typesVersions).toEqual(
      Object.fromEntries(entries.map((e) => [e.slice(2), [`./dist/${e.slice(2)}.d.ts`]])),
    );
  });

  it('carries the registry metadata: license, author, repository, homepage, bugs, keywords', () => {
    const m = manifest(pkg);
    expect(m.license).toBe('MIT');
    expect(m.author).toBe('Fixedtick contributors');
    expect(m.repository).toEqual({
      type: 'git',
      url: `git+${REPO}.git`,
      directory: `packages/${pkg}`,
    });
    expect(m.homepage).toBe(`${REPO}/tree/main/packages/${pkg}#readme`);
    expect(m.bugs).toEqual({ url: `${REPO}/issues` });
    expect(m.keywords).toEqual(expect.arrayContaining(['game-loop', 'fixed-timestep']));
    if (pkg === 'react-three') {
      // The bindings run on the three.js adapter (which brings the core) at their own version.
      expect(m.dependencies).toEqual({ '@fixedtick/three': m.version });
    } else if (pkg !== 'core') {
      // Adapters depend on the core at exactly their own version (Changesets keeps them fixed).
      expect(m.dependencies?.['@fixedtick/core']).toBe(m.version);
    }
  });

  it('ships a LICENSE, a CHANGELOG and a README with a quick start of at most ten lines', () => {
    const license = readFileSync(join(dir(pkg), 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License/);
    expect(license).toContain('Fixedtick contributors');
    expect(readFileSync(join(dir(pkg), 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^# @fixedtick/${pkg}\\n\\n## ${manifest(pkg).version.replace(/\./g, '\\.')}`),
    );
    const readme = readFileSync(join(dir(pkg), 'README.md'), 'utf8');
    expect(readme.startsWith(`# @fixedtick/${pkg}`)).toBe(true);
    const quickStart = /## Quick start[\s\S]*?```tsx?\n([\s\S]*?)```/.exec(readme);
    expect(quickStart, 'a "## Quick start" section with a ```ts (or ```tsx) block').not.toBeNull();
    const lines = (quickStart as RegExpExecArray)[1].trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.join('\n')).toContain(`from '@fixedtick/${pkg}'`);
  });
});

/** The parts of size-limit's programmatic API used here (it ships no types for them). */
interface SizeLimitApi {
  default: (
    plugins: unknown,
    config: { cwd: string; checks: object[] },
  ) => Promise<{ size: number }[]>;
  processImport: (check: object, output: string) => Promise<void>;
}

/** size-limit (an untyped module, loaded by name) with `@size-limit/file` and the Rolldown step. */
async function loadSizeLimit(): Promise<{ api: SizeLimitApi; plugins: unknown[] }> {
  const names = ['size-limit', '@size-limit/file'];
  const [api, file] = await Promise.all(names.map((n) => import(n)));
  return {
    api: api as SizeLimitApi,
    plugins: [(file as { default: unknown }).default, rolldownPlugin],
  };
}

interface SizeCheck {
  name: string;
  path: string;
  import?: string;
  gzip?: boolean;
  limit: string;
  ignore?: string[];
}

describe('size-limit budgets (.size-limit.json, min+gzip)', () => {
  const checks = JSON.parse(readFileSync(join(root, '.size-limit.json'), 'utf8')) as SizeCheck[];
  const work = mkdtempSync(join(tmpdir(), 'fixedtick-size-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('measures min+gzip, holds core to 8.25 kB, and guards every entry (docs/packaging.md)', () => {
    const limit = (name: string) => checks.find((c) => c.name === name)?.limit;
    // core's 6 kB target gave way to the timing semantics of issues 14 and 18, and to the frame
    // context adapters see (docs/packaging.md)
    expect(limit('@fixedtick/core')).toBe('8.25 kB');
    expect(limit('@fixedtick/core: the loop only (FixedLoop, presets, rafDriver)')).toBe('7.75 kB');
    expect(limit('@fixedtick/core/debug')).toBe('4.5 kB');
    for (const c of checks) {
      expect(c.gzip, c.name).toBe(true);
      expect(c.limit, c.name).toMatch(/^\d+(\.\d+)? kB$/);
    }
  });

  it('measures each adapter by what an app pays: its loop class, core included, engine peers left out', () => {
    // An app imports the loop class and pays for it and for the core it runs on; the engine
    // itself (three, Babylon.js, Havok) is the app's either way.
    for (const [pkg, loop] of [
      ['three', 'ThreeFixedLoop'],
      ['babylon', 'BabylonFixedLoop'],
    ] as const) {
      const check = checks.find((c) => c.name.startsWith(`@fixedtick/${pkg}:`)) as SizeCheck;
      expect(check, pkg).toBeDefined();
      expect(check.path).toBe(`packages/${pkg}/dist/index.js`);
      expect(check.import).toBe(`{ ${loop} }`);
      expect((check.ignore ?? []).sort()).toEqual(
        Object.keys(manifest(pkg).peerDependencies ?? {}).sort(),
      );
    }
  });

  it('measures the R3F bindings by every export of their own, on top of @fixedtick/three', async () => {
    // An R3F app has the three.js adapter either way; the row is what the bindings add to it.
    const check = checks.find((c) => c.name.startsWith('@fixedtick/react-three:')) as SizeCheck;
    expect(check).toBeDefined();
    expect(check.path).toBe('packages/react-three/dist/index.js');
    const [bindings, adapter] = await Promise.all([
      import('@fixedtick/react-three'),
      import('@fixedtick/three'),
    ]);
    const own = Object.keys(bindings).filter((name) => !(name in adapter));
    expect(check.import).toBe(`{ ${own.sort().join(', ')} }`);
    expect((check.ignore ?? []).sort()).toEqual(
      ['@fixedtick/three', ...Object.keys(manifest('react-three').peerDependencies ?? {})].sort(),
    );
  });

  it.each(checks.map((c) => [c.name, c] as const))(
    '%s is within its budget',
    async (_name, c) => {
      const { api, plugins } = await loadSizeLimit();
      const check: Record<string, unknown> = {
        name: c.name,
        files: [join(root, c.path)],
        gzip: true,
        brotli: false,
        ignore: c.ignore ?? [],
      };
      if (c.import !== undefined) {
        check.import = { [join(root, c.path)]: c.import };
        await api.processImport(check, join(work, c.name.replace(/[^a-z0-9]+/gi, '-')));
      }
      const [result] = await api.default(plugins, { cwd: root, checks: [check] });
      const bytes = result.size;
      const budget = Number.parseFloat(c.limit) * (/kB$/.test(c.limit) ? 1000 : 1);
      console.log(`size-limit: ${c.name} ${(bytes / 1000).toFixed(2)} kB (budget ${c.limit})`);
      expect(bytes).toBeGreaterThan(0);
      expect(bytes, `${c.name}: ${bytes} B min+gzip > ${c.limit}`).toBeLessThanOrEqual(budget);
    },
    120_000,
  );
});
