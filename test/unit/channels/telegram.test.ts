import { describe, expect, it } from 'vitest';
import {
  TELEGRAM_CHANNEL,
  TELEGRAM_PATH,
  telegramChannel,
} from '../../../src/channels/messaging/telegram.js';
import type { BotMessage } from '../../../src/dialogue/index.js';
import type { Logger } from '../../../src/resilience/index.js';
import {
  BlankSecretError,
  type Channel,
  HttpError,
  type Job,
  type ReplyBatch,
} from '../../../src/runtime/index.js';
import { recordingContext } from '../../helpers/channelContext.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';

const TOKEN = '123456:AAbot-token-value';
const SECRET = 'the-secret-token';
const API = 'https://telegram.test';
const SECRETS: Record<string, string> = { TELEGRAM_TOKEN: TOKEN, TELEGRAM_SECRET: SECRET };
const SETTINGS = {
  access_token: { secret: 'TELEGRAM_TOKEN' },
  secret_token: { secret: 'TELEGRAM_SECRET' },
  verify: 'MyBot',
};
const NOW = 1_000;

interface BotApiRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** Telegram's Bot API in process: records each call and answers `ok` unless told to fail. */
function fakeBotApi() {
  const requests: BotApiRequest[] = [];
  const failures: Response[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    requests.push({ path: url.pathname, body: JSON.parse(String(init?.body)) });
    return failures.shift() ?? Response.json({ ok: true, result: {} });
  };
  return {
    requests,
    fetch: fetchImpl as typeof fetch,
    /** The next calls answer with these, in order. */
    failNext: (...answers: Response[]) => void failures.push(...answers),
  };
}

interface Harness {
  readonly channel: Channel;
  readonly queued: Job[];
  readonly api: ReturnType<typeof fakeBotApi>;
  readonly logs: string[];
}

/** The channel over a queue that records what is queued and the fake Bot API. */
function harness(
  settings: Parameters<typeof telegramChannel>[1] = SETTINGS,
  secrets: Record<string, string> = SECRETS,
): Harness {
  const queued: Job[] = [];
  const logs: string[] = [];
  const api = fakeBotApi();
  const context = recordingContext(queued, { now: NOW, newId: () => 'unused' });
  const record =
    (level: string): Logger['debug'] =>
    (message, fields) =>
      logs.push(`${level} ${message} ${JSON.stringify(fields)}`);
  const channel = telegramChannel(context, settings, {
    secrets: {
      get: async (name) => secrets[name] ?? Promise.reject(new Error(`no secret ${name}`)),
    },
    logger: { ...SILENT_LOGGER, debug: record('debug'), warn: record('warn') },
    fetch: api.fetch,
    apiRoots: { telegram: API },
    backoff: { baseMs: 0 },
  });
  return { channel, queued, api, logs };
}

/** What the route answers, with an `HttpError` as the HTTP API answers it. */
async function handle(
  h: Harness,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body?: unknown; error?: string }> {
  const route = h.channel.routes[0];
  if (!route) throw new Error('the channel has no route');
  try {
    return await route.handle({ method: 'POST', path: TELEGRAM_PATH, headers, params: {}, body });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, error: error.message };
  }
}

/** Posts an update as JSON with the secret token, or with `headers` instead of the token. */
function post(
  h: Harness,
  update: unknown,
  headers: Record<string, string> = { 'X-Telegram-Bot-Api-Secret-Token': SECRET },
) {
  return handle(h, { 'content-type': 'application/json', ...headers }, JSON.stringify(update));
}

/** A text message in a private chat, as Telegram sends it. */
function textUpdate(text: string, updateId = 1001, chatId = 42) {
  return {
    update_id: updateId,
    message: {
      message_id: 5,
      from: { id: 7, is_bot: false, first_name: 'Ada' },
      chat: { id: chatId, type: 'private', first_name: 'Ada' },
      date: 1_700_000_000,
      text,
    },
  };
}

/** A press of an inline-keyboard button under message 9 of chat 42. */
function buttonPress(data: string) {
  return {
    update_id: 1002,
    callback_query: {
      id: 'press-1',
      from: { id: 7, is_bot: false, first_name: 'Ada' },
      message: { message_id: 9, chat: { id: 42, type: 'private' }, date: 1_700_000_000 },
      chat_instance: '-5',
      data,
    },
  };
}

