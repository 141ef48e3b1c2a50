import { afterEach, describe, expect, it, vi } from 'vitest';
import { LlmRequestError, OpenAiChatModel } from '../../../src/llm/index.js';
import { ChatHttpError, ChatStreamError, postChatCompletion } from '../../../src/llm/wire.js';

const HELLO = [{ role: 'user', content: 'hello' }] as const;

/** What `fetch` was called with, and an answer for it. */
function answering(...responses: Array<(init: RequestInit) => Response | Promise<Response>>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), init });
      const next = responses.shift();
      if (!next) throw new Error('no answer scripted');
      return next(init);
    }),
  );
  return calls;
}

/** A body of server-sent events, as a server writes them. */
function events(text: string): Response {
  return new Response(text, { headers: { 'content-type': 'text/event-stream' } });
}

async function collect(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('postChatCompletion', () => {
  it('posts the body as JSON to chat/completions under the base, with the key as bearer token', async () => {
    const calls = answering(() => Response.json({ choices: [] }));

    const answer = await postChatCompletion({
      baseURL: 'http://127.0.0.1:9/v1/',
      apiKey: 'sk-x',
      body: { model: 'm', messages: [] },
    });

    expect(await answer.json()).toEqual({ choices: [] });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(calls[0]?.init).toMatchObject({
      method: 'POST',
      body: '{"model":"m","messages":[]}',
      headers: {
        Authorization: 'Bearer sk-x',
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
    });
  });

  it.each([
    ['http://h/v1//', 'http://h/v1/chat/completions'],
    ['https://api.example.com/v1', 'https://api.example.com/v1/chat/completions'],
  ])('posts under the base %s', async (baseURL, url) => {
    const calls = answering(() => Response.json({}));

    await postChatCompletion({ baseURL, apiKey: 'k', body: {} });

    expect(calls.map((call) => call.url)).toEqual([url]);
  });

  it('asks for events when the body streams', async () => {
    const calls = answering(() => events('data: [DONE]\n\n'));

    await postChatCompletion({ baseURL: 'http://h/v1', apiKey: 'k', body: { stream: true } });

    expect(calls[0]?.init.headers).toMatchObject({ Accept: 'text/event-stream' });
  });

  it.each([
    [
      'an OpenAI error',
      { error: { message: 'Rate limit reached', type: 'requests' } },
      '429 Rate limit reached',
    ],
    ['an error that is a string', { error: 'slow down' }, '429 slow down'],
    ['a message at the top', { message: 'busy' }, '429 busy'],
    ['an error object without a message', { error: { code: 7 } }, '429 {"error":{"code":7}}'],
    [
      'a message that is no string',
      { error: { message: { why: 'quota' } } },
      '429 {"why":"quota"}',
    ],
    ['an error of null beside a message', { error: null, message: 'busy' }, '429 busy'],
    ['null', null, '429 null'],
  ])(
    'words an error status with %s in its body as the status and its message',
    async (_case, body, message) => {
      answering(() => Response.json(body, { status: 429, headers: { 'retry-after': '2' } }));

      const error = await postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} }).catch(
        (e: unknown) => e,
      );

      expect(error).toBeInstanceOf(ChatHttpError);
      expect(error).toMatchObject({ status: 429, message });
      expect((error as ChatHttpError).headers.get('retry-after')).toBe('2');
    },
  );

  it.each([
    ['no body', '', '502 status code (no body)'],
    ['a page that is not JSON', ' Bad gateway \n', '502 Bad gateway'],
    ['only white space', ' \n', '502 status code (no body)'],
    ['JSON with no message', ' {"detail":"down"}\n', '502 {"detail":"down"}'],
  ])('words an error status with %s', async (_case, text, message) => {
    answering(() => new Response(text, { status: 502 }));

    await expect(
      postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} }),
    ).rejects.toMatchObject({
      name: 'ChatHttpError',
      code: 'LLM_HTTP_STATUS',
      status: 502,
      message,
    });
  });

  it('reads events until [DONE], skipping comments and keeping each data whole', async () => {
    answering(() =>
      events(
        ': keep-alive\n\ndata: {"n":1}\n\ndata: {"n":\ndata: 2}\n\ndata: [DONE]\n\ndata: {"n":3}\n\n',
      ),
    );

    const answer = await postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} });

    await expect(collect(answer.events())).resolves.toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('ends the events where the body ends, with or without [DONE]', async () => {
    answering(
      () => events('data: {"n":1}\n\n'),
      () => new Response(null, { headers: { 'content-type': 'text/event-stream' } }),
    );

    const cut = await postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} });
    const empty = await postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} });

    await expect(collect(cut.events())).resolves.toEqual([{ n: 1 }]);
    await expect(collect(empty.events())).resolves.toEqual([]);
  });

  it('lets go of the body when it stops reading before its end', async () => {
    const cancelled: unknown[] = [];
    const body = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('data: [DONE]\n\ndata: {"n":1}\n\n'));
          },
          cancel(reason) {
            cancelled.push(reason ?? 'cancelled');
          },
        }),
      );
    answering(body);

    const answer = await postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} });

    await expect(collect(answer.events())).resolves.toEqual([]);
    expect(cancelled).toHaveLength(1);
  });

  it.each([
    ['an error event', 'event: error\ndata: {"message":"overloaded"}\n\n', 'overloaded'],
    ['a chunk with an error', 'data: {"error":{"message":"lost the model"}}\n\n', 'lost the model'],
    ['an error event without JSON message', 'event: error\ndata: {"code":1}\n\n', '{"code":1}'],
  ])('ends the events with ChatStreamError on %s', async (_case, text, message) => {
    answering(() => events(`data: {"n":1}\n\n${text}`));
    const answer = await postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} });
    const seen: unknown[] = [];

    const error = await (async () => {
      for await (const item of answer.events()) seen.push(item);
    })().catch((e: unknown) => e);

    expect(seen).toEqual([{ n: 1 }]);
    expect(error).toBeInstanceOf(ChatStreamError);
    expect(error).toMatchObject({ name: 'ChatStreamError', code: 'LLM_STREAM_ERROR', message });
  });

  it('words an error status whose body breaks off as one without a body', async () => {
    answering(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.error(new Error('connection reset'));
            },
          }),
          { status: 503 },
        ),
    );

    await expect(
      postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} }),
    ).rejects.toMatchObject({ status: 503, message: '503 status code (no body)' });
  });

  it.each(['127.0.0.1:8000/v1', 'localhost:8000/v1', 'file:///v1'])(
    'rejects the base %s, which is no http URL, before sending anything',
    async (baseURL) => {
      const calls = answering();

      await expect(postChatCompletion({ baseURL, apiKey: 'k', body: {} })).rejects.toMatchObject({
        name: 'TypeError',
        message: 'Invalid URL',
      });
      expect(calls).toEqual([]);
    },
  );
});

