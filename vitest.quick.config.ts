import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:quick`: the unit and integration tests a contributor runs while working — every
 * test of vitest.config.ts except those that drive Chromium, pack or install the packages, or
 * build the docs site. `npm test` runs everything.
 */
export const SLOW_TESTS = [
  'test/e2e/**',
  'test/docs-site.test.ts',
  'test/packaging.test.ts',
  'test/packaging-docs.test.ts',
  'test/pnpm-strict.test.ts',
  'test/install-from-tarballs.test.ts',
];

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [...configDefaults.exclude, ...SLOW_TESTS],
    },
  }),
);
