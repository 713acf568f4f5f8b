import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { aliases } from '../vitest.config.ts';
import { examples } from './catalog.ts';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from './cross-origin-isolation.ts';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
const repo = (p: string): string => fileURLToPath(new URL(`../${p}`, import.meta.url));

/** Copies the ES modules (`*.js`) of `from` into `to`. */
function copyModules(from: string, to: string): void {
  if (!existsSync(from)) {
    throw new Error(`examples: ${from} is missing; run \`npm run build\` first`);
  }
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) {
    if (file.endsWith('.js')) copyFileSync(join(from, file), join(to, file));
  }
}

/**
 * The pages that are not bundled (catalog `bundled: false`, the import-map page) are copied as
 * they are, with what they load by URL: the packages' built ES modules under
 * `/lib/@fixedtick/<pkg>/dist/`, three's ES build under `/lib/three/build/`, and the shared
 * stylesheet at `/shared/style.css`.
 */
function unbundledPages(): Plugin {
  let outDir = '';
  return {
    name: 'fixedtick-unbundled-pages',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle() {
      for (const example of examples.filter((e) => e.bundled === false)) {
        const target = join(outDir, example.slug);
        mkdirSync(target, { recursive: true });
        for (const file of readdirSync(here(example.slug))) {
          copyFileSync(join(here(example.slug), file), join(target, file));
        }
      }
      for (const pkg of ['core', 'three', 'babylon']) {
        copyModules(repo(`packages/${pkg}/dist`), join(outDir, 'lib/@fixedtick', pkg, 'dist'));
      }
      const three = join(outDir, 'lib/three/build');
      mkdirSync(three, { recursive: true });
      for (const file of ['three.module.js', 'three.core.js']) {
        copyFileSync(repo(`node_modules/three/build/${file}`), join(three, file));
      }
      mkdirSync(join(outDir, 'shared'), { recursive: true });
      copyFileSync(here('shared/style.css'), join(outDir, 'shared/style.css'));
    },
  };
}

/**
 * One multi-page Vite app: the index plus one page per entry of `catalog.ts`. Examples import
 * `@fixedtick/*` from source through the same aliases the tests use; only the import-map page
 * loads the built packages (`npm start` builds them first). `npm start` builds this and serves
 * it (examples/serve.ts); `npx vite -c examples/vite.config.ts` gives a dev server with hot
 * reload for the bundled pages. The dev and preview servers, like `npm start`, send the
 * cross-origin isolation headers (docs/cross-origin-isolation.md).
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: here('public'),
  resolve: { alias: aliases },
  plugins: [unbundledPages()],
  server: { headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
  preview: { headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
  // Havok loads its .wasm relative to its module; pre-bundling would move the module away.
  optimizeDeps: { exclude: ['@babylonjs/havok'] },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Babylon.js is large by nature; the warning says nothing useful about these demos.
    chunkSizeWarningLimit: 8000,
    rolldownOptions: {
      input: {
        index: here('index.html'),
        ...Object.fromEntries(
          examples
            .filter((e) => e.bundled !== false)
            .map((e) => [e.slug, here(`${e.slug}/index.html`)]),
        ),
      },
    },
  },
});
