/**
 * Every `@fixedtick/...` import the guides (docs/**.md), the README and the package READMEs show
 * resolves: the package exists and exports that subpath. A package README imports only from its
 * own package (`@fixedtick/three/debug` in the three.js README, not `@fixedtick/core/debug`):
 * under pnpm's strict layout an app that installed the adapter cannot import the core by name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['core', 'three', 'babylon', 'react-three', 'colyseus'] as const;

/** Every specifier `@fixedtick/<pkg>[/<subpath>]` that package.json `exports` allows. */
const exported = new Set(
  PACKAGES.flatMap((pkg) => {
    const manifest = JSON.parse(
      readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'),
    ) as { name: string; exports: Record<string, unknown> };
    return Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
  }),
);

/**
 * The imports a Markdown text shows: `from '@fixedtick/…'` and `import('@fixedtick/…')` in code,
 * "from `@fixedtick/…`" in prose, and the keys of an import map.
 */
function importsIn(markdown: string): string[] {
  const patterns = [
    /from\s+['"](@fixedtick\/[^'"]+)['"]/g,
    /import\(\s*['"](@fixedtick\/[^'"]+)['"]\s*\)/g,
    /from\s+`(@fixedtick\/[^`]+)`/g,
    /^\s*"(@fixedtick\/[^"]+)":/gm,
  ];
  return patterns.flatMap((pattern) => [...markdown.matchAll(pattern)].map((m) => m[1]));
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const documents = [
  join(root, 'README.md'),
  ...markdownFiles(join(root, 'docs')),
  ...PACKAGES.map((pkg) => join(root, 'packages', pkg, 'README.md')),
];

describe('imports shown in the docs', () => {
  it('are found: the guides and READMEs show imports at all', () => {
    const all = documents.flatMap((file) => importsIn(readFileSync(file, 'utf8')));
    expect(all.length).toBeGreaterThan(50);
    expect(all).toContain('@fixedtick/three/debug');
  });

  it.each(documents.map((file) => [relative(root, file), file]))(
    '%s: every @fixedtick import resolves to an exported entry',
    (_name, file) => {
      const unresolved = importsIn(readFileSync(file, 'utf8')).filter((s) => !exported.has(s));
      expect(unresolved).toEqual([]);
    },
  );

  it.each(PACKAGES.filter((pkg) => pkg !== 'core'))(
    'packages/%s/README.md imports only from its own package',
    (pkg) => {
      const readme = readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8');
      const foreign = importsIn(readme).filter(
        (s) => s !== `@fixedtick/${pkg}` && !s.startsWith(`@fixedtick/${pkg}/`),
      );
      expect(foreign).toEqual([]);
    },
  );
});
