import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// `npm test`: everything that needs only the checkout. The checks on the full data files in ../shared/data
// (test/full-data/) run under `npm run test:data` (vitest.data.config.ts); the fault injections with real
// processes and long waits (test/faults/: killed servers, a corrupted cache, Redis lost) under `npm run test:faults`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/full-data/**', 'test/faults/**'],
    reporters: ['default', './test/support/skipped-reporter.ts', './test/support/slow-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['./test/support/one-ort-thread.ts'],
    // One test file per core (vitest's default leaves one core free, so a 2-core machine ran one file at a time):
    // the main process only waits, and the tests run the CLI in their own process.
    maxWorkers: availableParallelism(),
  },
});
