/**
 * The public entry points of the packages, as users import them: what the API reference and
 * the packaging checks cover.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The packages whose API is documented, in the order they appear. */
export const DOCUMENTED_PACKAGES = ['core', 'three', 'babylon', 'react-three', 'colyseus'] as const;

export interface Entry {
  /** The import specifier users write. */
  specifier: string;
  /** Source file, absolute. */
  file: string;
}

/** Every public entry point of every package present in packages/. */
export function publicEntries(): Entry[] {
  const entries: Entry[] = [];
  for (const pkg of DOCUMENTED_PACKAGES) {
    const dir = join(root, 'packages', pkg);
    const manifest = join(dir, 'package.json');
    const index = join(dir, 'src', 'index.ts');
    if (!existsSync(manifest) || !existsSync(index)) {
      console.warn(`docs: packages/${pkg} has no package.json or src/index.ts yet; skipped`);
      continue;
    }
    const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name;
    entries.push({ specifier: name, file: index });
    const sub = join(dir, 'src', 'entries');
    if (!existsSync(sub)) continue;
    // one level of folders: `src/entries/rapier/worker.ts` is `<name>/rapier/worker`
    const files = readdirSync(sub, { recursive: true, encoding: 'utf8' })
      .map((f) => f.replaceAll('\\', '/'))
      .sort();
    for (const f of files) {
      if (f.endsWith('.ts') && !f.endsWith('.test.ts') && f.split('/').length <= 2) {
        entries.push({ specifier: `${name}/${f.slice(0, -3)}`, file: join(sub, f) });
      }
    }
  }
  return entries;
}
