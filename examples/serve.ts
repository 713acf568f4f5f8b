/**
 * A tiny static server for the built examples (examples/dist); the guides (docs/*.md, rendered
 * on request) at /guides/; each example's source as plain text at /source/<folder>/; and, at
 * /docs/, the generated documentation site with the API reference (docs-site/, made by
 * `npm run docs`) when it exists. Used by `npm start` and by the end-to-end tests. Every response
 * carries the cross-origin isolation headers (cross-origin-isolation.ts) unless told otherwise.
 *
 * Run: `tsx examples/serve.ts [--port 4173]` (or PORT=…). Prints the address it listens on.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from './cross-origin-isolation.ts';
import { guidePage, guidesIndex } from './guides-page.ts';
import { attachGameServer } from './multiplayer/server.ts';
import { isSourceFolder, sourceListing } from './source-page.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const NO_DOCS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>Fixedtick docs</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>API reference not built</h1><p>The guides are here: <a href="/guides/">Guides</a>. The
API reference is generated: run <code>npm run docs</code> (about a minute) to build the
documentation site into <code>docs-site/</code>, then reload.</p>
<p><a href="/">Back to the examples</a></p></body></html>`;

/** Options of {@link serveExamples}. */
export interface ServeOptions {
  /** The built examples. @defaultValue examples/dist */
  root?: string;
  /** Served at /docs/ when the folder exists. @defaultValue docs-site/ at the repository root */
  docsRoot?: string;
  /** The Markdown guides, rendered at /guides/. @defaultValue docs/ at the repository root */
  guidesRoot?: string;
  /** The example sources, shown at /source/. @defaultValue the examples/ folder */
  sourceRoot?: string;
  /** 0 = any free port. @defaultValue 0 */
  port?: number;
  /** @defaultValue '127.0.0.1' */
  host?: string;
  /**
   * Sends the COOP/COEP headers that make the pages cross-origin isolated (shared memory for
   * physics in a worker); `false` serves them without, as a host that does not set them would.
   * @defaultValue true
   */
  crossOriginIsolated?: boolean;
}

/** A running server: its base URL (ending in `/`) and how to stop it. */
export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Resolves a URL path inside `root`, refusing anything that escapes it. */
function inside(root: string, urlPath: string): string | undefined {
  const full = normalize(join(root, decodeURIComponent(urlPath)));
  return full === root || full.startsWith(root + sep) ? full : undefined;
}

async function fileFor(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path);
    if (s.isFile()) return path;
    if (s.isDirectory()) {
      const index = join(path, 'index.html');
      if ((await stat(index)).isFile()) return index;
    }
  } catch {
    // missing: 404 below
  }
  return undefined;
}

/**
 * The pages made on request: the guides' index and each guide rendered from Markdown
 * (/guides/…md), and the listing of an example's folder (/source/<folder>/). Undefined for a
 * plain file (a figure, a source file), which is served as it is.
 */
function generatedPage(
  path: string,
  guidesRoot: string,
  sourceRoot: string,
): { type: string; body: string } | undefined {
  const html = TYPES['.html'];
  if (path === '/guides/') return { type: html, body: guidesIndex(guidesRoot) };
  if (path.startsWith('/guides/') && path.endsWith('.md')) {
    const file = inside(guidesRoot, path.slice('/guides'.length));
    if (file !== undefined && existsSync(file)) return { type: html, body: guidePage(file) };
  }
  const folder = /^\/source\/([\w-]+)\/$/.exec(path)?.[1];
  if (folder !== undefined && isSourceFolder(folder)) {
    const dir = join(sourceRoot, folder);
    if (existsSync(dir)) return { type: html, body: sourceListing(folder, dir) };
  }
  return undefined;
}