describe('OpenAiChatModel over the wire', () => {
  const model = (settings: { timeoutMs?: number } = {}) =>
    new OpenAiChatModel({ model: 'm', baseURL: 'http://h/v1', apiKey: 'sk-x', ...settings });

  it('gives the server’s Retry-After to the error, in milliseconds', async () => {
    answering(() =>
      Response.json(
        { error: { message: 'later' } },
        { status: 429, headers: { 'retry-after': '3' } },
      ),
    );

    await expect(model().complete({ messages: HELLO })).rejects.toMatchObject({
      name: 'LlmRequestError',
      status: 429,
      retryAfterMs: 3_000,
      transient: true,
    });
  });

  it('fails not worth another try when a success answer is not JSON', async () => {
    answering(() => new Response('<html>proxy login</html>', { status: 200 }));

    const error = await model()
      .chat({ messages: HELLO })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({
      message: 'the LLM request to model m at h answered with an unexpected response body',
      transient: false,
    });
  });

  it('times out, worth another try, when the body of an answer stalls after its headers', async () => {
    // As fetch does, the request's signal ends a body still being read.
    answering(
      ({ signal }) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"choices":'));
              signal?.addEventListener('abort', () => controller.error(signal.reason));
            },
          }),
        ),
    );

    const error = await model({ timeoutMs: 50 })
      .complete({ messages: HELLO })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({
      message: 'the LLM request to model m at h timed out: Request timed out.',
      transient: true,
    });
  });

  /** An answer whose body sends a part, then waits until the request's signal ends it. */
  const stalling = ({ signal }: RequestInit) =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"choices":'));
          signal?.addEventListener('abort', () => controller.error(signal.reason));
        },
      }),
    );

  it('rejects with the caller’s reason when the caller stops while the answer is read', async () => {
    answering(stalling);
    const stop = new AbortController();
    const reason = new Error('the turn was cancelled');

    const pending = model({ timeoutMs: 60_000 }).complete({ messages: HELLO, signal: stop.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort(reason);

    await expect(pending).rejects.toBe(reason);
  });

  it('keeps what ended a request that timed out as the cause', async () => {
    answering(stalling);

    const error = await model({ timeoutMs: 20 })
      .complete({ messages: HELLO })
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ message: expect.stringMatching(/timed out/) });
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError' });
  });

  it('fails worth another try, as a lost connection, when an answer breaks off while it is read', async () => {
    answering(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"choices":'));
              controller.error(new TypeError('terminated'));
            },
          }),
        ),
    );

    await expect(model().complete({ messages: HELLO })).rejects.toMatchObject({
      message: 'the LLM request to model m at h failed: Connection error.',
      transient: true,
    });
  });

  it.each([
    ['an answer', false, () => Response.json({ choices: [{ message: { content: 'ok' } }] })],
    ['a refusal', false, () => Response.json({ error: { message: 'no' } }, { status: 400 })],
    [
      'a stream',
      true,
      () => events('data: {"choices":[{"delta":{"content":"ok"}}]}\n\ndata: [DONE]\n\n'),
    ],
  ])('leaves no timer behind once %s is read', async (_case, streamed, respond) => {
    vi.useFakeTimers();
    try {
      answering(respond);
      const asked = model({ timeoutMs: 60_000 });

      await asked
        .chat({ messages: HELLO, ...(streamed ? { onTextDelta: () => {} } : {}) })
        .catch(() => undefined);

      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails worth another try when the connection fails', async () => {
    answering(() => {
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    });

    await expect(model().complete({ messages: HELLO })).rejects.toMatchObject({
      message: 'the LLM request to model m at h failed: Connection error.',
      transient: true,
    });
  });
});
