import { describe, expect, it } from 'vitest';
import { standardChannels } from '../../../src/channels/index.js';
import { emptyTrackerState } from '../../../src/channels/rasaTracker.js';
import { type ChannelContext, createHttpApi } from '../../../src/runtime/index.js';

/** Channels over stores that hold one conversation and record what is queued. */
function context(queued: unknown[]): ChannelContext {
  return {
    queue: { enqueue: async (jobs) => void queued.push(...jobs) },
    store: {
      load: async () => undefined,
      commit: async () => {},
      appendEvents: async () => {},
      clearOutbox: async () => {},
      loadRun: async () => undefined,
      readEvents: async () => [],
      readEventPage: async () => ({ events: [], more: false }),
    },
    replies: {
      deliver: async () => {},
      read: async () => ({ messages: [], settled: true }),
    },
    newId: () => 'job-1',
    now: () => 0,
    sleep: async () => {},
    replyWaitMs: 0,
  };
}

describe('the standard routes with a token', () => {
  const queued: unknown[] = [];
  // Built in each test: mutation testing reaches only code that runs inside a test.
  const api = () =>
    createHttpApi(standardChannels(context(queued)), {
      authToken: async () => 'the-token',
    });
  const get = (path: string, headers: Record<string, string> = {}) =>
    api().handle({ method: 'GET', path, headers });

  it('keep the tracker closed to requests without the token', async () => {
    expect(await get('/conversations/ada/tracker')).toEqual({
      status: 401,
      body: { error: 'missing or wrong bearer token' },
    });
    expect((await get('/conversations/ada/tracker', { authorization: 'Bearer nope' })).status).toBe(
      401,
    );
    const allowed = await get('/conversations/ada/tracker', {
      authorization: 'Bearer the-token',
    });
    expect(allowed).toEqual({ status: 200, body: emptyTrackerState('ada') });
  });

  it('keep the webhook closed to requests without the token, queueing nothing', async () => {
    const response = await api().handle({
      method: 'POST',
      path: '/webhooks/rest/webhook',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: 'ada', message: 'hi' }),
    });
    expect(response.status).toBe(401);
    expect(queued).toEqual([]);
  });

  it('answer health checks without the token', async () => {
    expect(await get('/health')).toEqual({ status: 200, body: { status: 'ok' } });
    // The root answers the same, for load balancers that probe `/`.
    expect(await get('/')).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await api().handle({ method: 'POST', path: '/', headers: {} })).status).toBe(405);
  });
});
