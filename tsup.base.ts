import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

/**
 * The one build config every package uses: ESM + CJS + declarations, no minification (the
 * consumer's bundler minifies), peers left external. `FIXEDTICK_DECLARATIONS=0` skips the
 * declaration files, which only publishing and the packaging tests need: `npm start` builds that
 * way (scripts/start.ts), `npm run build` and `npm run pack` with them.
 */
export function packageBuild(entry: Record<string, string>, external: string[] = []): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    dts: process.env.FIXEDTICK_DECLARATIONS !== '0',
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
    splitting: true,
    external: [/^@fixedtick\//, ...external],
  };
}

/**
 * A package's entries, read from its folder (`configUrl` is its tsup config's `import.meta.url`):
 * `index` from `src/index.ts` and one per `src/entries/*.ts` and `src/entries/<folder>/*.ts`,
 * named after the file (`rapier/worker`). For the
 * adapters that includes the core subpaths scripts/sync-subpaths.ts writes, so a new one is
 * built without a change here.
 */
export function packageEntries(configUrl: string): Record<string, string> {
  const entries: Record<string, string> = { index: 'src/index.ts' };
  const dir = fileURLToPath(new URL('src/entries/', configUrl));
  // one level of folders: `src/entries/rapier/worker.ts` is the entry `rapier/worker`
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const name = file.replaceAll('\\', '/');
    if (name.endsWith('.ts') && name.split('/').length <= 2) {
      entries[name.slice(0, -3)] = `src/entries/${name}`;
    }
  }
  return entries;
}
