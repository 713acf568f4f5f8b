import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * One shared test config. Tests import `@fixedtick/*` and run against `src` through these
 * aliases, so no build step is needed before `vitest`.
 */
export const aliases = [
  { find: /^@fixedtick\/core\/(.+)$/, replacement: src('./packages/core/src/entries/$1.ts') },
  { find: /^@fixedtick\/core$/, replacement: src('./packages/core/src/index.ts') },
  { find: /^@fixedtick\/three$/, replacement: src('./packages/three/src/index.ts') },
  { find: /^@fixedtick\/babylon\/(.+)$/, replacement: src('./packages/babylon/src/entries/$1.ts') },
  { find: /^@fixedtick\/babylon$/, replacement: src('./packages/babylon/src/index.ts') },
];

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A shared folder in which the e2e files build the examples once per run (cheap otherwise).
    globalSetup: ['test/e2e/global-setup.ts'],
  },
});
