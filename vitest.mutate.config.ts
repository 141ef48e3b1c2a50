import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/** The suites mutation testing runs: unit and integration tests (the e2e and synth suites are slow and cover entry points, not the mutated core). */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    },
  }),
);
