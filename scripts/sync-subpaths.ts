/**
 * `npm run sync:subpaths` (also the first step of `npm run build`): gives every adapter one
 * subpath per `@fixedtick/core` subpath — the entry files and the package.json `exports` /
 * `typesVersions` that scripts/lib/adapter-subpaths.ts computes from core's package.json. A new
 * core subpath therefore reaches `@fixedtick/three/<name>` and `@fixedtick/babylon/<name>` with
 * no hand edit; commit what this writes (`.ci/run` fails on an uncommitted difference).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADAPTERS, adapterLayout, readManifest } from './lib/adapter-subpaths.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Writes `content` to `path` unless it is there already; true when it wrote. */
function write(path: string, content: string): boolean {
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) return false;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return true;
}

const changed: string[] = [];
for (const adapter of ADAPTERS) {
  const dir = join(root, 'packages', adapter);
  const layout = adapterLayout(adapter);
  for (const [file, content] of layout.files) {
    if (write(join(dir, file), content)) changed.push(`packages/${adapter}/${file}`);
  }
  for (const file of layout.stale) {
    rmSync(join(dir, file));
    changed.push(`packages/${adapter}/${file} (removed)`);
  }
  const manifest = readManifest(adapter);
  manifest.exports = layout.exports;
  manifest.typesVersions = layout.typesVersions;
  // Key order as npm writes it: typesVersions before exports, where the packages keep them.
  const ordered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === 'exports') ordered.typesVersions = manifest.typesVersions;
    if (key !== 'typesVersions') ordered[key] = value;
  }
  const text = `${JSON.stringify(ordered, null, 2)}\n`;
  if (write(join(dir, 'package.json'), text)) changed.push(`packages/${adapter}/package.json`);
}
console.log(
  changed.length === 0
    ? 'sync:subpaths: every adapter re-exports every core subpath'
    : `sync:subpaths: wrote ${changed.join(', ')}`,
);
