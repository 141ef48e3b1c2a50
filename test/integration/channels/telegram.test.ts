import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { standardChannels } from '../../../src/channels/index.js';
import { TELEGRAM_PATH, telegramChannel } from '../../../src/channels/messaging/telegram.js';
import type { ChannelFactory } from '../../../src/runtime/index.js';
import { type FakePlatform, startFakePlatform } from '../../helpers/fakePlatform.js';
import { GREETING_PROJECT, type ProjectFilesSpec } from '../../helpers/project.js';
import { runtimeSuite } from '../../helpers/runtime.js';

const TOKEN = '123456:AAtest-bot-token';
const SECRET = 'the-webhook-secret';
const SETTINGS = {
  access_token: { secret: 'TELEGRAM_TOKEN' },
  secret_token: { secret: 'TELEGRAM_SECRET' },
  verify: 'SwitchboardBot',
};
const SECRETS: Record<string, string> = { TELEGRAM_TOKEN: TOKEN, TELEGRAM_SECRET: SECRET };
const SEND_MESSAGE = `/bot${TOKEN}/sendMessage`;

/** The greeting project, and a flow that asks for a size with buttons. */
const PROJECT: ProjectFilesSpec = {
  ...GREETING_PROJECT,
  'domain.yml': `slots:
  counter:
    type: float
  name:
    type: text
  size:
    type: categorical
    values: [small, large]
responses:
  utter_ask_name:
    - text: Your name?
  utter_hello:
    - text: Hello {name}!
  utter_ask_size:
    - text: Which size?
      buttons:
        - title: Small
          payload: /SetSlots(size=small)
        - title: Large
          payload: /SetSlots(size=large)
  utter_size:
    - text: A {size} one.
`,
  'data/flows.yml': `flows:
  greet:
    description: Greets.
    steps:
      - collect: name
      - action: utter_hello
  order:
    description: Orders a drink of a size.
    steps:
      - collect: size
      - action: utter_size
`,
};

const suite = runtimeSuite(PROJECT);
let platform: FakePlatform;
beforeAll(async () => {
  platform = await startFakePlatform();
});
afterAll(() => platform.close());
beforeEach(() => {
  platform.requests.length = 0;
});

const channels: ChannelFactory = (context) => [
  ...standardChannels(context),
  telegramChannel(context, SETTINGS, {
    secrets: { get: async (name) => SECRETS[name] ?? '' },
    apiRoots: { telegram: platform.url },
    backoff: { baseMs: 0 },
  }),
];

/** Telegram's POST of an update to the webhook. */
const post = (update: unknown, secret = SECRET) => ({
  method: 'POST',
  path: TELEGRAM_PATH,
  headers: {
    'content-type': 'application/json',
    'x-telegram-bot-api-secret-token': secret,
  },
  body: JSON.stringify(update),
});

/** A text message from Ada in her private chat with the bot, as Telegram sends it. */
function textUpdate(updateId: number, chatId: number, text: string) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId - 100,
      from: { id: chatId, is_bot: false, first_name: 'Ada', language_code: 'en' },
      chat: { id: chatId, first_name: 'Ada', type: 'private' },
      date: 1_700_000_000,
      text,
    },
  };
}

const sent = () => platform.requests.filter((r) => r.path === SEND_MESSAGE).map((r) => r.body);

describe('the telegram channel', () => {
  it('sends the reply to the chat the message came from', async () => {
    const rt = await suite.runtime({ channels });
    rt.llm.reply('start flow greet');
    const answer = await rt.http.handle(post(textUpdate(501, 4201, 'hi')));
    expect(answer).toEqual({ status: 200, body: {} });
    await rt.drain(async () => sent().length >= 1);
    expect(sent()).toEqual([{ chat_id: 4201, text: 'Your name?' }]);
  });

  it('takes an update Telegram delivers twice once', async () => {
    const rt = await suite.runtime({ channels });
    rt.llm.reply('start flow greet');
    const update = textUpdate(502, 4202, 'hi');
    await rt.http.handle(post(update));
    await rt.http.handle(post(update));
    await rt.drain(async () => sent().length >= 1);
    await rt.drain(async () => (await rt.queuedJobs('telegram:4202')).length === 0);
    expect(sent()).toHaveLength(1);
    expect(rt.llm.prompts).toHaveLength(1);
  });

  it('sends a reply again after Telegram fails, until it arrives', async () => {
    const rt = await suite.runtime({ channels });
    rt.llm.reply('start flow greet');
    platform.failNext(2, { status: 502, body: { ok: false, error_code: 502 } });
    await rt.http.handle(post(textUpdate(503, 4203, 'hi')));
    await rt.drain(async () => sent().length >= 3);
    expect(sent()).toEqual(Array(3).fill({ chat_id: 4203, text: 'Your name?' }));
  });

  it('writes nothing for an update with a wrong secret token', async () => {
    const rt = await suite.runtime({ channels });
    const before = await rt.scanTable();
    const answer = await rt.http.handle(post(textUpdate(504, 4204, 'hi'), 'a-guess'));
    expect(answer).toEqual({
      status: 401,
      body: { error: 'wrong X-Telegram-Bot-Api-Secret-Token header' },
    });
    expect(await rt.queuedJobs('telegram:4204')).toEqual([]);
    expect(await rt.scanTable()).toBe(before);
    expect(platform.requests).toEqual([]);
  });

  it('shows buttons as an inline keyboard and takes a press as the user’s answer', async () => {
    const rt = await suite.runtime({ channels });
    rt.llm.reply('start flow order');
    await rt.http.handle(post(textUpdate(505, 4205, 'a drink please')));
    await rt.drain(async () => sent().length >= 1);
    expect(sent()).toEqual([
      {
        chat_id: 4205,
        text: 'Which size?',
        reply_markup: {
          inline_keyboard: [
            [{ text: 'Small', callback_data: '/SetSlots(size=small)' }],
            [{ text: 'Large', callback_data: '/SetSlots(size=large)' }],
          ],
        },
      },
    ]);

    const press = {
      update_id: 506,
      callback_query: {
        id: '4382bfdwdsb323b2d9',
        from: { id: 4205, is_bot: false, first_name: 'Ada' },
        message: {
          message_id: 77,
          from: { id: 1, is_bot: true, first_name: 'Switchboard', username: 'SwitchboardBot' },
          chat: { id: 4205, first_name: 'Ada', type: 'private' },
          date: 1_700_000_010,
          text: 'Which size?',
        },
        chat_instance: '-1234',
        data: '/SetSlots(size=large)',
      },
    };
    expect(await rt.http.handle(post(press))).toEqual({ status: 200, body: {} });
    const answered = platform.requests.find((r) => r.path === `/bot${TOKEN}/answerCallbackQuery`);
    expect(answered?.body).toEqual({ callback_query_id: '4382bfdwdsb323b2d9' });
    await rt.drain(async () => sent().length >= 2);
    expect(sent()[1]).toEqual({ chat_id: 4205, text: 'A large one.' });
    // The press was a payload: the model was asked about the first message only.
    expect(rt.llm.prompts).toHaveLength(1);
  });
});