/** Starts the static server; resolves once it listens. */
export function serveExamples(options: ServeOptions = {}): Promise<RunningServer> {
  const root = resolve(options.root ?? fileURLToPath(new URL('./dist', import.meta.url)));
  const docsRoot = resolve(
    options.docsRoot ?? fileURLToPath(new URL('../docs-site', import.meta.url)),
  );
  const guidesRoot = resolve(
    options.guidesRoot ?? fileURLToPath(new URL('../docs', import.meta.url)),
  );
  const sourceRoot = resolve(options.sourceRoot ?? fileURLToPath(new URL('.', import.meta.url)));
  const host = options.host ?? '127.0.0.1';
  const isolated = options.crossOriginIsolated ?? true;

  const server = createServer((req, res) => {
    if (isolated) {
      for (const [name, value] of Object.entries(CROSS_ORIGIN_ISOLATION_HEADERS)) {
        res.setHeader(name, value);
      }
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    let base = root;
    let path = url.pathname;
    for (const section of ['/docs', '/guides', '/source']) {
      if (path === section) {
        res.writeHead(301, { location: `${section}/` }).end();
        return;
      }
    }
    if (path.startsWith('/guides/') || path.startsWith('/source/')) {
      const generated = generatedPage(path, guidesRoot, sourceRoot);
      if (generated !== undefined) {
        res.writeHead(200, { 'content-type': generated.type, 'cache-control': 'no-cache' });
        res.end(generated.body);
        return;
      }
      const inSource = path.startsWith('/source/');
      base = inSource ? sourceRoot : guidesRoot;
      path = path.slice(path.indexOf('/', 1));
      if (inSource && !isSourceFolder(path.split('/')[1] ?? '')) path = '/missing';
    }
    if (path.startsWith('/docs/')) {
      // Not built yet (or being rebuilt by `npm run docs` right now): say how to build it.
      if (path === '/docs/' && !existsSync(join(docsRoot, 'index.html'))) {
        res.writeHead(200, { 'content-type': TYPES['.html'] }).end(NO_DOCS_PAGE);
        return;
      }
      base = docsRoot;
      path = path.slice('/docs'.length);
    }
    const target = inside(base, path);
    void (async () => {
      const file = target === undefined ? undefined : await fileFor(target);
      if (file === undefined) {
        res.writeHead(404, { 'content-type': TYPES['.txt'] }).end('not found');
        return;
      }
      // A directory URL without its slash would break the pages' relative links.
      if (!path.endsWith('/') && file.endsWith(`${sep}index.html`) && !path.endsWith('.html')) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
        return;
      }
      const body = await readFile(file);
      // Source files read as text in the browser, whatever their extension.
      const type = base === sourceRoot ? TYPES['.txt'] : TYPES[extname(file)];
      res
        .writeHead(200, {
          'content-type': type ?? 'application/octet-stream',
          'cache-control': 'no-cache',
        })
        .end(body);
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': TYPES['.txt'] }).end(String(error));
    });
  });

  // the multiplayer example's Colyseus room, on the same port (examples/multiplayer/server.ts)
  const game = attachGameServer(server);

  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host === '127.0.0.1' ? 'localhost' : host;
      resolveServer({
        url: `http://${shown}:${port}/`,
        server,
        close: async () => {
          await game.close();
          await new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          });
        },
      });
    });
  });
}

/**
 * Serves examples/dist on `wanted` (or the next free port of 20) and prints the address: the
 * last step of `npm start` (scripts/start.ts).
 */
export async function serveBuiltExamples(wanted: number): Promise<RunningServer> {
  const root = fileURLToPath(new URL('./dist', import.meta.url));
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error('examples/dist is missing: run `npm start`, which builds it');
  }
  for (let port = wanted; port < wanted + 20; port++) {
    try {
      const running = await serveExamples({ root, port });
      console.log(`Fixedtick examples: ${running.url}`);
      console.log(
        `Guides: ${running.url}guides/ · API reference: ${running.url}docs/ (after \`npm run docs\`) · Ctrl+C stops`,
      );
      return running;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error(`no free port in ${wanted}–${wanted + 19}`);
}

/** The port `npm start` asks for: `--port N`, else PORT, else 4173. */
export function wantedPort(argv: readonly string[] = process.argv): number {
  const flag = argv.indexOf('--port');
  return Number(flag >= 0 ? argv[flag + 1] : (process.env.PORT ?? 4173));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  serveBuiltExamples(wantedPort()).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
