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
 * `index` from `src/index.ts` and one per `src/entries/*.ts`, named after the file. For the
 * adapters that includes the core subpaths scripts/sync-subpaths.ts writes, so a new one is
 * built without a change here.
 */
export function packageEntries(configUrl: string): Record<string, string> {
  const entries: Record<string, string> = { index: 'src/index.ts' };
  for (const file of readdirSync(fileURLToPath(new URL('src/entries/', configUrl))).sort()) {
    if (file.endsWith('.ts')) entries[file.slice(0, -3)] = `src/entries/${file}`;
  }
  return entries;
}
