import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm run test:faults`: fault injection with real processes and real waits — a model server killed mid-run and
// resumed, a query cache truncated, zeroed and overwritten, Redis unreachable, restarted or shared by two
// coordinators, workers of other code. They need only the checkout (and redis-server, as test/queue/ does), but
// spend most of their 2–3 minutes starting processes and waiting, so they run beside `npm test`, not in it.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    reporters: ['default', './test/support/skipped-reporter.ts', './test/support/slow-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['./test/support/one-ort-thread.ts'],
    maxWorkers: availableParallelism(),
  },
});
