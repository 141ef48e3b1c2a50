import { describe, expect, it } from 'vitest';
import type { SlackChannelSettings } from '../../../src/assistant/index.js';
import type { MessagingDeps } from '../../../src/channels/messaging/deps.js';
import { inboundJob } from '../../../src/channels/messaging/inbound.js';
import { SLACK_PATH, slackChannel } from '../../../src/channels/messaging/slack.js';
import { escapeText } from '../../../src/channels/messaging/slackOutput.js';
import type { BotMessage } from '../../../src/dialogue/index.js';
import type { LogFields } from '../../../src/resilience/index.js';
import {
  BlankSecretError,
  createHttpApi,
  type Job,
  type OutputChannel,
} from '../../../src/runtime/index.js';
import { recordingContext } from '../../helpers/channelContext.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { slackSignatureHeaders } from '../../helpers/platformSignatures.js';

const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const BOT_TOKEN = 'xoxb-unit-test';
const NOW = 1_700_000_000_000;
const NOW_S = NOW / 1000;
const SETTINGS: SlackChannelSettings = {
  slack_token: { secret: 'SLACK_TOKEN' },
  slack_signing_secret: { secret: 'SLACK_SIGNING_SECRET' },
};
const SECRETS: Record<string, string> = {
  SLACK_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
};

