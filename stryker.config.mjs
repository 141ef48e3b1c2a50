// Mutation testing of the core that must not silently break: `npm run mutate`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/runtime/**/*.ts',
    'src/adapters/aws/**/*.ts',
    'src/channels/**/*.ts',
    'src/dialogue/state.ts',
    'src/dialogue/commands/**/*.ts',
    'src/dialogue/agentFrames.ts',
    'src/assistant/conditions/**/*.ts',
    'src/config/interpolate.ts',
    'src/llm/**/*.ts',
    'src/actionServer/**/*.ts',
    'src/agents/**/*.ts',
    'src/mcp/**/*.ts',
    'src/a2a/**/*.ts',
    '!src/**/index.ts',
  ],
  concurrency: 2,
  incremental: true,
  // Committed, so that a run only tests the mutants of code or tests changed since the last one.
  incrementalFile: 'test/mutation/incremental.json',
  ignoreStatic: true,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
