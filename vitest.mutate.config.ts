import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The suites mutation testing runs: unit and integration tests. The e2e and synthesis suites
 * cover entry points rather than the mutated core, and are slow.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
  },
});
