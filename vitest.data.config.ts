import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm run test:data` (scripts/test-data.mjs): checks on the full data files in ../shared/data — row counts,
// the demo models' metrics on whole dev/test sets, the papers' orderings over hundreds of sentences.
export default defineConfig({
  test: {
    include: ['test/full-data/**/*.test.ts'],
    reporters: ['default', './test/support/skipped-reporter.ts', './test/support/slow-reporter.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // As in `npm test`: one file per core, each ONNX Runtime session on one thread (two files at once would
    // otherwise each take every core).
    setupFiles: ['./test/support/one-ort-thread.ts'],
    maxWorkers: availableParallelism(),
  },
});
