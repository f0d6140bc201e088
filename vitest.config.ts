import { configDefaults, defineConfig } from 'vitest/config';

// `npm test`: everything that needs only the checkout. The checks on the full data files in ../shared/data
// (test/full-data/) run under `npm run test:data` (vitest.data.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/full-data/**'],
    reporters: ['default', './test/support/skipped-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
