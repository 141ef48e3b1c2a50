import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LlmRequestError, OpenAiChatModel } from '../../../src/llm/index.js';

const HELLO = [{ role: 'user', content: 'hello' }] as const;
const NOW = Date.UTC(2025, 0, 1);

describe('OpenAiChatModel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });

  const model = () => new OpenAiChatModel({ model: 'gpt-test', apiKey: 'sk-x' });
  const calls = {
    complete: (deadline: number) => model().complete({ messages: HELLO, deadline }),
    chat: (deadline: number) => model().chat({ messages: HELLO, deadline }),
    'streamed chat': (deadline: number) =>
      model().chat({ messages: HELLO, deadline, onTextDelta: () => {} }),
  };

  describe.each(Object.entries(calls))('%s', (_name, call) => {
    it.each([
      ['ends now', NOW],
      ['passed a second ago', NOW - 1_000],
    ])(
      'fails at once, worth another try and without a request, when the deadline %s',
      async (_case, deadline) => {
        const error = await call(deadline).catch((e: unknown) => e);

        expect(error).toBeInstanceOf(LlmRequestError);
        expect(error).toMatchObject({
          code: 'LLM_REQUEST_FAILED',
          message:
            'the LLM request to model gpt-test at api.openai.com timed out: no time was left for it',
          transient: true,
        });
      },
    );
  });

  it('fails at once, naming it and not worth another try, when the api_base is no URL', async () => {
    const model = new OpenAiChatModel({
      model: 'gpt-test',
      baseURL: '127.0.0.1:8000/v1',
      apiKey: 'sk-x',
    });

    const error = await model.complete({ messages: HELLO }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({
      message: 'the LLM request to model gpt-test at 127.0.0.1:8000/v1 failed: Invalid URL',
      transient: false,
    });
  });
});

describe('LlmRequestError', () => {
  it.each([undefined, 408, 409, 429, 500, 503])(
    'is worth another try after status %s (none: no answer came)',
    (status) => {
      expect(new LlmRequestError('failed', { status })).toMatchObject({
        code: 'LLM_REQUEST_FAILED',
        transient: true,
      });
    },
  );

  it.each([400, 401, 403, 404, 422])('is not worth another try after status %i', (status) => {
    expect(new LlmRequestError('failed', { status }).transient).toBe(false);
  });
});
