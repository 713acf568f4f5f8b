/**
 * A tiny static server for the built examples (examples/dist) and, at /docs/, the generated
 * documentation site (docs-site/, made by `npm run docs`) when it exists. Used by `npm start`
 * and by the end-to-end tests; no dependency beyond Node.
 *
 * Run: `tsx examples/serve.ts [--port 4173]` (or PORT=…). Prints the address it listens on.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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
<h1>Documentation not built</h1><p>Run <code>npm run docs</code> to generate the documentation
site into <code>docs-site/</code>, then reload. The Markdown guides are in <code>docs/</code>.</p>
<p><a href="/">Back to the examples</a></p></body></html>`;

/** Options of {@link serveExamples}. */
export interface ServeOptions {
  /** The built examples. @defaultValue examples/dist */
  root?: string;
  /** Served at /docs/ when the folder exists. @defaultValue docs-site/ at the repository root */
  docsRoot?: string;
  /** 0 = any free port. @defaultValue 0 */
  port?: number;
  /** @defaultValue '127.0.0.1' */
  host?: string;
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

/** Starts the static server; resolves once it listens. */
export function serveExamples(options: ServeOptions = {}): Promise<RunningServer> {
  const root = resolve(options.root ?? fileURLToPath(new URL('./dist', import.meta.url)));
  const docsRoot = resolve(
    options.docsRoot ?? fileURLToPath(new URL('../docs-site', import.meta.url)),
  );
  const host = options.host ?? '127.0.0.1';

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let base = root;
    let path = url.pathname;
    if (path === '/docs') {
      res.writeHead(301, { location: '/docs/' }).end();
      return;
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
      res
        .writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-cache',
        })
        .end(body);
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': TYPES['.txt'] }).end(String(error));
    });
  });

  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host === '127.0.0.1' ? 'localhost' : host;
      resolveServer({
        url: `http://${shown}:${port}/`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** `npm start`: serve examples/dist on PORT (default 4173, or the next free one). */
async function main(): Promise<void> {
  const root = fileURLToPath(new URL('./dist', import.meta.url));
  if (!existsSync(join(root, 'index.html'))) {
    console.error('examples/dist is missing: run `vite build -c examples/vite.config.ts` first.');
    process.exitCode = 1;
    return;
  }
  const flag = process.argv.indexOf('--port');
  const wanted = Number(flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? 4173));
  for (let port = wanted; port < wanted + 20; port++) {
    try {
      const running = await serveExamples({ root, port });
      console.log(`Fixedtick examples: ${running.url}`);
      console.log('(docs at /docs/ once `npm run docs` has built docs-site/; Ctrl+C to stop)');
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error(`no free port in ${wanted}–${wanted + 19}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
