import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { standardChannels } from '../../../src/channels/index.js';
import { type ChannelContext, createHttpApi } from '../../../src/runtime/index.js';

const unused = () => Promise.reject(new Error('not used by GET /version'));
const context: ChannelContext = {
  queue: { enqueue: unused },
  store: {
    load: unused,
    commit: unused,
    appendEvents: unused,
    clearOutbox: unused,
    loadRun: unused,
    readEvents: unused,
    readEventPage: unused,
  },
  replies: { deliver: unused, read: unused },
  newId: () => 'id',
  now: () => 0,
  sleep: async () => {},
  replyWaitMs: 0,
};

async function packageVersion(): Promise<unknown> {
  const text = await readFile(new URL('../../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version?: unknown }).version;
}

describe('GET /version', () => {
  const api = () => createHttpApi(standardChannels(context), { authToken: async () => 'token' });

  it("answers Switchboard's version in Rasa's shape, without a token", async () => {
    const response = await api().handle({ method: 'GET', path: '/version', headers: {} });

    expect(response).toEqual({
      status: 200,
      body: { version: await packageVersion(), minimum_compatible_version: '0.1.0' },
    });
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await api().handle({ method: 'HEAD', path: '/version', headers: {} });
    const post = await api().handle({ method: 'POST', path: '/version', headers: {} });

    expect(head).toEqual({ status: 200, body: undefined });
    expect(post.status).toBe(405);
  });
});
