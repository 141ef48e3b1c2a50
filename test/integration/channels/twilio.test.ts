import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardChannels } from '../../../src/channels/index.js';
import { TWILIO_PATH, twilioChannel } from '../../../src/channels/messaging/twilio.js';
import type { Logger } from '../../../src/resilience/index.js';
import type { ChannelFactory, Job } from '../../../src/runtime/index.js';
import { oneMessageBatch, recordingContext } from '../../helpers/channelContext.js';
import { type FakePlatform, startFakePlatform } from '../../helpers/fakePlatform.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { twilioSignature } from '../../helpers/platformSignatures.js';
import { GREETING_PROJECT } from '../../helpers/project.js';
import { runtimeSuite } from '../../helpers/runtime.js';

const TOKEN = 'twilio-auth-token';
const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const NUMBER = '+14155550100';
const HOST = 'sb.example.com';
const MESSAGES_PATH = `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`;
const BASIC = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;

const suite = runtimeSuite(GREETING_PROJECT);
let platform: FakePlatform;
beforeAll(async () => {
  platform = await startFakePlatform();
});
afterAll(() => platform.close());

function twilioDeps(warnings: string[] = []) {
  const logger: Logger = { ...SILENT_LOGGER, warn: (message) => warnings.push(message) };
  return {
    secrets: { get: async () => TOKEN },
    logger,
    backoff: { baseMs: 0 },
    apiRoots: { twilio: platform.url },
  };
}

function twilioChannels(warnings: string[] = []): ChannelFactory {
  const settings = {
    account_sid: ACCOUNT,
    auth_token: { secret: 'TWILIO' },
    twilio_number: NUMBER,
  };
  return (context) => [
    ...standardChannels(context),
    twilioChannel(context, settings, twilioDeps(warnings)),
  ];
}

/** Twilio's signature of a form posted to `url`, with the number's auth token. */
function sign(url: string, params: Record<string, string>): string {
  return twilioSignature(TOKEN, url, params);
}

/** An incoming SMS as Twilio posts it. */
function sms(from: string, body: string, messageSid: string): Record<string, string> {
  return {
    ToCountry: 'US',
    ToState: 'CA',
    SmsMessageSid: messageSid,
    NumMedia: '0',
    ToCity: 'SAN FRANCISCO',
    FromZip: '',
    SmsSid: messageSid,
    FromState: '',
    SmsStatus: 'received',
    FromCity: '',
    Body: body,
    FromCountry: 'DE',
    To: NUMBER,
    ToZip: '94105',
    NumSegments: '1',
    ReferralNumMedia: '0',
    MessageSid: messageSid,
    AccountSid: ACCOUNT,
    From: from,
    ApiVersion: '2010-04-01',
  };
}

const post = (
  params: Record<string, string>,
  signature = sign(`https://${HOST}${TWILIO_PATH}`, params),
) => ({
  method: 'POST',
  path: TWILIO_PATH,
  headers: {
    host: HOST,
    'x-forwarded-proto': 'https',
    'content-type': 'application/x-www-form-urlencoded',
    'x-twilio-signature': signature,
  },
  body: new URLSearchParams(params).toString(),
});

const sent = () => platform.requests.filter((r) => r.path === MESSAGES_PATH);

