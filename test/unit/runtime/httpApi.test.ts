import { describe, expect, it } from 'vitest';
import {
  BlankTokenError,
  type Channel,
  createHttpApi,
  HttpError,
  type HttpRequest,
  outputRouter,
  type ReplyBatch,
  requireContentType,
  UnknownChannelError,
} from '../../../src/runtime/index.js';

const seen: string[] = [];

const channel: Channel = {
  name: 'echo',
  streams: false,
  routes: [
    {
      method: 'GET',
      path: '/items/{item}',
      authenticated: false,
      handle: async (request) => ({ status: 200, body: { item: request.params.item } }),
    },
    {
      method: 'POST',
      path: '/items/{item}',
      authenticated: true,
      handle: async () => {
        throw new HttpError(409, 'already there', { 'retry-after': '5' });
      },
    },
  ],
  output: { deliver: async (batch) => void seen.push(`${batch.channel}:${batch.turnId}`) },
};

const request = (method: string, path: string, headers = {}): HttpRequest => ({
  method,
  path,
  headers,
});

describe('the HTTP route table', () => {
  // Built in each test: mutation testing reaches only code that runs inside a test.
  const api = {
    handle: (r: HttpRequest) =>
      createHttpApi([channel], { authToken: async () => 's3cret' }).handle(r),
  };

  it('passes decoded path parameters to the route, ignoring the query string', async () => {
    expect(await api.handle(request('GET', '/items/a%20b?x=1'))).toEqual({
      status: 200,
      body: { item: 'a b' },
    });
  });

  it('answers 405 with the allowed methods for a path served only by other methods', async () => {
    expect(await api.handle(request('DELETE', '/items/a'))).toEqual({
      status: 405,
      body: { error: 'method not allowed; use GET, POST' },
      headers: { allow: 'GET, POST' },
    });
  });

  it('answers 404 naming the request when no route has the path', async () => {
    expect(await api.handle(request('GET', '/nothing'))).toEqual({
      status: 404,
      body: { error: 'no route for GET /nothing' },
    });
  });

  it('checks the token before an authenticated route runs', async () => {
    expect((await api.handle(request('POST', '/items/a'))).status).toBe(401);
    expect(
      await api.handle(request('POST', '/items/a', { Authorization: 'Bearer s3cret' })),
    ).toEqual({ status: 409, body: { error: 'already there' }, headers: { 'retry-after': '5' } });
  });

  it('refuses a body over the limit before any route runs', async () => {
    const big = { ...request('GET', '/items/a'), body: 'x'.repeat(256 * 1024 + 1) };
    expect((await api.handle(big)).status).toBe(413);
  });
});

describe('the output router', () => {
  const batch = (name: string): ReplyBatch => ({
    conversationId: 'c',
    turnId: 't1',
    jobId: 'j',
    version: 1,
    channel: name,
    messages: [],
    settled: true,
  });

  it("delivers a batch through the output of the conversation's channel", async () => {
    await outputRouter([channel]).deliver(batch('echo'));
    expect(seen).toEqual(['echo:t1']);
  });

  it('refuses a channel it does not have, naming the ones it has', async () => {
    await expect(outputRouter([channel]).deliver(batch('slack'))).rejects.toThrow(
      new UnknownChannelError('slack', ['echo']),
    );
  });
});

