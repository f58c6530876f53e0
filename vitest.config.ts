import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Under CI the JSON report lets .ci/run print the plain "N passed, N failed" line.
const ci = process.env['CI'] !== undefined && process.env['CI'] !== '';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // one real PostgreSQL server for the run, for the tests of the PostgreSQL state backend
    globalSetup: ['test/support/postgres.ts'],
    // one fixed seed for every property test (PROPERTY_SEED to try another)
    setupFiles: ['test/support/property-seed.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // one test file per core: most of the suite waits on emulators and CLI processes, so the
    // default (one core left idle) doubles the wall time on a 2-core machine
    maxWorkers: Math.max(1, availableParallelism()),
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: '.ci/vitest-report.json' } } : {}),
  },
});
