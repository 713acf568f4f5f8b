/**
 * An example's source as the local server shows it (`/source/<folder>/`): a list of the folder's
 * files, each served as plain text. The gallery's "View source" links here, so the source opens
 * from the same `npm start` that serves the page, with no repository host involved.
 */
import { readdirSync } from 'node:fs';

/** Folders of examples/ that hold no example source. */
const NOT_SOURCE = new Set(['dist', 'public', 'node_modules']);

/** True when `name` is a folder of examples/ whose source may be shown. */
export function isSourceFolder(name: string): boolean {
  return !NOT_SOURCE.has(name) && !name.startsWith('.');
}

/** The listing page of `examples/<folder>/` (`dir` is its full path). */
export function sourceListing(folder: string, dir: string): string {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  const items = files.map((f) => `<li><a href="./${f}">${f}</a></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>examples/${folder}</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<p><a href="/">← all examples</a> · <a href="/${folder}/">open the page</a></p>
<h1>examples/${folder}/</h1><ul>${items}</ul>
<p>Shared helpers the examples import: <a href="/source/shared/">examples/shared/</a>.</p>
</body></html>`;
}
