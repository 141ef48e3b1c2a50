import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateAssistantBundle } from '../../../src/build/index.js';
import { BASE_PROJECT, writeProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { type FunctionsHarness, startFunctionsHarness } from './harness.js';

// The worker imports its assistant through the esbuild alias; here it is this test's bundle.
const bundle = vi.hoisted(() => ({ registryFile: '' }));
vi.mock('@switchboard/bundle', () => import(/* @vite-ignore */ bundle.registryFile));

describe("the worker function's cold start", () => {
  let harness: FunctionsHarness | undefined;

  beforeAll(async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'sub_agents/helper/config.yml': undefined,
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}privacy:
  rules:
    - slot: name
      anonymization:
        type: mask
`,
    });
    const out = await tempDir('switchboard-bundle-');
    bundle.registryFile = (await generateAssistantBundle(dir, undefined, out)).registryFile;
    harness = await startFunctionsHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('logs a warning that the privacy rules mask nothing', async () => {
    const { logger } = await import('../../../functions/shared/observability.js');
    const warn = vi.spyOn(logger, 'warn');
    await import('../../../functions/worker.js');
    expect(warn.mock.calls.map((call) => call[0])).toContainEqual(
      expect.stringMatching(
        /^endpoints\.yml:10:1: privacy: Switchboard does not mask or delete PII/,
      ),
    );
  });
});
