import { defineConfig } from 'vitest/config';
import base, { projects } from './vitest.config.js';

/**
 * The tiers mutation testing runs: unit and integration. The e2e and infra tiers cover entry
 * points rather than the mutated core, and are slow.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: projects(['unit', 'integration', 'integration-isolated']),
  },
});
