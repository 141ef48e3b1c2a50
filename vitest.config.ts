import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** What a tier's project sets beyond the shared settings. */
interface TierSettings {
  readonly include: string[];
  readonly exclude?: string[];
  readonly setupFiles?: string[];
  readonly isolate?: boolean;
  readonly testTimeout: number;
  readonly hookTimeout: number;
}

const ISOLATED_INTEGRATION = [
  'test/integration/functions/**/*.test.ts',
  'test/integration/runtime/wiring.test.ts',
];

/**
 * The test tiers, each a vitest project with its own time limits (`npm run test:<tier>` runs
 * one). Unit tests stay in process: their setup file fails a test that listens, connects or
 * starts a child process. Integration tests reach real peers on loopback and the emulators; e2e
 * tests start the CLI as a child process; infra tests synthesize the stacks.
 */
const TIERS = {
  unit: {
    include: ['test/unit/**/*.test.ts'],
    setupFiles: ['test/unit/setup.ts'],
    // Unit test files share a worker's loaded modules: importing them again for each file cost
    // three quarters of the tier's time. So a unit test leaves behind no state another reads.
    isolate: false,
    testTimeout: 10_000,
    hookTimeout: 10_000,
  },
  integration: {
    include: ['test/integration/**/*.test.ts'],
    exclude: ISOLATED_INTEGRATION,
    // As in the unit tier, files share a worker's loaded modules (this halved the tier's import
    // time): an integration test leaves no state behind in a module another file reads.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
  // The integration tests that need modules of their own: the Lambda handlers read their
  // environment when they load (a cold start each file), and `vi.mock` replaces modules.
  'integration-isolated': {
    include: ISOLATED_INTEGRATION,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
  e2e: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
  infra: {
    include: ['test/infra/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
} satisfies Record<string, TierSettings>;

export type Tier = keyof typeof TIERS;

/** The projects of `tiers`, each on the shared settings below. */
export function projects(tiers: readonly Tier[]): TestProjectInlineConfiguration[] {
  return tiers.map((name) => ({ extends: true, test: { name, ...TIERS[name] } }));
}

export default defineConfig({
  // A project's `switchboard/sdk` is the source under test, as the CLI and the bundles resolve it.
  resolve: {
    alias: { 'switchboard/sdk': fileURLToPath(new URL('./src/sdk/index.ts', import.meta.url)) },
  },
  test: {
    environment: 'node',
    pool: 'forks',
    // Both cores: vitest's default on two is one worker.
    maxWorkers: 2,
    env: {
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    projects: projects(['unit', 'integration', 'integration-isolated', 'e2e', 'infra']),
  },
});
