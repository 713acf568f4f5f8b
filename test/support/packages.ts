/**
 * The packages as users get them: built (`dist/`, rebuilt when older than the sources) and
 * packed with `npm pack`, once per test run, into tarballs that tests install outside the
 * repository (a fresh Vite app, a pnpm project).
 */
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { onceInRun } from './run-once.ts';

const execFile = promisify(execFileCallback);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every published package, core first (the adapters' declarations are built against it). */
export const PACKAGES = ['core', 'three', 'babylon', 'react-three', 'colyseus'] as const;
/** One published package's folder name under packages/. */
export type PackageName = (typeof PACKAGES)[number];

const dir = (pkg: string): string => join(root, 'packages', pkg);

function newestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const f of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, f)));
  return newest;
}

/**
 * Builds a package when its dist is missing, older than its sources or build config, or has no
 * declaration files (`npm start` builds without them).
 */
export function ensureBuilt(pkg: PackageName): void {
  const marker = join(dir(pkg), 'dist', 'index.js');
  const declarations = join(dir(pkg), 'dist', 'index.d.ts');
  const sources = Math.max(
    newestMtime(join(dir(pkg), 'src')),
    statSync(join(dir(pkg), 'package.json')).mtimeMs,
    statSync(join(dir(pkg), 'tsup.config.ts')).mtimeMs,
  );
  if (existsSync(marker) && existsSync(declarations) && statSync(marker).mtimeMs >= sources) {
    return;
  }
  execFileSync('npm', ['run', 'build', '-w', `packages/${pkg}`], { cwd: root, stdio: 'pipe' });
}

/**
 * The environment for a package manager run outside the repository: this process's, without
 * the `npm_*` variables an `npm test` run sets (they would point npm back at the repository).
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  );
}

/** Runs a command, failing with its output when it exits non-zero. */
export async function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout}\n${e.stderr}`);
  }
}

/** The tarball of every package, packed once per run: `{ core: '/…/fixedtick-core-0.1.0.tgz', … }`. */
export async function packedTarballs(): Promise<Record<PackageName, string>> {
  const out = await onceInRun(
    'tarballs',
    async (folder) => {
      for (const pkg of PACKAGES) ensureBuilt(pkg);
      await run(
        'npm',
        ['pack', '--pack-destination', folder, ...PACKAGES.map((p) => `./packages/${p}`)],
        root,
      );
    },
    'building and packing the four packages, once per run (1–2 min)',
  );
  const files = readdirSync(out);
  return Object.fromEntries(
    PACKAGES.map((pkg) => {
      const file = files.find((f) => f.startsWith(`fixedtick-${pkg}-`) && f.endsWith('.tgz'));
      if (file === undefined) throw new Error(`npm pack wrote no tarball for @fixedtick/${pkg}`);
      return [pkg, join(out, file)];
    }),
  ) as Record<PackageName, string>;
}

/** The exact version of a dev dependency of the repository (the tests install the same one). */
export function pinned(name: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const version = manifest.devDependencies[name];
  if (version === undefined) throw new Error(`${name} is not a dev dependency of the repository`);
  return version;
}