describe('the telegram webhook', () => {
  it('queues a message with the secret token as a job of the chat’s conversation', async () => {
    const h = harness();
    expect(await post(h, textUpdate('hi'))).toEqual({ status: 200, body: {} });
    expect(h.queued).toEqual([
      {
        type: 'user_message',
        id: expect.stringMatching(/^telegram-[0-9a-f]{40}$/),
        conversation_id: 'telegram:42',
        turn_id: h.queued[0]?.id,
        text: 'hi',
        metadata: { telegram: { chat_id: 42, from_id: 7, message_id: 5 } },
        typed: true,
        channel: TELEGRAM_CHANNEL,
      },
    ]);
  });

  it('refuses a wrong or missing secret token with 401 and queues nothing', async () => {
    const h = harness();
    const wrong = { 'X-Telegram-Bot-Api-Secret-Token': 'not-the-secret' };
    expect(await post(h, textUpdate('hi'), wrong)).toEqual({
      status: 401,
      error: 'wrong X-Telegram-Bot-Api-Secret-Token header',
    });
    expect(await post(h, textUpdate('hi'), {})).toEqual({
      status: 401,
      error: 'missing X-Telegram-Bot-Api-Secret-Token header',
    });
    expect(
      await post(h, textUpdate('hi'), { 'x-telegram-bot-api-secret-token': '' }),
    ).toMatchObject({ status: 401 });
    expect(h.queued).toEqual([]);
  });

  it('refuses every update when no secret token is configured, or it is blank', async () => {
    const { secret_token: _none, ...withoutSecret } = SETTINGS;
    const unset = harness(withoutSecret);
    expect(await post(unset, textUpdate('hi'))).toMatchObject({ status: 401 });
    // A blank secret is a configuration fault (503 on AWS), never a token anyone could send.
    const empty = harness(SETTINGS, { ...SECRETS, TELEGRAM_SECRET: '' });
    const blank = { 'x-telegram-bot-api-secret-token': '' };
    await expect(post(empty, textUpdate('hi'), blank)).rejects.toBeInstanceOf(BlankSecretError);
    expect([...unset.queued, ...empty.queued]).toEqual([]);
  });

  it('checks the secret token before the body', async () => {
    const h = harness();
    expect(await handle(h, { 'content-type': 'text/plain' }, 'not json')).toMatchObject({
      status: 401,
    });
    const verified = { 'x-telegram-bot-api-secret-token': SECRET, 'content-type': 'text/plain' };
    expect(await handle(h, verified, 'not json')).toMatchObject({ status: 415 });
  });

  it('refuses a body that is not an update with 400', async () => {
    const h = harness();
    expect(await post(h, { message: { text: 'hi' } })).toMatchObject({ status: 400 });
    expect(h.queued).toEqual([]);
  });

  it('takes a pressed button’s data as the text and answers the press', async () => {
    const h = harness();
    expect(await post(h, buttonPress('/SetSlots(size=large)'))).toEqual({ status: 200, body: {} });
    expect(h.queued).toMatchObject([
      {
        conversation_id: 'telegram:42',
        text: '/SetSlots(size=large)',
        metadata: { telegram: { chat_id: 42, from_id: 7, message_id: 9 } },
      },
    ]);
    expect(h.api.requests).toEqual([
      { path: `/bot${TOKEN}/answerCallbackQuery`, body: { callback_query_id: 'press-1' } },
    ]);
  });

  it('queues a button press that Telegram refuses to have answered, and logs it at debug', async () => {
    const h = harness();
    h.api.failNext(Response.json({ ok: false, error_code: 400 }, { status: 400 }));
    expect(await post(h, buttonPress('yes'))).toEqual({ status: 200, body: {} });
    expect(h.queued).toHaveLength(1);
    expect(h.logs).toEqual([
      expect.stringMatching(/^debug telegram did not take the answer to a button press .*400/),
    ]);
    expect(h.logs.join()).not.toContain(TOKEN);
  });

  it('acknowledges edits, channel posts and messages without text, queueing nothing', async () => {
    const h = harness();
    const { message } = textUpdate('hi');
    const { text: _text, ...photo } = message;
    for (const update of [
      { update_id: 1, edited_message: message },
      { update_id: 2, channel_post: { ...message, chat: { id: -100, type: 'channel' } } },
      { update_id: 3, message: { ...photo, photo: [{ file_id: 'f' }] } },
    ]) {
      expect(await post(h, update)).toEqual({ status: 200, body: {} });
    }
    expect(h.queued).toEqual([]);
  });

  it('strips the bot’s own mention, in any letter case, and only its own', async () => {
    const h = harness();
    await post(h, textUpdate('/start@MyBot', 1));
    await post(h, textUpdate('@mybot what can you do?', 2));
    await post(h, textUpdate('ask @MyBotFriend', 3));
    await post(h, textUpdate('@MyBot', 4));
    expect(h.queued.map((job) => job.type === 'user_message' && job.text)).toEqual([
      '/start',
      'what can you do?',
      'ask @MyBotFriend',
    ]);
  });

  it('gives the same update delivered twice the same job id', async () => {
    const h = harness();
    await post(h, textUpdate('hi', 77));
    await post(h, textUpdate('hi', 77));
    await post(h, textUpdate('hi', 78));
    const [first, again, next] = h.queued.map((job) => job.id);
    expect(again).toBe(first);
    expect(next).not.toBe(first);
  });

  it('takes group chats, whose ids are negative, as one conversation', async () => {
    const h = harness();
    await post(h, textUpdate('hi', 1, -1001234567890));
    expect(h.queued[0]?.conversation_id).toBe('telegram:-1001234567890');
  });
});

