import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { aliases } from '../vitest.config.ts';
import { examples } from './catalog.ts';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/**
 * One multi-page Vite app: the index plus one page per entry of `catalog.ts`. Examples import
 * `@fixedtick/*` from source through the same aliases the tests use, so no package build is
 * needed. `npm start` builds this and serves it (examples/serve.ts); `npx vite -c
 * examples/vite.config.ts` gives a dev server with hot reload.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: here('public'),
  resolve: { alias: aliases },
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
        ...Object.fromEntries(examples.map((e) => [e.slug, here(`${e.slug}/index.html`)])),
      },
    },
  },
});
