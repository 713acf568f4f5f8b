/**
 * A size-limit plugin that bundles each check with Rolldown, minified, as `@size-limit/rolldown`
 * 14 does (same output options, same empty-project correction), for size-limit 12.
 *
 * Why not the published plugin: size-limit 14 and its Rolldown plugin declare Node 22, and the
 * repository runs on Node 20 (docs/packaging.md). size-limit 12's own presets bundle with
 * esbuild, whose minifier measures the same code ≈ 0.25 kB larger, so the budgets of
 * .size-limit.json (set on Rolldown's numbers) would change meaning. Rolldown itself is Vite's
 * bundler, already a pinned dev dependency.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'rolldown';

/** What a check carries between the plugin's steps (size-limit's check object, in part). */
interface Check {
  files: string | string[];
  import?: Record<string, string>;
  ignore?: string[];
  gzip?: boolean;
  size?: number;
  bundles?: string[];
  rolldownOutput?: string;
}

/**
 * Bytes of gzip output an empty project still has (the entry that only imports), subtracted as
 * `@size-limit/rolldown` 14.1.0 does: 34 with an `import` check, 20 without.
 */
const EMPTY_PROJECT_GZIP = { import: 34, plain: 20 } as const;

const escapeRegExp = (s: string): string =>
  s.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&').replace(/-/g, '\\x2d');

/** The plugin, in size-limit's plugin shape (a list of step objects). */
export const rolldownPlugin = [
  {
    name: 'fixedtick-size-limit-rolldown',
    async step40(_config: unknown, check: Check): Promise<void> {
      check.rolldownOutput = join(tmpdir(), `size-limit-${randomUUID()}`);
      const ignore = check.ignore ?? [];
      const result = await build({
        input: Array.isArray(check.files) ? check.files : [check.files],
        // Rolldown only warns on an unresolved import and drops it: the size would be too small.
        onLog(_level, log) {
          if (log.code === 'UNRESOLVED_IMPORT') throw new Error(log.message);
        },
        external:
          ignore.length > 0 ? new RegExp(`^(${ignore.map(escapeRegExp).join('|')})($|/)`) : [],
        output: { comments: { annotation: false }, dir: check.rolldownOutput, minify: true },
        treeshake: true,
        write: true,
      });
      check.bundles = result.output.map((chunk) =>
        join(check.rolldownOutput ?? '', chunk.fileName),
      );
    },
    async step61(_config: unknown, check: Check): Promise<void> {
      if (check.size === undefined) throw new Error('size-limit: @size-limit/file must run first');
      if (check.gzip !== true) throw new Error('size-limit: only gzip checks are corrected here');
      check.size -= check.import ? EMPTY_PROJECT_GZIP.import : EMPTY_PROJECT_GZIP.plain;
    },
    async finally(_config: unknown, check: Check): Promise<void> {
      if (check.rolldownOutput) await rm(check.rolldownOutput, { recursive: true, force: true });
    },
  },
];
