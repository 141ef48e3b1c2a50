import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackChannelSettings } from '../../../src/assistant/index.js';
import { standardChannels } from '../../../src/channels/index.js';
import type { MessagingDeps } from '../../../src/channels/messaging/deps.js';
import { SLACK_PATH, slackChannel } from '../../../src/channels/messaging/slack.js';
import type { Logger } from '../../../src/resilience/index.js';
import type { ChannelContext, ChannelFactory, OutputChannel } from '../../../src/runtime/index.js';
import { type FakePlatform, startFakePlatform } from '../../helpers/fakePlatform.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { slackSignatureHeaders } from '../../helpers/platformSignatures.js';
import { GREETING_PROJECT } from '../../helpers/project.js';
import { runtimeSuite } from '../../helpers/runtime.js';

const SIGNING_SECRET = 'e2b1c0ffee5ec2e7e2b1c0ffee5ec2e7';
const BOT_TOKEN = 'xoxb-integration-test';
const SETTINGS: SlackChannelSettings = {
  slack_token: { secret: 'SLACK_BOT_TOKEN' },
  slack_signing_secret: { secret: 'SLACK_SIGNING_SECRET' },
};
const SECRETS: Record<string, string> = {
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
};

const suite = runtimeSuite(GREETING_PROJECT);
let platform: FakePlatform;
beforeAll(async () => {
  platform = await startFakePlatform();
});
afterAll(() => platform.close());

function slackDeps(warnings: string[]): MessagingDeps {
  const logger: Logger = { ...SILENT_LOGGER, warn: (message) => warnings.push(message) };
  return {
    secrets: {
      get: async (name) => {
        const value = SECRETS[name];
        if (value === undefined) throw new Error(`no secret ${name}`);
        return value;
      },
    },
    logger,
    backoff: { baseMs: 0 },
    apiRoots: { slack: platform.url },
  };
}

function slackChannels(warnings: string[] = []): ChannelFactory {
  return (context) => [
    ...standardChannels(context),
    slackChannel(context, SETTINGS, slackDeps(warnings)),
  ];
}

/** An Events API request of a user's direct message, as Slack sends it. */
function directMessage(channel: string, user: string, text: string, eventId: string) {
  const ts = `${Math.floor(Date.now() / 1000)}.000100`;
  return JSON.stringify({
    token: 'legacy-verification-token',
    team_id: 'T0001',
    api_app_id: 'A0001',
    event: {
      type: 'message',
      user,
      text,
      ts,
      channel,
      event_ts: ts,
      channel_type: 'im',
    },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
  });
}

/** A request signed now with `secret` (the app's signing secret by default). */
function signedPost(body: string, headers: Record<string, string> = {}, secret = SIGNING_SECRET) {
  return {
    method: 'POST',
    path: SLACK_PATH,
    headers: {
      'content-type': 'application/json',
      ...slackSignatureHeaders(body, Math.floor(Date.now() / 1000), secret),
      ...headers,
    },
    body,
  };
}

const postMessages = () => platform.requests.filter((r) => r.path === '/chat.postMessage');

