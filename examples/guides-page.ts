/**
 * The guides (docs/*.md) as web pages, rendered from the Markdown on each request: what the
 * examples index links as "Guides", so they read in the browser right after `npm start` with no
 * docs build. The generated site with the API reference (`npm run docs`) is served at /docs/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: true, linkify: false });

/** The getting-started guides, listed first on the index in this order; the rest follow by name. */
const FIRST = ['three.md', 'rapier.md', 'react-three.md', 'babylon.md'];

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1f24}
pre{background:#f3f4f6;padding:.75rem 1rem;overflow-x:auto;border-radius:6px}
code{font:0.9em ui-monospace,monospace}
table{border-collapse:collapse;display:block;overflow-x:auto}
td,th{border:1px solid #d0d4da;padding:.25rem .5rem;vertical-align:top}
img{max-width:100%}
nav{font-size:.9rem;margin-bottom:1.5rem}`;

/** A complete HTML page around `body`. */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${title}</title>
<style>${STYLE}</style></head><body>
<nav><a href="/">Examples</a> · <a href="/guides/">Guides</a> · <a href="/docs/">API reference</a></nav>
${body}</body></html>`;
}

/** The first `# heading` of a Markdown text, as plain text. */
function heading(text: string, fallback: string): string {
  return (/^#\s+(.+?)\s*$/m.exec(text)?.[1] ?? fallback).replace(/`/g, '');
}

/** Every guide under `docsRoot`, as paths relative to it with `/` separators. */
function guides(docsRoot: string, dir = docsRoot): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...guides(docsRoot, full));
    else if (entry.name.endsWith('.md')) found.push(relative(docsRoot, full).split(sep).join('/'));
  }
  return found;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The /guides/ index: the getting-started guides first, then every other guide. */
export function guidesIndex(docsRoot: string): string {
  const all = guides(docsRoot);
  const ordered = [
    ...FIRST.filter((f) => all.includes(f)),
    ...all.filter((f) => !FIRST.includes(f)).sort(),
  ];
  const items = ordered.map((file) => {
    const title = heading(readFileSync(join(docsRoot, file), 'utf8'), file);
    return `<li><a href="./${file}">${escapeHtml(title)}</a></li>`;
  });
  return page(
    'Fixedtick guides',
    `<h1>Fixedtick guides</h1>
<p>Start with the getting-started guide of your engine: each has a complete page to paste into
a fresh Vite app, and how to install the packages before they are on the registry.</p>
<ul>${items.join('\n')}</ul>`,
  );
}

/** One guide (`file`, a Markdown file's full path) as a web page. */
export function guidePage(file: string): string {
  const text = readFileSync(file, 'utf8');
  return page(`${escapeHtml(heading(text, 'Fixedtick'))} · Fixedtick`, markdown.render(text));
}
