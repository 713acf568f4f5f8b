/**
 * Every adapter re-exports every `@fixedtick/core` subpath as its own (docs/packaging.md): the subpath is
 * in its package.json `exports` and `typesVersions`, its entry file is the generated one, and it
 * exports exactly core's values (the same objects). Fails when an adapter misses a core subpath,
 * e.g. after core gained one and `npm run sync:subpaths` was not run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ADAPTERS,
  adapterLayout,
  coreSubpaths,
  readManifest,
} from '../scripts/lib/adapter-subpaths.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const subpaths = coreSubpaths();

describe('core subpaths', () => {
  it('are read from core package.json (the list the adapters follow)', () => {
    expect(subpaths).toEqual(
      expect.arrayContaining([
        'debug',
        'input',
        'interpolation',
        'node',
        'unity',
        'godot',
        'roblox',
      ]),
    );
  });
});

describe.each(ADAPTERS)('@fixedtick/%s', (adapter) => {
  const manifest = readManifest(adapter);
  const layout = adapterLayout(adapter);

  it('exports every core subpath, in exports and typesVersions', () => {
    const exported = Object.keys(manifest.exports);
    const typed = Object.keys(manifest.typesVersions?.['*'] ?? {});
    const missing = subpaths.filter((s) => !exported.includes(`./${s}`) || !typed.includes(s));
    expect(missing, 'core subpaths missing: run npm run sync:subpaths').toEqual([]);
    expect(manifest.exports).toEqual(layout.exports);
    expect(manifest.typesVersions).toEqual(layout.typesVersions);
  });

  it('has the generated entry file of every core subpath, and no stale one', () => {
    for (const [file, content] of layout.files) {
      const path = join(root, 'packages', adapter, file);
      expect(existsSync(path), `${file}: run npm run sync:subpaths`).toBe(true);
      expect(readFileSync(path, 'utf8'), file).toBe(content);
    }
    expect(layout.stale).toEqual([]);
  });

  it.each(subpaths)('/%s exports exactly the values of @fixedtick/core/%s', async (subpath) => {
    const entries = join(root, 'packages');
    const own = (await import(join(entries, adapter, 'src/entries', `${subpath}.ts`))) as object;
    const core = (await import(join(entries, 'core/src/entries', `${subpath}.ts`))) as object;
    expect(Object.keys(own).sort()).toEqual(Object.keys(core).sort());
    expect(Object.keys(core).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(core)) {
      expect((own as Record<string, unknown>)[name], name).toBe(value);
    }
  });
});
