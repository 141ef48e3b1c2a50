import { describe, expect, it } from 'vitest';
import {
  chatModelFor,
  environmentSecrets,
  UnknownModelGroupError,
} from '../../../src/llm/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';

const DOMAIN = 'responses:\n  utter_hi:\n    - text: Hi.\n';
const ENDPOINTS = `model_groups:
  - id: main
    models:
      - model: m
  - id: judge
    models:
      - model: j
`;

describe('chatModelFor', () => {
  it.each([
    ['the groups endpoints.yml defines', { 'endpoints.yml': ENDPOINTS }, 'main, judge'],
    ['none when it defines no group', {}, 'none'],
  ])(
    'refuses a model group endpoints.yml does not define, naming %s',
    async (_case, files, defined) => {
      const assistant = await assistantFrom({ 'domain.yml': DOMAIN, ...files });

      const attempt = chatModelFor({ model_group: 'mian' }, assistant, environmentSecrets({}), {
        OPENAI_API_KEY: 'sk-env',
      });

      await expect(attempt).rejects.toBeInstanceOf(UnknownModelGroupError);
      await expect(attempt).rejects.toMatchObject({
        name: 'UnknownModelGroupError',
        code: 'MODEL_GROUP_UNKNOWN',
        message: `model group "mian" is not defined in endpoints.yml (defined: ${defined})`,
      });
    },
  );
});
