import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE_PROJECT, writeProject } from '../../helpers/project.js';
import { type FunctionsHarness, startFunctionsHarness } from './harness.js';

describe("the worker function's cold start", () => {
  let harness: FunctionsHarness | undefined;
  let projectDir = '';

  beforeAll(async () => {
    projectDir = await writeProject({
      ...BASE_PROJECT,
      'sub_agents/helper/config.yml': undefined,
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}privacy:
  rules:
    - slot: name
      anonymization:
        type: mask
`,
    });
    harness = await startFunctionsHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('logs a warning that the privacy rules mask nothing', async () => {
    const { logger } = await import('../../../functions/shared/observability.js');
    const warn = vi.spyOn(logger, 'warn');
    await harness?.worker(projectDir);
    expect(warn.mock.calls.map((call) => call[0])).toContainEqual(
      expect.stringMatching(
        /^endpoints\.yml:10:1: privacy: Switchboard does not mask or delete PII/,
      ),
    );
  });
});
