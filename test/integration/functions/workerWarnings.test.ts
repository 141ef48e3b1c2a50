import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../functions/shared/observability.js';
import { BASE_PROJECT, writeProject } from '../../helpers/project.js';
import { type FunctionsHarness, startFunctionsHarness } from './harness.js';

describe("the worker function's cold start", () => {
  let harness: FunctionsHarness | undefined;
  const warn = vi.spyOn(logger, 'warn');

  beforeAll(async () => {
    harness = await startFunctionsHarness();
    await harness.worker(
      await writeProject({
        ...BASE_PROJECT,
        'sub_agents/helper/config.yml': undefined,
        'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}privacy:
  rules:
    - slot: name
      anonymization:
        type: mask
`,
      }),
    );
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('logs a warning that the privacy rules mask nothing', () => {
    expect(warn.mock.calls.map((call) => call[0])).toContainEqual(
      expect.stringMatching(
        /^endpoints\.yml:10:1: privacy: Switchboard does not mask or delete PII/,
      ),
    );
  });
});
