/**
 * The core imports no engine and touches no DOM at module load (STYLE: floating-ui's rule).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('core purity', () => {
  it('no core source imports three, Babylon.js or a DOM library', () => {
    const offenders: string[] = [];
    for (const file of sources(srcDir)) {
      const text = readFileSync(file, 'utf8');
      // real import/export statements and dynamic imports (not examples inside doc comments)
      const pattern =
        /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/gm;
      for (const match of text.matchAll(pattern)) {
        const spec = match[1] ?? match[2] ?? match[3];
        if (!spec.startsWith('.')) offenders.push(`${file}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('importing every core entry touches no browser global', async () => {
    const touched: string[] = [];
    const names = ['window', 'document', 'requestAnimationFrame', 'navigator', 'HTMLElement'];
    const saved = names.map((n) => Object.getOwnPropertyDescriptor(globalThis, n));
    for (const name of names) {
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get() {
          touched.push(name);
          return undefined;
        },
      });
    }
    try {
      vi.resetModules();
      const entries = [join(srcDir, 'index.ts')];
      const entryDir = join(srcDir, 'entries');
      try {
        for (const f of readdirSync(entryDir))
          if (f.endsWith('.ts')) entries.push(join(entryDir, f));
      } catch {
        // no subpath entries yet
      }
      for (const entry of entries) {
        const mod = await import(/* @vite-ignore */ entry);
        expect(Object.keys(mod).length).toBeGreaterThan(0);
      }
    } finally {
      names.forEach((name, i) => {
        const d = saved[i];
        if (d) Object.defineProperty(globalThis, name, d);
        else delete (globalThis as Record<string, unknown>)[name];
      });
    }
    expect(touched).toEqual([]);
  });
});
