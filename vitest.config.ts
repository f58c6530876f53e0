import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Under CI the JSON report lets .ci/run print the plain "N passed, N failed" line.
const ci = process.env['CI'] !== undefined && process.env['CI'] !== '';

/** Tests that run the CLI, or handle processes and signals: each file in a process of its own. */
const ISOLATED = ['test/e2e/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/chaos/**/*.test.ts'];

export default defineConfig({
  test: {
    // one real PostgreSQL server for the run, for the tests of the PostgreSQL state backend
    globalSetup: ['test/support/postgres.ts'],
    // one fixed seed for every property test (PROPERTY_SEED to try another), and one fixed
    // instant every test file starts at (test/support/test-clock.ts)
    setupFiles: ['test/support/property-seed.ts', 'test/support/clock-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // one test file per core and one more: most of the end-to-end suite waits on emulators and
    // CLI processes, so a core would otherwise sit idle (on 2 cores, 3 files at once finish the
    // suite in about two thirds of the time of 2)
    maxWorkers: availableParallelism() + 1,
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: '.ci/vitest-report.json' } } : {}),
    projects: [
      // the unit tests share their workers' module cache: they call functions, keep no process
      // state, and loading src/ once per worker rather than once per file saves a third of the run
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
