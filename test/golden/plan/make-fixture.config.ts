/**
 * Vitest configuration that runs make-fixture.ts alone (it is not part of the test suite):
 *   npx vitest run --config test/golden/plan/make-fixture.config.ts [-t CASE]
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../../../', import.meta.url)),
  test: {
    include: ['test/golden/plan/make-fixture.ts'],
    testTimeout: 120_000,
    pool: 'forks',
  },
});