describe('the telegram output', () => {
  const deliver = (h: Harness, message: BotMessage, conversationId = 'telegram:42') =>
    h.channel.output?.deliver({
      conversationId,
      turnId: 't1',
      jobId: 'j1',
      version: 1,
      channel: TELEGRAM_CHANNEL,
      messages: [{ id: 'j1#0', recipient_id: conversationId, message }],
      settled: true,
    } satisfies ReplyBatch);

  it('sends a text with buttons as an inline keyboard, one button per row', async () => {
    const h = harness();
    await deliver(h, {
      text: 'Which size?',
      buttons: [
        { title: 'Small', payload: '/SetSlots(size=small)' },
        { title: 'Large', payload: '/SetSlots(size=large)' },
      ],
    });
    expect(h.api.requests).toEqual([
      {
        path: `/bot${TOKEN}/sendMessage`,
        body: {
          chat_id: 42,
          text: 'Which size?',
          reply_markup: {
            inline_keyboard: [
              [{ text: 'Small', callback_data: '/SetSlots(size=small)' }],
              [{ text: 'Large', callback_data: '/SetSlots(size=large)' }],
            ],
          },
        },
      },
    ]);
  });

  it('sends a button’s title as its data when its payload is over 64 bytes', async () => {
    const h = harness();
    const sixtyFourBytes = 'é'.repeat(32);
    await deliver(h, {
      text: 'Pick',
      buttons: [
        { title: 'Fits', payload: sixtyFourBytes },
        // 33 characters, 66 bytes: bytes count, not characters.
        { title: 'Too long', payload: `${sixtyFourBytes}é` },
        { title: 'ü'.repeat(40), payload: 'x'.repeat(65) },
      ],
    });
    const data = (callbackData: string) => [
      { text: expect.any(String), callback_data: callbackData },
    ];
    expect(h.api.requests[0]?.body.reply_markup).toEqual({
      inline_keyboard: [data(sixtyFourBytes), data('Too long'), data('ü'.repeat(32))],
    });
  });

  it('sends an image with its text as the caption, and a text too long for one after it', async () => {
    const h = harness();
    await deliver(h, { text: 'A cat', image: 'https://example.com/cat.png' });
    const long = 'x'.repeat(1025);
    await deliver(h, { text: long, image: 'https://example.com/dog.png' });
    expect(h.api.requests).toEqual([
      {
        path: `/bot${TOKEN}/sendPhoto`,
        body: { chat_id: 42, photo: 'https://example.com/cat.png', caption: 'A cat' },
      },
      {
        path: `/bot${TOKEN}/sendPhoto`,
        body: { chat_id: 42, photo: 'https://example.com/dog.png' },
      },
      { path: `/bot${TOKEN}/sendMessage`, body: { chat_id: 42, text: long } },
    ]);
  });

  it('sends a custom object as a sendMessage body in the conversation’s chat', async () => {
    const h = harness();
    await deliver(h, { custom: { text: '*bold*', parse_mode: 'MarkdownV2', chat_id: 99 } });
    await deliver(h, { text: 'plain', custom: null });
    expect(h.api.requests.map((r) => r.body)).toEqual([
      { text: '*bold*', parse_mode: 'MarkdownV2', chat_id: 42 },
      { chat_id: 42, text: 'plain' },
    ]);
  });

  it('sends again after the wait a 429’s retry_after asks for', async () => {
    const h = harness();
    h.api.failNext(
      Response.json(
        {
          ok: false,
          error_code: 429,
          description: 'Too Many Requests: retry after 5',
          parameters: { retry_after: 5 },
        },
        { status: 429 },
      ),
    );
    await deliver(h, { text: 'hi' });
    expect(h.api.requests).toHaveLength(1);
    expect(h.queued).toMatchObject([
      {
        type: 'channel_work',
        channel: TELEGRAM_CHANNEL,
        conversation_id: 'telegram:42',
        not_before: NOW + 5_000,
      },
    ]);
  });

  it('refuses for good a conversation that is not a Telegram chat', async () => {
    const h = harness();
    await deliver(h, { text: 'hi' }, 'slack:C123');
    expect(h.api.requests).toEqual([]);
    expect(h.queued).toEqual([]);
    expect(h.logs).toEqual([expect.stringContaining('not a Telegram chat')]);
  });

  it('keeps the bot’s token out of what a failure logs', async () => {
    const h = harness();
    // A refusal that echoes the path, token included.
    h.api.failNext(
      Response.json(
        { ok: false, description: `no method /bot${TOKEN}/sendMessage` },
        { status: 404 },
      ),
    );
    await deliver(h, { text: 'hi' });
    expect(h.logs).toEqual([
      expect.stringMatching(/^warn a reply was refused by its platform.*\[redacted\]/),
    ]);
    expect(h.logs.join()).not.toContain(TOKEN);
  });

  it('refuses buttons with neither a text nor an image, calling nothing', async () => {
    const h = harness();
    await deliver(h, { buttons: [{ title: 'Yes', payload: '/affirm' }] });
    expect(h.api.requests).toEqual([]);
    expect(h.logs).toEqual([expect.stringContaining('buttons only under a text or an image')]);
  });
});
