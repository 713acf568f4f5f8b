import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * One shared test config. Tests import `@fixedtick/*` and run against `src` through these
 * aliases, so no build step is needed before `vitest`: `@fixedtick/<pkg>` is
 * `packages/<pkg>/src/index.ts` and `@fixedtick/<pkg>/<subpath>` is
 * `packages/<pkg>/src/entries/<subpath>.ts`, for every package and subpath (the adapters' copies
 * of core's subpaths included), with no list to keep up to date.
 */
export const aliases = [
  {
    find: /^@fixedtick\/([a-z-]+)\/([a-z-]+(?:\/[a-z-]+)?)$/,
    replacement: src('./packages/$1/src/entries/$2.ts'),
  },
  { find: /^@fixedtick\/([a-z-]+)$/, replacement: src('./packages/$1/src/index.ts') },
];

/**
 * React Three Fiber and its test renderer publish their ES modules under `"module"` only (no
 * `exports` map), so Node would load their CommonJS builds, which `require` three's CommonJS
 * build: a second three.js beside the one the adapters import. Tests use the ES modules, as an
 * app's bundler does.
 */
const esmBuilds = [
  {
    find: /^@react-three\/fiber$/,
    replacement: src('./node_modules/@react-three/fiber/dist/react-three-fiber.esm.js'),
  },
  {
    find: /^@react-three\/test-renderer$/,
    replacement: src(
      './node_modules/@react-three/test-renderer/dist/react-three-test-renderer.esm.js',
    ),
  },
];

export default defineConfig({
  resolve: { alias: [...aliases, ...esmBuilds] },
  test: {
    include: ['packages/*/test/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Processed by Vite (see `esmBuilds`), so their own imports resolve to ES modules too.
    server: { deps: { inline: [/@react-three\//] } },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A shared folder in which the e2e files build the examples once per run (cheap otherwise).
    globalSetup: ['test/e2e/global-setup.ts'],
  },
});
