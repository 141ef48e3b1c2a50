import { describe, expect, it } from 'vitest';
import {
  type Channel,
  createHttpApi,
  HttpError,
  type HttpRequest,
  outputRouter,
  type ReplyBatch,
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
  const api = createHttpApi([channel], { authToken: async () => 's3cret' });

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
