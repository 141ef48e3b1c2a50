import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardChannels } from '../../../src/channels/index.js';
import {
  CALLBACK_PATH,
  messagingChannels,
  SEND_ATTEMPTS,
} from '../../../src/channels/messaging/index.js';
import type { Logger } from '../../../src/resilience/index.js';
import type { ChannelFactory } from '../../../src/runtime/index.js';
import { type FakePlatform, startFakePlatform } from '../../helpers/fakePlatform.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { GREETING_PROJECT } from '../../helpers/project.js';
import { runtimeSuite } from '../../helpers/runtime.js';

const suite = runtimeSuite(GREETING_PROJECT);
let platform: FakePlatform;
beforeAll(async () => {
  platform = await startFakePlatform();
});
afterAll(() => platform.close());

function callbackChannels(warnings: string[] = []): ChannelFactory {
  const logger: Logger = { ...SILENT_LOGGER, warn: (message) => warnings.push(message) };
  return (context) => [
    ...standardChannels(context),
    ...messagingChannels(
      context,
      { callback: { url: `${platform.url}/bot` } },
      { secrets: { get: async () => '' }, logger, backoff: { baseMs: 0 } },
    ),
  ];
}

const post = (body: unknown) => ({
  method: 'POST',
  path: CALLBACK_PATH,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the callback channel', () => {
  it('acknowledges at once and posts each bot message to the configured URL', async () => {
    const rt = await suite.runtime({ channels: callbackChannels() });
    rt.llm.reply('start flow greet');
    const answer = await rt.http.handle(post({ sender: 'cb-ada', message: 'hi' }));
    expect(answer).toEqual({ status: 200, body: 'success' });
    await rt.drain(async () => platform.requests.some((r) => r.path === '/bot'));
    const sent = platform.requests.filter((r) => r.path === '/bot');
    expect(sent.map((r) => r.body)).toEqual([{ recipient_id: 'cb-ada', text: 'Your name?' }]);
  });

  it('takes a repeated message (same message_id) once', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: callbackChannels() });
    rt.llm.reply('start flow greet');
    const message = { sender: 'cb-twice', message: 'hi', metadata: { message_id: 'm-1' } };
    await rt.http.handle(post(message));
    await rt.http.handle(post(message));
    await rt.drain(async () => platform.requests.length >= 1);
    await rt.drain(async () => (await rt.queuedJobs('cb-twice')).length === 0);
    expect(platform.requests).toHaveLength(1);
    expect(rt.llm.prompts).toHaveLength(1);
  });

  it('tries a failing URL again later, in order, and skips a message refused for good', async () => {
    platform.requests.length = 0;
    const warnings: string[] = [];
    const rt = await suite.runtime({ channels: callbackChannels(warnings) });
    rt.llm.reply('start flow greet');
    platform.failNext(2, { status: 503 });
    await rt.http.handle(post({ sender: 'cb-retry', message: 'hi' }));
    await rt.drain(async () => platform.requests.length >= 3);
    expect(platform.requests.map((r) => r.body)).toEqual(
      Array(3).fill({ recipient_id: 'cb-retry', text: 'Your name?' }),
    );
    // A refusal for good (4xx) is logged and not tried again; the next message still goes.
    platform.failNext(1, { status: 404 });
    rt.llm.reply('set slot name Ada');
    await rt.http.handle(post({ sender: 'cb-retry', message: 'Ada' }));
    await rt.drain(async () => platform.requests.length >= 5);
    expect(warnings).toEqual(['a reply was refused by its platform; it is not sent again']);
    expect(platform.requests.slice(3).map((r) => (r.body as { text: string }).text)).toEqual([
      'Hello Ada!',
      'Can I help you with anything else?',
    ]);
  });

  it('logs a message it gave up on after its tries', async () => {
    platform.requests.length = 0;
    const warnings: string[] = [];
    const rt = await suite.runtime({ channels: callbackChannels(warnings) });
    rt.llm.reply('start flow greet');
    platform.failNext(SEND_ATTEMPTS, { status: 500 });
    await rt.http.handle(post({ sender: 'cb-gone', message: 'hi' }));
    await rt.drain(async () => warnings.length > 0);
    expect(warnings).toEqual(['gave up sending a reply to its platform']);
    expect(platform.requests).toHaveLength(SEND_ATTEMPTS);
  });

  it('needs the API token, as the REST webhook does', async () => {
    const route = callbackChannels()({} as never).find((c) => c.name === 'callback')?.routes[0];
    expect(route).toMatchObject({ method: 'POST', path: CALLBACK_PATH, authenticated: true });
  });
});

describe('a batch the runtime delivers again', () => {
  it('is sent once: the messages handled are recorded in the reply store', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: callbackChannels() });
    const batch = {
      conversationId: 'cb-again',
      turnId: 't1',
      jobId: 'j1',
      version: 1,
      channel: 'callback',
      messages: [{ id: 'j1#0', recipient_id: 'cb-again', message: { text: 'once' } }],
      settled: true,
    };
    await rt.deps.output.deliver(batch);
    await rt.deps.output.deliver(batch);
    await rt.deps.output.deliver({
      ...batch,
      messages: [
        ...batch.messages,
        { id: 'j1#1', recipient_id: 'cb-again', message: { text: 'new' } },
      ],
    });
    expect(platform.requests.map((r) => (r.body as { text: string }).text)).toEqual([
      'once',
      'new',
    ]);
  });
});
