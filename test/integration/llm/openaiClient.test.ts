import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Assistant, LlmConfig, ModelGroup } from '../../../src/assistant/index.js';
import {
  chatModelFor,
  environmentSecrets,
  hasModelAccess,
  LlmRequestError,
  MissingSecretError,
  modelFactory,
  NoModelCredentialsError,
  OpenAiChatModel,
  type OpenAiChatSettings,
  type ToolChatMessage,
  type ToolDefinition,
} from '../../../src/llm/index.js';
import { REDACTED } from '../../../src/resilience/index.js';
import { type RecordedRequest, ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';

const HELLO = [{ role: 'user', content: 'hello' }] as const;

function assistantWith(...groups: ModelGroup[]): Assistant {
  return {
    projectDir: '/project',
    commandGenerator: {
      name: 'CompactLLMCommandGenerator',
      include_date_time: false,
      timezone: 'UTC',
      user_input: { max_characters: 420 },
    },
    mcpServers: {},
    modelGroups: Object.fromEntries(groups.map((group) => [group.id, group])),
    slots: {},
    responses: {},
    intents: [],
    flows: {},
    agents: {},
    actions: [],
    domainActions: [],
    extensions: {},
  };
}

function only(requests: readonly RecordedRequest[]): RecordedRequest & { body: object } {
  expect(requests).toHaveLength(1);
  const [request] = requests;
  if (request === undefined || typeof request.body !== 'object' || request.body === null) {
    throw new Error('expected one JSON request');
  }
  return { ...request, body: request.body };
}

let server: ScriptedOpenAi;

/** How an error's message starts for the scripted server: the model and the host it was asked at. */
const requestTo = (model: string) =>
  `the LLM request to model ${model} at ${new URL(server.url).host}`;

/** A model at the scripted server, which the SDK does not retry. */
const gptTest = (settings: Partial<OpenAiChatSettings> = {}) =>
  new OpenAiChatModel({
    model: 'gpt-test',
    baseURL: server.url,
    apiKey: 'sk-x',
    ...settings,
  });

/** A chunk of a streamed answer, as OpenAI sends it. */
const chunk = (delta: object) => ({ choices: [{ index: 0, delta }] });

beforeEach(async () => {
  server = await ScriptedOpenAi.start();
});

afterEach(async () => {
  await server.close();
});

describe('OpenAiChatModel', () => {
  it('sends the model, messages and max_tokens, with the key as bearer token', async () => {
    server.reply('start flow greet');
    const model = gptTest({ apiKey: 'sk-resolved', maxTokens: 64 });

    const reply = await model.complete({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    });

    expect(reply).toEqual({ content: 'start flow greet' });
    const request = only(server.requests);
    expect(request.headers.authorization).toBe('Bearer sk-resolved');
    expect(request.body).toMatchObject({
      model: 'gpt-test',
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(request.body).not.toHaveProperty('temperature');
    server.verify();
  });

  it('answers an empty string when the model returns no text', async () => {
    server.reply({ toolCalls: [{ name: 'lookup', arguments: {} }] });
    const model = gptTest();

    await expect(model.complete({ messages: HELLO })).resolves.toEqual({ content: '' });
  });

  it.each([409, 429, 500])(
    'turns HTTP %i into an LlmRequestError naming model and host, with the status, worth another try',
    async (status) => {
      server.reply({ status, message: 'try later' });
      const model = gptTest();

      const error = await model.complete({ messages: HELLO }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(LlmRequestError);
      expect(error).toMatchObject({
        name: 'LlmRequestError',
        code: 'LLM_REQUEST_FAILED',
        status,
        transient: true,
      });
      expect((error as Error).message).toBe(
        `${requestTo('gpt-test')} failed with HTTP ${status}: ${status} try later`,
      );
      expect((error as Error).cause).toMatchObject({ name: 'ChatHttpError', status });
      expect(server.requests).toHaveLength(1);
    },
  );

  it('keeps the API key out of the error message when the server echoes it', async () => {
    server.reply({ status: 401, message: 'Incorrect API key provided: sk-secret-value' });
    const model = gptTest({ apiKey: 'sk-secret-value' });

    const error = await model.complete({ messages: HELLO }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ status: 401, transient: false });
    expect((error as Error).message).toBe(
      `${requestTo('gpt-test')} failed with HTTP 401: 401 Incorrect API key provided: ${REDACTED}`,
    );
  });

  it('fails with LlmRequestError worth another try when nothing listens at the api_base', async () => {
    const gone = await ScriptedOpenAi.start();
    await gone.close();
    const model = gptTest({ baseURL: gone.url });

    const error = await model.complete({ messages: HELLO }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ status: undefined, transient: true });
    expect((error as Error).message).toBe(
      `the LLM request to model gpt-test at ${new URL(gone.url).host} failed: Connection error.`,
    );
  });

  it('aborts the request when the signal aborts, rejecting with its reason', async () => {
    server.reply({ text: 'too late', delayMs: 10_000 });
    const model = gptTest();
    const controller = new AbortController();
    const reason = new Error('turn cancelled');

    const pending = model.complete({ messages: HELLO, signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(reason);

    await expect(pending).rejects.toBe(reason);
    await vi.waitFor(() => expect(server.aborted).toBe(1));
  });

  it('fails with LlmRequestError when the server answers after the timeout', async () => {
    server.reply({ text: 'too late', delayMs: 5_000 });
    const model = gptTest({ timeoutMs: 100 });

    await expect(model.complete({ messages: HELLO })).rejects.toThrow(
      expect.objectContaining({
        name: 'LlmRequestError',
        message: `${requestTo('gpt-test')} timed out: Request timed out.`,
        transient: true,
      }),
    );
  });

  it("keeps to the model's own timeout when the caller's deadline is later", async () => {
    server.reply({ text: 'too late', delayMs: 5_000 });
    const model = gptTest({ timeoutMs: 100 });

    await expect(
      model.complete({ messages: HELLO, deadline: Date.now() + 60_000 }),
    ).rejects.toBeInstanceOf(LlmRequestError);
  });

  it('fails with LlmRequestError not worth another try when the answer is not a chat completion', async () => {
    server.reply({ body: { choices: 'none' } });
    const model = gptTest();

    const error = await model.complete({ messages: HELLO }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({
      message: `${requestTo('gpt-test')} answered with an unexpected response body`,
      transient: false,
    });
  });

  it.each([
    ['no choices', { choices: [] }],
    ['no choices field', {}],
    ['a choice without a message', { choices: [{}] }],
  ])('answers an empty text and no tool calls when the server sends %s', async (_case, body) => {
    server.reply({ body }, { body });
    const model = gptTest();

    await expect(model.complete({ messages: HELLO })).resolves.toEqual({ content: '' });
    await expect(model.chat({ messages: HELLO })).resolves.toEqual({ content: '', toolCalls: [] });
  });

  it.each([
    ['prompt', { prompt_tokens: 7 }, { promptTokens: 7, completionTokens: 0 }],
    ['completion', { completion_tokens: 4 }, { promptTokens: 0, completionTokens: 4 }],
  ])(
    'reports the token usage when the server counts only %s tokens',
    async (_case, usage, expected) => {
      server.reply({ body: { choices: [{ message: { content: 'ok' } }], usage } });
      const model = gptTest();

      await expect(model.chat({ messages: HELLO })).resolves.toEqual({
        content: 'ok',
        toolCalls: [],
        usage: expected,
      });
    },
  );
});

describe('modelFactory', () => {
  it('builds one model per llm block and reads its key once, however often it is asked', async () => {
    server.reply('one', 'two');
    const assistant = assistantWith({
      id: 'main',
      models: [{ model: 'm', api_base: server.url, api_key: { secret: 'KEY' } }],
    });
    const reads: string[] = [];
    const models = modelFactory({
      assistant,
      env: {},
      secrets: {
        get: async (name) => {
          reads.push(name);
          return 'sk-key';
        },
      },
    });
    const first = models({ model_group: 'main' });
    await first.complete({ messages: HELLO });
    const again = models({ model_group: 'main' });
    expect(again).toBe(first);
    await again.complete({ messages: HELLO });
    expect(reads).toEqual(['KEY']);
    expect(models({ model: 'other', api_base: server.url })).not.toBe(first);
  });
});

describe('chatModelFor', () => {
  const secrets = environmentSecrets({ GROUP_KEY: 'sk-group', INLINE_KEY: 'sk-inline' });

  it("uses the model group's first model with its api_base and resolved api_key", async () => {
    server.reply('ok');
    const assistant = assistantWith({
      id: 'main',
      models: [
        {
          model: 'group-first',
          api_base: server.url,
          api_key: { secret: 'GROUP_KEY' },
          max_retries: 0,
        },
        { model: 'group-second', api_base: 'http://127.0.0.1:1/v1' },
      ],
    });

    const model = await chatModelFor({ model_group: 'main' }, assistant, secrets, {});
    await expect(model.complete({ messages: HELLO })).resolves.toEqual({ content: 'ok' });

    const request = only(server.requests);
    expect(request.body).toMatchObject({ model: 'group-first' });
    expect(request.headers.authorization).toBe('Bearer sk-group');
  });

  it('uses inline settings, passing sampling options through', async () => {
    server.reply('ok');
    const llm: LlmConfig = {
      model: 'inline-model',
      api_base: server.url,
      api_key: { secret: 'INLINE_KEY' },
      temperature: 0.2,
      top_p: 0.5,
      max_tokens: 50,
      max_completion_tokens: 99,
      reasoning_effort: 'low',
      max_retries: 0,
    };

    const model = await chatModelFor(llm, assistantWith(), secrets, {});
    await model.complete({ messages: HELLO });

    const request = only(server.requests);
    expect(request.body).toMatchObject({
      model: 'inline-model',
      temperature: 0.2,
      top_p: 0.5,
      max_tokens: 50,
      max_completion_tokens: 99,
      reasoning_effort: 'low',
    });
    expect(request.headers.authorization).toBe('Bearer sk-inline');
  });

  it('uses the default model the README names with OPENAI_API_KEY and OPENAI_BASE_URL when nothing is set', async () => {
    server.reply('ok');
    const env = { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: server.url };

    const model = await chatModelFor(undefined, assistantWith(), secrets, env);
    await model.complete({ messages: HELLO });

    const request = only(server.requests);
    expect(request.body).toMatchObject({ model: 'gpt-5.1-2025-11-13' });
    expect(request.body).not.toHaveProperty('max_tokens');
    expect(request.headers.authorization).toBe('Bearer sk-env');
  });

  it('sends a placeholder key to an api_base when no key is configured', async () => {
    server.reply('ok');

    const model = await chatModelFor({ api_base: server.url }, assistantWith(), secrets, {});
    await model.complete({ messages: HELLO });

    expect(only(server.requests).headers.authorization).toBe('Bearer not-needed');
  });

  it('turns the timeout in seconds into a request timeout', async () => {
    server.reply({ text: 'too late', delayMs: 5_000 });
    const llm: LlmConfig = { api_base: server.url, timeout: 0.1, max_retries: 0 };

    const model = await chatModelFor(llm, assistantWith(), secrets, { OPENAI_API_KEY: 'sk-env' });

    await expect(model.complete({ messages: HELLO })).rejects.toThrow(/timed out/);
  });

  it('throws NoModelCredentialsError naming OPENAI_API_KEY when there is no key or api_base', async () => {
    const attempt = chatModelFor({ model: 'gpt-x' }, assistantWith(), secrets, {
      OPENAI_API_KEY: '',
    });

    await expect(attempt).rejects.toBeInstanceOf(NoModelCredentialsError);
    await expect(attempt).rejects.toMatchObject({
      name: 'NoModelCredentialsError',
      code: 'MODEL_CREDENTIALS_MISSING',
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
  });

  it("throws MissingSecretError naming the variable when a model's api_key is unset", async () => {
    const llm: LlmConfig = { api_key: { secret: 'ABSENT_KEY' } };

    const attempt = chatModelFor(llm, assistantWith(), secrets, { OPENAI_API_KEY: 'sk-env' });

    await expect(attempt).rejects.toBeInstanceOf(MissingSecretError);
    await expect(attempt).rejects.toThrow(/ABSENT_KEY/);
  });
});

describe('hasModelAccess', () => {
  const keyless = assistantWith({ id: 'bare', models: [{ model: 'm' }] });
  const withBase = assistantWith({
    id: 'local',
    models: [{ model: 'm', api_base: 'http://127.0.0.1:11434/v1' }],
  });

  it.each<[string, LlmConfig | undefined, Assistant, Record<string, string>, boolean]>([
    ['nothing configured', undefined, keyless, {}, false],
    ['an empty OPENAI_API_KEY', undefined, keyless, { OPENAI_API_KEY: '' }, false],
    ['a blank OPENAI_API_KEY', undefined, keyless, { OPENAI_API_KEY: '  ' }, false],
    ['OPENAI_API_KEY', undefined, keyless, { OPENAI_API_KEY: 'sk' }, true],
    ['OPENAI_BASE_URL', undefined, keyless, { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }, true],
    ['an inline api_key reference', { api_key: { secret: 'K' } }, keyless, {}, true],
    ['an inline api_base', { api_base: 'http://127.0.0.1:8000/v1' }, keyless, {}, true],
    ['a model group without key or base', { model_group: 'bare' }, keyless, {}, false],
    ['a model group with an api_base', { model_group: 'local' }, withBase, {}, true],
  ])('with %s is %s', (_case, llm, assistant, env, expected) => {
    expect(hasModelAccess(llm, assistant, env)).toBe(expected);
  });
});

describe('environmentSecrets', () => {
  it('resolves a reference to the variable it names', async () => {
    await expect(environmentSecrets({ KEY: 'v' }).resolve({ secret: 'KEY' })).resolves.toBe('v');
  });

  it.each([
    ['unset', { OTHER: 'sk-other' }],
    ['empty', { KEY: '', OTHER: 'sk-other' }],
  ])(
    'throws MissingSecretError naming the variable, and never a value, when %s',
    async (_case, env) => {
      const error = await environmentSecrets(env)
        .resolve({ secret: 'KEY' })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(MissingSecretError);
      expect(error).toMatchObject({
        name: 'MissingSecretError',
        code: 'SECRET_NOT_SET',
        secret: 'KEY',
      });
      expect((error as Error).message).toContain('KEY');
      expect((error as Error).message).not.toContain('sk-other');
    },
  );
});

describe('OpenAiChatModel tool calling', () => {
  const model = (settings: Partial<OpenAiChatSettings> = {}) =>
    gptTest({ model: 'scripted', apiKey: 'sk-test', ...settings });
  const ADD: ToolDefinition = {
    type: 'function',
    function: { name: 'add', parameters: { type: 'object', properties: {} }, strict: true },
  };
  const CONVERSATION: ToolChatMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'add 2 and 3' },
    {
      role: 'assistant',
      content: 'Adding.',
      toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' }],
    },
    { role: 'tool', toolCallId: 'call_1', content: '5' },
  ];

  /** The tool calls of a streamed answer made of these chunks. */
  const streamedCalls = async (events: readonly unknown[]) => {
    server.reply({ events });
    return (await model().chat({ messages: HELLO, tools: [ADD], onTextDelta: () => {} })).toolCalls;
  };

  it('sends tools, tool choice and tool messages as the wire wants them, and reads the answer', async () => {
    server.reply({
      text: 'Also 7?',
      toolCalls: [{ id: 'call_2', name: 'add', arguments: { a: 3, b: 4 } }],
    });
    const answer = await model().chat({ messages: CONVERSATION, tools: [ADD], toolChoice: 'auto' });
    expect(answer).toEqual({
      content: 'Also 7?',
      toolCalls: [{ id: 'call_2', name: 'add', arguments: '{"a":3,"b":4}' }],
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    const { body } = only(server.requests);
    expect(body).toMatchObject({ tools: [ADD], tool_choice: 'auto', stream: false });
    expect((body as { messages: unknown[] }).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'add 2 and 3' },
      {
        role: 'assistant',
        content: 'Adding.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
    ]);
  });

  it('sends an assistant message that called no tools without tool_calls, which OpenAI refuses empty', async () => {
    server.reply('Noted.');
    await model().chat({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'and again' },
        { role: 'assistant', content: 'Hello again.', toolCalls: [] },
      ],
    });
    expect((only(server.requests).body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'and again' },
      { role: 'assistant', content: 'Hello again.' },
    ]);
  });

  it('keeps tool calls the server sent without an id, a name or arguments, with empty ones', async () => {
    server.reply({
      body: {
        choices: [{ message: { tool_calls: [{ type: 'function' }, { id: 'c', function: {} }] } }],
      },
    });
    const answer = await model().chat({ messages: HELLO, tools: [ADD] });
    expect(answer).toEqual({
      content: '',
      toolCalls: [
        { id: '', name: '', arguments: '' },
        { id: 'c', name: '', arguments: '' },
      ],
    });
  });

  it('sends neither tools nor a tool choice when there are no tools', async () => {
    server.reply('Hello.');
    expect((await model().chat({ messages: HELLO, tools: [], toolChoice: 'none' })).content).toBe(
      'Hello.',
    );
    const { body } = only(server.requests);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('streams: passes each text delta on as it comes and puts the tool calls together', async () => {
    server.reply({
      text: 'One moment please.',
      toolCalls: [
        { id: 'call_a', name: 'add', arguments: { a: 1, b: 2 } },
        { id: 'call_b', name: 'echo', arguments: { text: 'hi' } },
      ],
    });
    const deltas: string[] = [];
    const answer = await model().chat({
      messages: HELLO,
      tools: [ADD],
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(deltas).toEqual(['One momen', 't please.']);
    expect(answer).toEqual({
      content: 'One moment please.',
      toolCalls: [
        { id: 'call_a', name: 'add', arguments: '{"a":1,"b":2}' },
        { id: 'call_b', name: 'echo', arguments: '{"text":"hi"}' },
      ],
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    expect(only(server.requests).body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('streams an answer of text alone with no tool calls', async () => {
    server.reply('Just text.');
    const deltas: string[] = [];
    const answer = await model().chat({ messages: HELLO, onTextDelta: (d) => deltas.push(d) });
    expect(answer).toEqual({
      content: 'Just text.',
      toolCalls: [],
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    expect(deltas.join('')).toBe('Just text.');
  });

  it('puts streamed calls without ids together by their index', async () => {
    const calls = await streamedCalls([
      chunk({ tool_calls: [{ index: 0, function: { name: 'add', arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: 'echo', arguments: '{"text":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"hi"}' } }] }),
    ]);
    expect(calls).toEqual([
      { id: '', name: 'add', arguments: '{"a":1}' },
      { id: '', name: 'echo', arguments: '{"text":"hi"}' },
    ]);
  });

  it('puts streamed calls without an index together by their ids, a fragment without one going to the last call', async () => {
    const calls = await streamedCalls([
      chunk({ tool_calls: [{ id: 'call_a', function: { name: 'add', arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '1}' } }] }),
      chunk({
        tool_calls: [{ id: 'call_b', function: { name: 'echo', arguments: '{"text":' } }],
      }),
      chunk({ tool_calls: [{ id: 'call_b', function: { arguments: '"hi"' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '}' } }] }),
    ]);
    expect(calls).toEqual([
      { id: 'call_a', name: 'add', arguments: '{"a":1}' },
      { id: 'call_b', name: 'echo', arguments: '{"text":"hi"}' },
    ]);
  });

  it('reads streamed fragments without a function or without arguments, and calls numbered from 1', async () => {
    const calls = await streamedCalls([
      chunk({ tool_calls: [{ index: 1, id: 'call_a', function: { name: 'add' } }] }),
      chunk({ tool_calls: [{ index: 1 }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
    ]);
    expect(calls).toEqual([{ id: 'call_a', name: 'add', arguments: '{}' }]);
  });

  it('reads the usage from a last chunk without choices, when the server counts only completion tokens', async () => {
    server.reply({ events: [chunk({ content: 'Hi' }), { usage: { completion_tokens: 2 } }] });
    const answer = await model().chat({ messages: HELLO, onTextDelta: () => {} });
    expect(answer).toEqual({
      content: 'Hi',
      toolCalls: [],
      usage: { promptTokens: 0, completionTokens: 2 },
    });
  });

  it('reports a stream that breaks off as LlmRequestError worth another try', async () => {
    server.reply({ events: [chunk({ content: 'I will refund' })], cut: true });
    const error = await model()
      .chat({ messages: HELLO, onTextDelta: () => {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({
      code: 'LLM_REQUEST_FAILED',
      message: `${requestTo('scripted')} failed while streaming: terminated`,
      transient: true,
    });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('keeps the key out of the error event of a stream', async () => {
    server.reply({
      events: [
        chunk({ content: 'Hel' }),
        { error: { message: 'overloaded, your key sk-test-value', type: 'server_error' } },
      ],
    });
    const error = await model({ apiKey: 'sk-test-value' })
      .chat({ messages: HELLO, onTextDelta: () => {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as Error).message).toBe(
      `${requestTo('scripted')} failed while streaming: overloaded, your key ${REDACTED}`,
    );
  });

  it('fails a stream with a chunk it cannot read with LlmRequestError not worth another try', async () => {
    server.reply({ events: [chunk({ content: 'Hel' }), { choices: 'none' }] });
    const error = await model()
      .chat({ messages: HELLO, onTextDelta: () => {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({
      message: `${requestTo('scripted')} answered with an unexpected response body`,
      transient: false,
    });
  });

  it('rejects with the reason of an abort that comes while the answer streams, not with a part of it', async () => {
    server.reply({ text: 'I will refund your order', stallMs: 5_000 });
    const stop = new AbortController();
    const reason = new Error('the job was stopped');
    const deltas: string[] = [];
    const pending = model().chat({
      messages: HELLO,
      onTextDelta: (delta) => {
        deltas.push(delta);
        stop.abort(reason);
      },
      signal: stop.signal,
    });
    await expect(pending).rejects.toBe(reason);
    expect(deltas).toEqual(['I will refun']);
  });

  it('ends a stream that outlasts the deadline with LlmRequestError worth another try', async () => {
    // The stall outlasts the test's time limit: only the deadline can end the stream in time.
    server.reply({ text: 'Slowly, slowly', stallMs: 60_000 });
    const error = await model()
      .chat({ messages: HELLO, onTextDelta: () => {}, deadline: Date.now() + 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ transient: true });
    expect((error as Error).message).toMatch(/timed out while streaming/);
  });

  it('gives calls without an id none, so that the caller names them', async () => {
    server.reply({ toolCalls: [{ id: '', name: 'add', arguments: {} }] });
    const answer = await model().chat({ messages: HELLO, tools: [ADD] });
    expect(answer.toolCalls).toEqual([{ id: '', name: 'add', arguments: '{}' }]);
  });

  it('reports a refused streamed call as LlmRequestError worth another try, with its status', async () => {
    server.reply({ status: 429 });
    const error = await model()
      .chat({ messages: HELLO, onTextDelta: () => {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ status: 429, transient: true });
  });
});

describe('ScriptedOpenAi', () => {
  it('streams text and tool-call argument fragments that the SDK accumulates', async () => {
    server.reply({
      text: 'checking',
      toolCalls: [{ name: 'lookup', arguments: { city: 'Oslo' } }],
    });
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: server.url, maxRetries: 0 });

    const stream = client.chat.completions.stream({ model: 'm', messages: [...HELLO] });
    const completion = await stream.finalChatCompletion();

    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('checking');
    expect(message?.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'lookup', arguments: '{"city":"Oslo"}' },
    });
    server.verify();
  });

  it('answers 500 to an unexpected request and records it', async () => {
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: server.url, maxRetries: 0 });

    await expect(
      client.chat.completions.create({ model: 'm', messages: [...HELLO] }),
    ).rejects.toMatchObject({ status: 500 });
    expect(() => server.verify()).toThrow(/unexpected request #1: POST \/v1\/chat\/completions/);
  });

  it('gives every response a unique id', async () => {
    server.reply('a', 'b');
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: server.url, maxRetries: 0 });

    const first = await client.chat.completions.create({ model: 'm', messages: [...HELLO] });
    const second = await client.chat.completions.create({ model: 'm', messages: [...HELLO] });

    expect(first.id).not.toBe(second.id);
  });
});
