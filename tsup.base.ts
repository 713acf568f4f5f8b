import type { Options } from 'tsup';

/**
 * The one build config every package uses: ESM + CJS + declarations, no minification (the
 * consumer's bundler minifies), peers left external.
 */
export function packageBuild(entry: Record<string, string>, external: string[] = []): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
    splitting: true,
    external: [/^@fixedtick\//, ...external],
  };
}
