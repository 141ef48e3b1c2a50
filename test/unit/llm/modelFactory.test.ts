import { describe, expect, it } from 'vitest';
import type { Assistant } from '../../../src/assistant/index.js';
import {
  type ChatModel,
  DEFAULT_CHAT_MODEL,
  modelFactory,
  NoModelCredentialsError,
} from '../../../src/llm/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';

const HELLO = [{ role: 'user', content: 'hello' }] as const;
/** A deadline long past: a call that reaches the model fails there, before any request. */
const PAST = 0;
const NO_TIME_LEFT = `the LLM request to model ${DEFAULT_CHAT_MODEL} at api.openai.com timed out: no time was left for it`;

/** A project whose models have no key and no api_base. */
const keyless = (): Promise<Assistant> =>
  assistantFrom({
    'endpoints.yml': 'model_groups:\n  - id: main\n    models:\n      - model: m\n',
    'domain.yml': 'responses:\n  utter_hi:\n    - text: Hi.\n',
  });

describe('modelFactory', () => {
  it('answers with the stand-in for a model without key or api_base, and only for such a model', async () => {
    const standIn: ChatModel = {
      complete: async () => ({ content: 'scripted' }),
      chat: async () => ({ content: 'scripted', toolCalls: [] }),
    };
    const models = modelFactory({
      assistant: await keyless(),
      env: {},
      secrets: { get: async () => 'sk-never-read' },
      withoutAccess: { standIn },
    });

    expect(models(undefined)).toBe(standIn);
    expect(models({ model_group: 'main' })).toBe(standIn);
    expect(models({ api_base: 'http://127.0.0.1:8000/v1' })).not.toBe(standIn);
  });

  it('reads the OpenAI key from the named secret on the first call, not before', async () => {
    const reads: string[] = [];
    const models = modelFactory({
      assistant: await keyless(),
      env: {},
      secrets: {
        get: async (name) => {
          reads.push(name);
          return 'sk-from-the-secret';
        },
      },
      withoutAccess: { keySecret: 'MODEL_KEY' },
    });

    const model = models(undefined);
    expect(reads).toEqual([]);
    await expect(model.complete({ messages: HELLO, deadline: PAST })).rejects.toThrow(NO_TIME_LEFT);
    await expect(model.chat({ messages: HELLO, deadline: PAST })).rejects.toThrow(NO_TIME_LEFT);
    expect(reads).toEqual(['MODEL_KEY']);
  });

  it('reads the secret again on the next call after reading it failed', async () => {
    const outage = new Error('Secrets Manager is unavailable');
    let reads = 0;
    const models = modelFactory({
      assistant: await keyless(),
      env: {},
      secrets: {
        get: async () => {
          reads += 1;
          if (reads === 1) throw outage;
          return 'sk-from-the-secret';
        },
      },
      withoutAccess: { keySecret: 'MODEL_KEY' },
    });
    const model = models(undefined);

    await expect(model.complete({ messages: HELLO, deadline: PAST })).rejects.toBe(outage);
    await expect(model.complete({ messages: HELLO, deadline: PAST })).rejects.toThrow(NO_TIME_LEFT);
    expect(reads).toBe(2);
  });

  it('fails the call with NoModelCredentialsError when nothing gives the model access and no fallback is named', async () => {
    const models = modelFactory({
      assistant: await keyless(),
      env: {},
      secrets: { get: async () => 'sk-never-read' },
    });

    await expect(models(undefined).complete({ messages: HELLO })).rejects.toBeInstanceOf(
      NoModelCredentialsError,
    );
  });
});
