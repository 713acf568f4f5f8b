/**
 * docs/guarantees.md links every guarantee to the test that proves it, as
 * `[file: "test title"](../path/to/file.test.ts)`. This test keeps those links true: every linked
 * file exists, and every quoted title is a test in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docUrl = new URL('../../docs/guarantees.md', import.meta.url);
const doc = readFileSync(docUrl, 'utf8');
const links = [...doc.matchAll(/\[([^\]]*)\]\((\.\.\/[^)\s]+)\)/g)].map((m) => ({
  text: m[1],
  path: fileURLToPath(new URL(m[2], docUrl)),
  target: m[2],
}));
const testLinks = links
  .map((l) => ({ ...l, title: l.text.match(/"([^"]+)"/)?.[1] }))
  .filter((l): l is typeof l & { title: string } => l.title !== undefined);

describe('docs/guarantees.md', () => {
  it('links at least one test per guarantee, and every linked file exists', () => {
    expect(testLinks.length).toBeGreaterThan(50);
    for (const link of links) expect(existsSync(link.path), link.target).toBe(true);
  });

  it.each(testLinks)('$target has the test "$title"', ({ path, title }) => {
    const source = readFileSync(path, 'utf8');
    // titles are quoted in the source as written; the doc may quote a leading part of one
    expect(source.includes(title), `no test titled "${title}…" in ${path}`).toBe(true);
    expect(/\bit(\.each\([^)]*\))?\(/.test(source)).toBe(true);
  });
});