describe('the Slack channel', () => {
  it("acknowledges a signed message at once and posts the reply with the bot's token", async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: slackChannels() });
    rt.llm.reply('start flow greet');
    const answer = await rt.http.handle(
      signedPost(directMessage('D0ADA', 'U0ADA', 'hi', 'Ev0ADA1')),
    );
    expect(answer).toEqual({ status: 200, body: {} });
    await rt.drain(async () => postMessages().length >= 1);
    const [sent] = postMessages();
    expect(sent?.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(sent?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(sent?.body).toEqual({ channel: 'D0ADA', text: 'Your name?' });
  });

  it('takes a delivery Slack repeats (same event_id, X-Slack-Retry-Num) as one turn', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: slackChannels() });
    rt.llm.reply('start flow greet');
    const body = directMessage('D0TWICE', 'U0TWICE', 'hi', 'Ev0TWICE');
    expect((await rt.http.handle(signedPost(body))).status).toBe(200);
    const retry = await rt.http.handle(
      signedPost(body, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' }),
    );
    expect(retry).toEqual({ status: 200, body: {} });
    await rt.drain(async () => postMessages().length >= 1);
    await rt.drain(async () => (await rt.queuedJobs('slack:D0TWICE:U0TWICE')).length === 0);
    expect(rt.llm.prompts).toHaveLength(1);
    expect(postMessages()).toHaveLength(1);
  });

  it('tries a reply again when Slack fails, until it arrives', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: slackChannels() });
    rt.llm.reply('start flow greet');
    platform.failNext(2, { status: 503 });
    await rt.http.handle(signedPost(directMessage('D0RETRY', 'U0RETRY', 'hi', 'Ev0RETRY')));
    await rt.drain(async () => postMessages().length >= 3);
    expect(postMessages().map((r) => r.body)).toEqual(
      Array(3).fill({ channel: 'D0RETRY', text: 'Your name?' }),
    );
  });

  it('tries again a reply Slack answers 200 {"ok": false, "error": "ratelimited"}', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: slackChannels() });
    rt.llm.reply('start flow greet');
    let calls = 0;
    platform.answer(() => {
      calls += 1;
      return { body: calls === 1 ? { ok: false, error: 'ratelimited' } : { ok: true } };
    });
    try {
      await rt.http.handle(signedPost(directMessage('D0LIMIT', 'U0LIMIT', 'hi', 'Ev0LIMIT')));
      await rt.drain(async () => postMessages().length >= 2);
    } finally {
      platform.answer(() => ({ body: { ok: true } }));
    }
    expect(postMessages().map((r) => r.body)).toEqual(
      Array(2).fill({ channel: 'D0LIMIT', text: 'Your name?' }),
    );
  });

  it('writes nothing for a forged request', async () => {
    const rt = await suite.runtime({ channels: slackChannels() });
    const before = await rt.scanTable();
    const forged = signedPost(
      directMessage('D0EVE', 'U0EVE', 'hi', 'Ev0EVE'),
      {},
      'not-the-signing-secret',
    );
    expect(await rt.http.handle(forged)).toEqual({
      status: 401,
      body: { error: 'the Slack signature does not match' },
    });
    expect(await rt.queuedJobs('slack:D0EVE:U0EVE')).toEqual([]);
    expect(await rt.scanTable()).toBe(before);
    expect(rt.llm.prompts).toEqual([]);
  });

  it('posts buttons and an image as blocks to the platform', async () => {
    platform.requests.length = 0;
    const enqueued: unknown[] = [];
    const context = {
      queue: { enqueue: async (jobs: readonly unknown[]) => void enqueued.push(...jobs) },
      now: Date.now,
    } as unknown as ChannelContext;
    const output = slackChannel(context, { ...SETTINGS, use_threads: true }, slackDeps([]))
      .output as OutputChannel;
    const conversationId = 'slack:C0BLOCKS:U0ADA:1700000000.000100';
    await output.deliver({
      conversationId,
      turnId: 'turn-1',
      jobId: 'job-1',
      version: 1,
      channel: 'slack',
      settled: true,
      messages: [
        {
          id: 'msg-1',
          recipient_id: conversationId,
          message: {
            text: 'Pick one',
            image: 'https://example.com/a.png',
            buttons: [{ title: 'Yes', payload: '/affirm' }],
          },
        },
      ],
    });
    expect(enqueued).toEqual([]);
    expect(postMessages().map((r) => r.body)).toEqual([
      {
        channel: 'C0BLOCKS',
        thread_ts: '1700000000.000100',
        text: 'Pick one',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: 'Pick one' } },
          {
            type: 'image',
            image_url: 'https://example.com/a.png',
            alt_text: 'https://example.com/a.png',
          },
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                text: { type: 'plain_text', text: 'Yes' },
                value: '/affirm',
                action_id: 'button_0',
              },
            ],
          },
        ],
      },
    ]);
  });
});