describe('the HTTP route table before a route runs', () => {
  const reads: string[] = [];
  const guarded: Channel = {
    name: 'guarded',
    streams: false,
    routes: [
      {
        method: 'GET',
        path: '/people/{sender}',
        authenticated: false,
        handle: async (request) => ({ status: 200, body: { sender: request.params.sender } }),
      },
      {
        method: 'POST',
        path: '/people/{sender}',
        authenticated: true,
        handle: async (request) => ({ status: 200, body: { got: request.body } }),
      },
      {
        method: 'GET',
        path: '/codes/{code}',
        authenticated: false,
        params: { code: (value) => (/^\d{4}$/.test(value) ? undefined : 'must be four digits') },
        handle: async (request) => ({ status: 200, body: { code: request.params.code } }),
      },
    ],
  };
  const api = {
    handle: (r: HttpRequest) =>
      createHttpApi([guarded], { authToken: async () => 's3cret' }).handle(r),
  };
  const lazy = (text: string) => async () => {
    reads.push(text.slice(0, 10));
    return text;
  };

  it('refuses a sender id longer than 128 characters on any route that has one', async () => {
    expect(await api.handle(request('GET', `/people/${'s'.repeat(3000)}`))).toEqual({
      status: 400,
      body: { error: 'the sender id in the path must be at most 128 characters' },
    });
    expect(await api.handle(request('GET', '/people/a%2Fb'))).toEqual({
      status: 400,
      body: { error: 'the sender id in the path may contain letters, digits and . _ : @ + - only' },
    });
    expect((await api.handle(request('GET', `/people/${'s'.repeat(128)}`))).status).toBe(200);
  });

  it('checks the parameters a route declares', async () => {
    expect(await api.handle(request('GET', '/codes/12a'))).toEqual({
      status: 400,
      body: { error: 'the code id in the path must be four digits' },
    });
    expect(await api.handle(request('GET', '/codes/1234'))).toEqual({
      status: 200,
      body: { code: '1234' },
    });
  });

  it('answers HEAD like GET, without a body', async () => {
    expect(await api.handle(request('HEAD', '/people/ada'))).toEqual({
      status: 200,
      body: undefined,
    });
    expect(await api.handle(request('HEAD', '/nothing'))).toEqual({
      status: 404,
      body: undefined,
    });
  });

  it('checks the token before it reads the body', async () => {
    reads.length = 0;
    const wrong = {
      ...request('POST', '/people/ada', { authorization: 'Bearer nope' }),
      body: lazy('x'.repeat(1024 * 1024)),
    };
    expect((await api.handle(wrong)).status).toBe(401);
    expect(reads).toEqual([]);
    const right = {
      ...request('POST', '/people/ada', { authorization: 'Bearer s3cret' }),
      body: lazy('hello'),
    };
    expect(await api.handle(right)).toEqual({ status: 200, body: { got: 'hello' } });
    expect(reads).toEqual(['hello']);
  });

  it('refuses a body over 64 KiB once the request is authorized', async () => {
    const big = {
      ...request('POST', '/people/ada', { authorization: 'Bearer s3cret' }),
      body: 'x'.repeat(64 * 1024 + 1),
    };
    expect(await api.handle(big)).toEqual({
      status: 413,
      body: { error: 'the body is larger than 65536 bytes' },
    });
  });

  it('refuses to serve an authenticated route when the configured token is blank', async () => {
    for (const blank of ['', '  \t']) {
      const open = createHttpApi([guarded], { authToken: async () => blank });
      await expect(open.handle(request('POST', '/people/ada'))).rejects.toThrow(BlankTokenError);
      expect((await open.handle(request('GET', '/people/ada'))).status).toBe(200);
    }
  });

  it('accepts only the exact token, whatever the length of the one given', async () => {
    for (const given of ['s3cre', 's3crett', 'S3CRET', 'x'.repeat(10_000), '']) {
      const answer = await api.handle(
        request('POST', '/people/ada', { authorization: `Bearer ${given}` }),
      );
      expect(answer.status).toBe(401);
    }
  });
});

describe('outputRouter failures', () => {
  it('names the channel a batch went to and the channels that deliver, or none', async () => {
    const batch = {
      conversationId: 'ada',
      turnId: 't',
      jobId: 'j',
      version: 1,
      channel: 'slack',
      messages: [],
      settled: true,
    };
    const silent: Channel = { name: 'health', streams: false, routes: [] };
    const withOutput: Channel = { ...silent, name: 'rest', output: { deliver: async () => {} } };

    const none = await outputRouter([silent])
      .deliver(batch)
      .catch((e: unknown) => e);
    const some = await outputRouter([withOutput, silent])
      .deliver(batch)
      .catch((e: unknown) => e);

    expect(none).toBeInstanceOf(UnknownChannelError);
    expect((none as Error).name).toBe('UnknownChannelError');
    expect((none as Error).message).toBe(
      'no channel "slack" delivers replies here (channels: none)',
    );
    expect((some as Error).message).toBe(
      'no channel "slack" delivers replies here (channels: rest)',
    );
  });
});

describe('requireContentType', () => {
  const refusal = (contentType: string | undefined, types?: readonly string[]) => {
    try {
      requireContentType(contentType, types);
      return 'accepted';
    } catch (error) {
      return error instanceof HttpError ? [error.status, error.message] : error;
    }
  };

  it('refuses a missing Content-Type as it refuses a non-JSON one, with 415 and the reason', () => {
    expect(refusal(undefined)).toEqual([
      415,
      'the body must be JSON (Content-Type: application/json); the request has none',
    ]);
    expect(refusal('text/plain')).toEqual([
      415,
      'the body must be JSON (Content-Type: application/json); the request sent text/plain',
    ]);
    expect(refusal('application/json; charset=utf-8')).toBe('accepted');
  });

  it('takes any of the types a route accepts, as the A2A push receiver does', () => {
    const push = ['application/a2a+json', 'application/json'];
    expect(refusal('application/a2a+json', push)).toBe('accepted');
    expect(refusal('Application/JSON', push)).toBe('accepted');
    expect(refusal(undefined, push)).toEqual([
      415,
      'the body must be JSON (Content-Type: application/a2a+json or application/json); the request has none',
    ]);
  });
});