interface PlatformCallRecord {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/**
 * Slack's Web API in process (the unit tier opens no sockets): it records each call and answers
 * with what `answer` gives.
 */
function inProcessSlack(answer: () => Response = () => Response.json({ ok: true })) {
  const calls: PlatformCallRecord[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    calls.push({
      url: String(input),
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    });
    return answer();
  };
  return { calls, fetch: fetchImpl };
}

/** The Slack channel over a queue that records what it is given, at a fixed time. */
function slackHarness(
  options: { settings?: Partial<SlackChannelSettings>; deps?: Partial<MessagingDeps> } = {},
) {
  const queued: Job[] = [];
  const warnings: string[] = [];
  const context = recordingContext(queued, { now: NOW, newId: () => 'fresh-id' });
  const deps: MessagingDeps = {
    secrets: {
      get: async (name) => {
        const value = SECRETS[name];
        if (value === undefined) throw new Error(`no secret ${name}`);
        return value;
      },
    },
    logger: { ...SILENT_LOGGER, warn: (message: string, _: LogFields) => warnings.push(message) },
    backoff: { baseMs: 0 },
    ...options.deps,
  };
  const channel = slackChannel(context, { ...SETTINGS, ...options.settings }, deps);
  const api = createHttpApi([channel]);
  const output = channel.output as OutputChannel;
  return { queued, warnings, api, output };
}

/** The headers of a request Slack signed at `timestamp` (seconds) with `secret`. */
function signed(body: string, timestamp = NOW_S, secret = SIGNING_SECRET) {
  return slackSignatureHeaders(body, timestamp, secret);
}

function post(
  body: string,
  contentType = 'application/json',
  headers: Record<string, string> = signed(body),
) {
  return {
    method: 'POST',
    path: SLACK_PATH,
    headers: { 'content-type': contentType, ...headers },
    body,
  };
}

/** An Events API request of a message, shaped as Slack sends it. */
function messageEvent(event: Record<string, unknown> = {}, eventId = 'Ev0001') {
  return JSON.stringify({
    token: 'legacy-verification-token',
    team_id: 'T0001',
    api_app_id: 'A0001',
    event: {
      type: 'message',
      user: 'U0001',
      text: 'hello there',
      ts: '1700000000.000100',
      channel: 'D0001',
      event_ts: '1700000000.000100',
      channel_type: 'im',
      ...event,
    },
    type: 'event_callback',
    event_id: eventId,
    event_time: NOW_S,
    authorizations: [{ team_id: 'T0001', user_id: 'UBOT01', is_bot: true }],
  });
}

/** An interactivity request of a button click, form-encoded as Slack sends it. */
function buttonClick(container: Record<string, unknown> = {}) {
  const payload = {
    type: 'block_actions',
    user: { id: 'U0001', username: 'ada' },
    api_app_id: 'A0001',
    container: {
      type: 'message',
      message_ts: '1700000001.000200',
      channel_id: 'C0001',
      ...container,
    },
    channel: { id: 'C0001', name: 'general' },
    actions: [
      {
        type: 'button',
        action_id: 'button_0',
        block_id: 'b1',
        text: { type: 'plain_text', text: 'Yes' },
        value: '/affirm',
        action_ts: '1700000002.123456',
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

const FORM = 'application/x-www-form-urlencoded';

describe('the Slack webhook', () => {
  it("takes out the bot's mention and reads Slack's markup as plain text", async () => {
    const { api, queued } = slackHarness();
    const text =
      '<@UBOT01> ask <@U0002|bob> about <https://example.com/a|this car> &amp; <https://example.com/b> &lt;3 <mailto:ada@example.com|ada@example.com>';
    await api.handle(post(messageEvent({ text })));
    expect(queued.map((job) => (job as { text: string }).text)).toEqual([
      'ask bob about this car & https://example.com/b <3 ada@example.com',
    ]);
  });

  it('queues a signed message as one job and acknowledges it at once', async () => {
    const { api, queued } = slackHarness();
    const answer = await api.handle(post(messageEvent()));
    expect(answer).toEqual({ status: 200, body: {} });
    expect(queued).toEqual([
      inboundJob('slack', {
        eventId: 'message:D0001:1700000000.000100',
        conversationId: 'slack:D0001:U0001',
        text: 'hello there',
        metadata: { slack: { channel: 'D0001', user: 'U0001', ts: '1700000000.000100' } },
        typed: true,
      }),
    ]);
    expect(queued[0]).toMatchObject({ type: 'user_message', channel: 'slack' });
  });

  it('refuses a forged signature with 401 and queues nothing', async () => {
    const { api, queued } = slackHarness();
    const body = messageEvent();
    const answer = await api.handle(post(body, undefined, signed(body, NOW_S, 'not-the-secret')));
    expect(answer).toEqual({ status: 401, body: { error: 'the Slack signature does not match' } });
    expect(queued).toEqual([]);
  });

  it('never takes a blank signing secret as a key: a request signed with it is a configuration fault', async () => {
    const { api, queued } = slackHarness({
      deps: { secrets: { get: async (name) => (name === 'SLACK_SIGNING_SECRET' ? ' ' : 'x') } },
    });
    const body = messageEvent();
    await expect(
      api.handle(post(body, undefined, signed(body, NOW_S, ' '))),
    ).rejects.toBeInstanceOf(BlankSecretError);
    expect(queued).toEqual([]);
  });

  it('refuses a body changed after it was signed', async () => {
    const { api, queued } = slackHarness();
    const headers = signed(messageEvent());
    const answer = await api.handle(
      post(messageEvent({ text: 'pay Mallory' }), undefined, headers),
    );
    expect(answer.status).toBe(401);
    expect(queued).toEqual([]);
  });

  it('refuses a request signed six minutes ago, or ahead, as stale', async () => {
    const { api, queued } = slackHarness();
    const body = messageEvent();
    for (const timestamp of [NOW_S - 360, NOW_S + 360]) {
      const answer = await api.handle(post(body, undefined, signed(body, timestamp)));
      expect(answer).toEqual({
        status: 401,
        body: {
          error: 'the Slack request is stale: its timestamp is more than 300 s from now',
        },
      });
    }
    expect(queued).toEqual([]);
  });

  it('accepts a request signed within five minutes', async () => {
    const { api, queued } = slackHarness();
    const body = messageEvent();
    expect((await api.handle(post(body, undefined, signed(body, NOW_S - 300)))).status).toBe(200);
    expect(queued).toHaveLength(1);
  });

  it('refuses a request without the signature headers', async () => {
    const { api, queued } = slackHarness();
    const body = messageEvent();
    const { 'x-slack-signature': _, ...noSignature } = signed(body);
    for (const headers of [{}, noSignature]) {
      const answer = await api.handle(post(body, undefined, headers));
      expect(answer.status).toBe(401);
    }
    expect(queued).toEqual([]);
  });

  it('checks the signature before the content type', async () => {
    const { api } = slackHarness();
    expect((await api.handle(post('hi', 'text/plain', {}))).status).toBe(401);
    expect(await api.handle(post('hi', 'text/plain'))).toEqual({
      status: 415,
      body: {
        error:
          'the body must be JSON or form-encoded (Content-Type: application/json or application/x-www-form-urlencoded); the request sent text/plain',
      },
    });
  });

  it('answers the url_verification challenge', async () => {
    const { api, queued } = slackHarness();
    const body = JSON.stringify({ token: 't', challenge: 'c-123', type: 'url_verification' });
    expect(await api.handle(post(body))).toEqual({ status: 200, body: { challenge: 'c-123' } });
    expect(queued).toEqual([]);
  });

  it("strips the bot's mention from an app_mention and trims the text", async () => {
    const { api, queued } = slackHarness();
    const body = messageEvent({
      type: 'app_mention',
      text: '<@UBOT01> what is <@W0042|bo> doing? ',
      channel: 'C0001',
    });
    await api.handle(post(body));
    expect(queued[0]).toMatchObject({
      conversation_id: 'slack:C0001:U0001',
      text: 'what is bo doing?',
    });
  });

  it('takes the message and app_mention events of one mention as the same job', async () => {
    const { api, queued } = slackHarness();
    const event = { text: '<@U0BOT> hi', channel: 'C0001' };
    await api.handle(post(messageEvent(event, 'Ev0001')));
    await api.handle(post(messageEvent({ ...event, type: 'app_mention' }, 'Ev0002')));
    expect(queued).toHaveLength(2);
    expect(queued[0]?.id).toBe(queued[1]?.id);
  });

  it('gives the same event delivered twice (a retry) the same job id', async () => {
    const { api, queued } = slackHarness();
    const body = messageEvent();
    await api.handle(post(body));
    await api.handle(post(body, undefined, { ...signed(body), 'x-slack-retry-num': '1' }));
    expect(queued).toHaveLength(2);
    expect(queued[0]?.id).toBe(queued[1]?.id);
    const other = slackHarness();
    await other.api.handle(post(messageEvent({ ts: '1700000009.000900' }, 'Ev0009')));
    expect(other.queued[0]?.id).not.toBe(queued[0]?.id);
  });

  it('ignores bot messages, edits, other events and texts of mentions only', async () => {
    const { api, queued } = slackHarness();
    const ignored = [
      messageEvent({ bot_id: 'B0001' }),
      messageEvent({ subtype: 'message_changed' }),
      messageEvent({ subtype: 'bot_message', user: undefined }),
      messageEvent({ type: 'reaction_added' }),
      messageEvent({ text: '  <@UBOT01>  ' }),
      messageEvent({ text: undefined }),
      JSON.stringify({ type: 'app_rate_limited', team_id: 'T0001' }),
    ];
    for (const body of ignored) {
      expect(await api.handle(post(body))).toEqual({ status: 200, body: {} });
    }
    expect(queued).toEqual([]);
  });

  it('refuses with 400 a body that is not JSON, and a conversation id it could not store', async () => {
    const { api, queued } = slackHarness();
    expect(await api.handle(post('{"type":'))).toEqual({
      status: 400,
      body: { error: 'the body is not valid JSON' },
    });
    const answer = await api.handle(post(messageEvent({ channel: 'C 01' })));
    expect(answer).toEqual({
      status: 400,
      body: {
        error:
          'the Slack conversation id slack:C 01:U0001 may contain letters, digits and . _ : @ + - only',
      },
    });
    expect(queued).toEqual([]);
  });

  it('makes each thread a conversation of its own with use_threads', async () => {
    const { api, queued } = slackHarness({ settings: { use_threads: true } });
    await api.handle(post(messageEvent({ channel: 'C0001' })));
    await api.handle(
      post(messageEvent({ channel: 'C0001', ts: '1700000005.000500', thread_ts: '1699999999.1' })),
    );
    expect(queued.map((j) => j.conversation_id)).toEqual([
      'slack:C0001:U0001:1700000000.000100',
      'slack:C0001:U0001:1699999999.1',
    ]);
    expect(queued[1]).toMatchObject({
      metadata: {
        slack: {
          channel: 'C0001',
          user: 'U0001',
          ts: '1700000005.000500',
          thread_ts: '1699999999.1',
        },
      },
    });
  });

  it("takes a button click's value as what the user says", async () => {
    const { api, queued } = slackHarness();
    expect(await api.handle(post(buttonClick(), FORM))).toEqual({ status: 200, body: {} });
    expect(queued).toEqual([
      inboundJob('slack', {
        eventId: 'action:1700000001.000200:1700000002.123456',
        conversationId: 'slack:C0001:U0001',
        text: '/affirm',
        metadata: { slack: { channel: 'C0001', user: 'U0001', ts: '1700000001.000200' } },
        typed: false,
      }),
    ]);
  });

  it("puts a button click in its thread's conversation with use_threads", async () => {
    const { api, queued } = slackHarness({ settings: { use_threads: true } });
    await api.handle(post(buttonClick({ thread_ts: '1699999999.1' }), FORM));
    expect(queued[0]?.conversation_id).toBe('slack:C0001:U0001:1699999999.1');
  });

  it('refuses a form without a payload and a forged button click', async () => {
    const { api, queued } = slackHarness();
    expect(await api.handle(post('a=1', FORM))).toEqual({
      status: 400,
      body: { error: 'the form has no payload field' },
    });
    const body = buttonClick();
    expect((await api.handle(post(body, FORM, signed(body, NOW_S, 'nope')))).status).toBe(401);
    expect(queued).toEqual([]);
  });
});

describe('the Slack output', () => {
  const batch = (messages: BotMessage[], conversationId = 'slack:C0001:U0001') => ({
    conversationId,
    turnId: 'turn-1',
    jobId: 'job-1',
    version: 1,
    channel: 'slack',
    settled: true,
    messages: messages.map((message, i) => ({
      id: `msg-${i}`,
      recipient_id: conversationId,
      message,
    })),
  });

  it('posts text with the bot token to chat.postMessage', async () => {
    const slack = inProcessSlack();
    const { output } = slackHarness({
      deps: { fetch: slack.fetch, apiRoots: { slack: 'http://slack.test/api/' } },
    });
    await output.deliver(batch([{ text: 'Hello *Ada*' }]));
    expect(slack.calls).toEqual([
      {
        url: 'http://slack.test/api/chat.postMessage',
        headers: {
          authorization: `Bearer ${BOT_TOKEN}`,
          'content-type': 'application/json; charset=utf-8',
        },
        body: { channel: 'C0001', text: 'Hello *Ada*' },
      },
    ]);
  });

  it("escapes Slack's control characters in text, so that no text mentions everyone or links on its own", async () => {
    const slack = inProcessSlack();
    const { output } = slackHarness({ deps: { fetch: slack.fetch } });
    await output.deliver(
      batch([
        {
          text: 'Hey <!channel>, see <http://evil.example|docs> & *this*',
          buttons: [{ title: '<b> & co', payload: '/b' }],
        },
      ]),
    );
    const escaped = 'Hey &lt;!channel&gt;, see &lt;http://evil.example|docs&gt; &amp; *this*';
    const body = slack.calls[0]?.body as {
      text: string;
      blocks: { text?: unknown; elements?: unknown }[];
    };
    expect(body.text).toBe(escaped);
    expect(body.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: escaped } });
    // Cut before escaping: no section ends inside an entity, and none is longer than Slack takes.
    const long = 'a<b>&'.repeat(700);
    const again = inProcessSlack();
    await slackHarness({ deps: { fetch: again.fetch } }).output.deliver(
      batch([{ text: long, buttons: [{ title: 'Ok', payload: '/ok' }] }]),
    );
    const blocks = (
      again.calls[0]?.body as { blocks?: { type: string; text?: { text: string } }[] }
    )?.blocks;
    const sections = (blocks ?? [])
      .filter((b) => b.type === 'section')
      .map((b) => b.text?.text ?? '');
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) {
      expect(section.length).toBeLessThanOrEqual(3000);
      expect(section).not.toMatch(/&[a-z]*$/);
      expect(section).not.toMatch(/^[a-z]*;/);
    }
    expect(sections.join('')).toBe(escapeText(long));
    // A button's title is plain text: Slack shows it as it is.
    expect(JSON.stringify(body.blocks[1])).toContain('"text":"<b> & co"');
  });

  it('renders buttons as an actions block after the text, titles cut to 75 characters', async () => {
    const slack = inProcessSlack();
    const { output } = slackHarness({ deps: { fetch: slack.fetch } });
    const long = 'x'.repeat(80);
    await output.deliver(
      batch([
        {
          text: 'Pick one',
          buttons: [
            { title: 'Yes', payload: '/affirm' },
            { title: long, payload: '/deny' },
          ],
        },
      ]),
    );
    expect(slack.calls[0]?.body).toEqual({
      channel: 'C0001',
      text: 'Pick one',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Pick one' } },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'Yes' },
              value: '/affirm',
              action_id: 'button_0',
            },
            {
              type: 'button',
              text: { type: 'plain_text', text: 'x'.repeat(75) },
              value: '/deny',
              action_id: 'button_1',
            },
          ],
        },
      ],
    });
  });

  it('renders an image as an image block, in the thread of a threaded conversation', async () => {
    const slack = inProcessSlack();
    const { output } = slackHarness({ deps: { fetch: slack.fetch } });
    const url = 'https://example.com/cat.png';
    await output.deliver(batch([{ image: url }], 'slack:C0001:U0001:1699999999.1'));
    expect(slack.calls[0]?.body).toEqual({
      channel: 'C0001',
      thread_ts: '1699999999.1',
      text: '',
      blocks: [{ type: 'image', image_url: url, alt_text: url }],
    });
  });

  it("sends a custom message as Rasa's raw Slack message, with the channel", async () => {
    const slack = inProcessSlack();
    const { output } = slackHarness({ deps: { fetch: slack.fetch } });
    const blocks = [{ type: 'divider' }];
    await output.deliver(batch([{ custom: { blocks, text: 'raw' } }]));
    expect(slack.calls.map((c) => c.body)).toEqual([{ channel: 'C0001', blocks, text: 'raw' }]);
  });

  it('queues a message Slack answers ok:false ratelimited for a later try', async () => {
    const slack = inProcessSlack(() => Response.json({ ok: false, error: 'ratelimited' }));
    const { output, queued, warnings } = slackHarness({ deps: { fetch: slack.fetch } });
    await output.deliver(batch([{ text: 'one' }, { text: 'two' }]));
    expect(slack.calls).toHaveLength(1);
    expect(warnings).toEqual([]);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      type: 'channel_work',
      channel: 'slack',
      work: { kind: 'send', attempt: 1 },
    });
  });

  it('gives up on a message Slack refuses for good (ok:false channel_not_found)', async () => {
    const slack = inProcessSlack(() => Response.json({ ok: false, error: 'channel_not_found' }));
    const { output, queued, warnings } = slackHarness({ deps: { fetch: slack.fetch } });
    await output.deliver(batch([{ text: 'one' }, { text: 'two' }]));
    expect(slack.calls.map((c) => c.body.text)).toEqual(['one', 'two']);
    expect(queued).toEqual([]);
    expect(warnings).toEqual([
      'a reply was refused by its platform; it is not sent again',
      'a reply was refused by its platform; it is not sent again',
    ]);
  });

  it('refuses for good a conversation that is not a Slack one, calling nothing', async () => {
    const slack = inProcessSlack();
    const { output, queued, warnings } = slackHarness({ deps: { fetch: slack.fetch } });
    await output.deliver(batch([{ text: 'hi' }], 'telegram:42'));
    expect(slack.calls).toEqual([]);
    expect(queued).toEqual([]);
    expect(warnings).toEqual(['a reply was refused by its platform; it is not sent again']);
  });
});
