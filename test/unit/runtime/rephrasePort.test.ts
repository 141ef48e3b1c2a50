import { beforeAll, describe, expect, it } from 'vitest';
import type { Assistant, LlmConfig } from '../../../src/assistant/index.js';
import { DemoModel } from '../../../src/demo/index.js';
import type { LlmPort } from '../../../src/dialogue/index.js';
import { rephrasePort } from '../../../src/runtime/rephrasePort.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';

const FILES = {
  'endpoints.yml': `model_groups:
  - id: rephrasing
    models:
      - model: rephraser
nlg:
  type: rephrase
  llm:
    model_group: rephrasing
`,
  'domain.yml': 'responses:\n  utter_hi:\n    - text: Hi.\n',
};

describe('rephrasePort', () => {
  let assistant: Assistant;
  const warnings: string[] = [];
  const logger = {
    ...SILENT_LOGGER,
    warn: (message: string, fields: Record<string, unknown>) =>
      warnings.push(`${message} ${JSON.stringify(fields)}`),
  };

  beforeAll(async () => {
    assistant = await assistantFrom(FILES);
  });

  it('rephrases with the model the nlg block names', () => {
    const asked: (LlmConfig | undefined)[] = [];
    const rephraser = new ScriptedLlm();
    const models = (llm: LlmConfig | undefined): LlmPort => {
      asked.push(llm);
      return rephraser;
    };
    expect(rephrasePort(assistant, models, new ScriptedLlm(), logger)?.llm).toBe(rephraser);
    expect(asked).toEqual([{ model_group: 'rephrasing' }]);
  });

  it('turns rephrasing off while the command generator is the scripted demo model', () => {
    expect(rephrasePort(assistant, () => new ScriptedLlm(), new DemoModel(), logger)).toBe(
      undefined,
    );
  });

  it('turns rephrasing off when its own model would be the scripted demo model', () => {
    expect(rephrasePort(assistant, () => new DemoModel(), new ScriptedLlm(), logger)).toBe(
      undefined,
    );
  });

  it('rephrases nothing for a project without nlg', async () => {
    const plain = await assistantFrom({ 'domain.yml': FILES['domain.yml'] });
    expect(rephrasePort(plain, () => new ScriptedLlm(), new ScriptedLlm(), logger)).toBe(undefined);
  });

  it('logs each failure with the response and what failed', () => {
    const port = rephrasePort(assistant, () => new ScriptedLlm(), new ScriptedLlm(), logger);
    warnings.length = 0;
    port?.failed({ response: 'utter_hi', stage: 'rephrase', error: new Error('HTTP 503') });
    port?.failed({ response: 'utter_hi', stage: 'summary', error: new Error('timed out') });
    expect(warnings).toEqual([
      'rephrasing a response failed; it is sent as written {"response":"utter_hi","error":"Error: HTTP 503"}',
      'summarizing the history for rephrasing failed; the transcript is used {"response":"utter_hi","error":"Error: timed out"}',
    ]);
  });
});