describe('the Twilio channel', () => {
  it('writes nothing for a forged request', async () => {
    const rt = await suite.runtime({ channels: twilioChannels() });
    const before = await rt.scanTable();
    const params = sms('+4915100000001', 'hi', 'SMforged');
    const answer = await rt.http.handle(post(params, 'forged+signature='));
    expect(answer.status).toBe(401);
    expect(await rt.queuedJobs('twilio:+4915100000001')).toEqual([]);
    expect(await rt.scanTable()).toBe(before);
  });

  it("answers 204 and sends the reply from the Twilio number to the user's", async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: twilioChannels() });
    rt.llm.reply('start flow greet');
    const answer = await rt.http.handle(post(sms('+4915100000002', 'hi', 'SMreply')));
    expect(answer).toEqual({ status: 204, body: undefined });
    await rt.drain(async () => sent().length >= 1);
    expect(sent().map((r) => r.body)).toEqual([
      { To: '+4915100000002', From: NUMBER, Body: 'Your name?' },
    ]);
    expect(sent()[0]?.headers.authorization).toBe(BASIC);
  });

  it('takes a delivery repeated with the same MessageSid once', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: twilioChannels() });
    rt.llm.reply('start flow greet');
    const request = post(sms('+4915100000003', 'hi', 'SMtwice'));
    await rt.http.handle(request);
    await rt.http.handle(request);
    await rt.drain(async () => sent().length >= 1);
    await rt.drain(async () => (await rt.queuedJobs('twilio:+4915100000003')).length === 0);
    expect(rt.llm.prompts).toHaveLength(1);
    expect(sent()).toHaveLength(1);
  });

  it('sends a reply Twilio failed to take again until it arrives', async () => {
    platform.requests.length = 0;
    const rt = await suite.runtime({ channels: twilioChannels() });
    rt.llm.reply('start flow greet');
    platform.failNext(2, { status: 500 });
    await rt.http.handle(post(sms('+4915100000004', 'hi', 'SMretry')));
    await rt.drain(async () => sent().length >= 3);
    expect(sent().map((r) => r.body)).toEqual(
      Array(3).fill({ To: '+4915100000004', From: NUMBER, Body: 'Your name?' }),
    );
  });

  it('logs a reply Twilio refuses with 400 and does not send it again', async () => {
    platform.requests.length = 0;
    const warnings: string[] = [];
    const rt = await suite.runtime({ channels: twilioChannels(warnings) });
    rt.llm.reply('start flow greet');
    platform.failNext(1, { status: 400, body: { code: 21211, message: 'Invalid To' } });
    await rt.http.handle(post(sms('+4915100000005', 'hi', 'SMrefused')));
    await rt.drain(async () => warnings.length > 0);
    expect(warnings).toEqual(['a reply was refused by its platform; it is not sent again']);
    // The next turn's replies go out; the refused one is not among them.
    rt.llm.reply('set slot name Ada');
    await rt.http.handle(post(sms('+4915100000005', 'Ada', 'SMrefused2')));
    await rt.drain(async () => sent().length >= 3);
    expect(sent().map((r) => (r.body as { Body: string }).Body)).toEqual([
      'Your name?',
      'Hello Ada!',
      'Can I help you with anything else?',
    ]);
  });
});

describe('the Twilio output', () => {
  const queued: Job[] = [];
  const context = recordingContext(queued);

  async function deliver(
    conversationId: string,
    message: Record<string, unknown>,
    twilioNumber = NUMBER,
  ) {
    platform.requests.length = 0;
    const warnings: string[] = [];
    const settings = {
      account_sid: ACCOUNT,
      auth_token: { secret: 'TWILIO' },
      twilio_number: twilioNumber,
    };
    const channel = twilioChannel(context, settings, twilioDeps(warnings));
    await channel.output?.deliver(oneMessageBatch('twilio', conversationId, message));
    expect(warnings).toEqual([]);
    expect(queued).toEqual([]);
    return platform.requests;
  }

  it('appends buttons to the text as numbered lines', async () => {
    const requests = await deliver(
      'twilio:whatsapp:+4915100000006',
      {
        text: 'When shall we call?',
        buttons: [
          { title: 'Morning', payload: '/choose{"time":"morning"}' },
          { title: 'Evening', payload: '/choose{"time":"evening"}' },
        ],
      },
      `whatsapp:${NUMBER}`,
    );
    expect(requests.map((r) => [r.method, r.path, r.headers.authorization, r.body])).toEqual([
      [
        'POST',
        MESSAGES_PATH,
        BASIC,
        {
          To: 'whatsapp:+4915100000006',
          From: `whatsapp:${NUMBER}`,
          Body: 'When shall we call?\n1. Morning\n2. Evening',
        },
      ],
    ]);
  });

  it('sends an image as MediaUrl, with its text or without', async () => {
    const image = 'https://example.org/cat.png';
    const withText = await deliver('twilio:+4915100000007', { text: 'A cat.', image });
    expect(withText.map((r) => r.body)).toEqual([
      { To: '+4915100000007', From: NUMBER, Body: 'A cat.', MediaUrl: image },
    ]);
    const alone = await deliver('twilio:+4915100000007', { image });
    expect(alone.map((r) => r.body)).toEqual([
      { To: '+4915100000007', From: NUMBER, MediaUrl: image },
    ]);
  });
});
