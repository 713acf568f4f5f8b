/**
 * Code blocks of the guides, by the file name written after their language
 * (```` ```ts main.ts ````), so tests run exactly what the docs show.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));

/** The one code block of `docs/<doc>` labelled `file`; throws unless there is exactly one. */
export function docSnippet(doc: string, file: string): string {
  return labelledBlock(join(docs, doc), file);
}

/** The one code block of the Markdown file `path` labelled `file` (any file, a README too). */
export function labelledBlock(path: string, file: string): string {
  const markdown = readFileSync(path, 'utf8');
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const blocks = [
    ...markdown.matchAll(new RegExp(`^\`\`\`\\w+ ${escaped}\\n([\\s\\S]*?)^\`\`\`$`, 'gm')),
  ];
  if (blocks.length !== 1) {
    throw new Error(`${path}: expected one code block labelled ${file}, found ${blocks.length}`);
  }
  return blocks[0][1];
}
