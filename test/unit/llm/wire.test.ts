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
  ])('words an error status with %s', async (_case, text, message) => {
    answering(() => new Response(text, { status: 502 }));

    await expect(
      postChatCompletion({ baseURL: 'http://h', apiKey: 'k', body: {} }),
    ).rejects.toMatchObject({ name: 'ChatHttpError', status: 502, message });
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
    expect(error).toMatchObject({ message });
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
