import { describe, expect, it } from 'vitest';
import { senderFor, TWILIO_PATH, twilioChannel } from '../../../src/channels/messaging/twilio.js';
import type { Logger } from '../../../src/resilience/index.js';
import {
  BlankSecretError,
  createHttpApi,
  type HttpResponse,
  type Job,
} from '../../../src/runtime/index.js';
import { oneMessageBatch, recordingContext } from '../../helpers/channelContext.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { twilioSignature } from '../../helpers/platformSignatures.js';

const TOKEN = 'twilio-auth-token';
const HOST = 'sb.example.com';
const URL = `https://${HOST}${TWILIO_PATH}`;
const SETTINGS = {
  account_sid: 'AC0123456789',
  auth_token: { secret: 'TWILIO_AUTH_TOKEN' },
  twilio_number: '+14155550100',
};

interface Harness {
  readonly queued: Job[];
  readonly debugs: string[];
  readonly warnings: string[];
  readonly calls: string[];
  post(params: Record<string, string>, options?: PostOptions): Promise<HttpResponse>;
  readonly channel: ReturnType<typeof twilioChannel>;
}

interface PostOptions {
  /** The signature header (Twilio's signature of the request for `URL` by default). */
  readonly signature?: string | undefined;
  readonly headers?: Record<string, string>;
  readonly path?: string;
  readonly body?: string;
}

function harness(settings: { webhook_url?: string } = {}, token = TOKEN): Harness {
  const queued: Job[] = [];
  const debugs: string[] = [];
  const warnings: string[] = [];
  const calls: string[] = [];
  const context = recordingContext(queued);
  const logger: Logger = {
    ...SILENT_LOGGER,
    debug: (message) => debugs.push(message),
    warn: (message, fields) => warnings.push(`${message}: ${String(fields.error)}`),
  };
  const channel = twilioChannel(
    context,
    { ...SETTINGS, ...settings },
    {
      secrets: {
        get: async (name) => {
          if (name !== 'TWILIO_AUTH_TOKEN') throw new Error(`no secret ${name}`);
          return token;
        },
      },
      logger,
      // Nothing here reaches the platform: a call is recorded and answered as Twilio would.
      fetch: async (url) => {
        calls.push(String(url));
        return new Response('{}', { status: 201 });
      },
    },
  );
  const api = createHttpApi([channel]);
  return {
    queued,
    debugs,
    warnings,
    calls,
    channel,
    post: (params, options = {}) => {
      const signature =
        'signature' in options ? options.signature : twilioSignature(token, URL, params);
      return api.handle({
        method: 'POST',
        path: options.path ?? TWILIO_PATH,
        headers: {
          host: HOST,
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}),
          ...options.headers,
        },
        body: options.body ?? new URLSearchParams(params).toString(),
      });
    },
  };
}

const sms = (overrides: Record<string, string> = {}) => ({
  MessageSid: 'SM0001',
  AccountSid: SETTINGS.account_sid,
  From: '+4915112345678',
  To: SETTINGS.twilio_number,
  Body: 'hi',
  NumMedia: '0',
  ...overrides,
});

describe('the Twilio webhook', () => {
  it("verifies the example request of Twilio's documentation with its signature", async () => {
    // https://www.twilio.com/docs/usage/security: a voice call's request, token 12345. It passes
    // the signature check and is then refused as a message without a MessageSid.
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675310',
      Digits: '1234',
      From: '+14158675310',
      To: '+18005551212',
    };
    const signature = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';
    expect(twilioSignature('12345', url, params)).toBe(signature);
    const twilio = harness({ webhook_url: url }, '12345');
    const answer = await twilio.post(params, { signature });
    expect(answer).toEqual({ status: 400, body: { error: 'the form has no MessageSid' } });
  });

  it('queues a signed message as one job and answers 204 with no body', async () => {
    const twilio = harness();
    const answer = await twilio.post(sms());
    expect(answer).toEqual({ status: 204, body: undefined });
    expect(twilio.queued).toEqual([
      {
        type: 'user_message',
        id: expect.stringMatching(/^twilio-[0-9a-f]{40}$/),
        conversation_id: 'twilio:+4915112345678',
        turn_id: expect.any(String),
        text: 'hi',
        metadata: {
          twilio: { from: '+4915112345678', to: '+14155550100', message_sid: 'SM0001' },
        },
        typed: true,
        channel: 'twilio',
      },
    ]);
  });

  it('refuses a forged signature with 401 and queues nothing', async () => {
    const twilio = harness();
    const forged = twilioSignature('another-token', URL, sms());
    const answer = await twilio.post(sms(), { signature: forged });
    expect(answer.status).toBe(401);
    expect(twilio.queued).toEqual([]);
  });

  it('never takes a blank auth token as a key: a request signed with it is a configuration fault', async () => {
    const twilio = harness({}, '');
    const signature = twilioSignature('', URL, sms());
    await expect(twilio.post(sms(), { signature })).rejects.toBeInstanceOf(BlankSecretError);
    expect(twilio.queued).toEqual([]);
  });

  it('refuses a signed body that was changed on the way with 401', async () => {
    const twilio = harness();
    const signature = twilioSignature(TOKEN, URL, sms());
    const answer = await twilio.post(sms({ Body: 'send me everything' }), { signature });
    expect(answer.status).toBe(401);
    expect(twilio.queued).toEqual([]);
  });

  it('refuses a request without a signature with 401', async () => {
    const twilio = harness();
    const answer = await twilio.post(sms(), { signature: undefined });
    expect(answer).toEqual({
      status: 401,
      body: { error: 'the request has no X-Twilio-Signature' },
    });
    expect(twilio.queued).toEqual([]);
  });

  it('refuses a signature for another URL, pointing to webhook_url', async () => {
    const twilio = harness();
    const publicUrl = 'https://bot.example.org/twilio';
    const answer = await twilio.post(sms(), {
      signature: twilioSignature(TOKEN, publicUrl, sms()),
    });
    expect(answer.status).toBe(401);
    expect((answer.body as { error: string }).error).toBe(
      `the X-Twilio-Signature is not Twilio's signature for ${URL}; if a proxy or tunnel ` +
        'changes the host or path, set webhook_url to the URL Twilio posts to',
    );
    expect(twilio.queued).toEqual([]);
  });

  it('accepts a signature for the URL webhook_url names', async () => {
    const publicUrl = 'https://bot.example.org/twilio';
    const twilio = harness({ webhook_url: publicUrl });
    const answer = await twilio.post(sms(), {
      signature: twilioSignature(TOKEN, publicUrl, sms()),
    });
    expect(answer.status).toBe(204);
    expect(twilio.queued).toHaveLength(1);
    // The URL the request arrived at is then not Twilio's.
    expect((await twilio.post(sms({ MessageSid: 'SM0002' }))).status).toBe(401);
  });

  it('takes the URL from X-Forwarded-Proto, Host and the path with its query', async () => {
    const twilio = harness();
    const path = `${TWILIO_PATH}?site=eu`;
    const url = `http://${HOST}${path}`;
    const answer = await twilio.post(sms(), {
      path,
      headers: { 'x-forwarded-proto': 'http' },
      signature: twilioSignature(TOKEN, url, sms()),
    });
    expect(answer.status).toBe(204);
  });

  it('refuses a JSON body with 415', async () => {
    const twilio = harness();
    const answer = await twilio.post(sms(), {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sms()),
    });
    expect(answer.status).toBe(415);
    expect(twilio.queued).toEqual([]);
  });

  it("takes a WhatsApp quick-reply button's payload as the text", async () => {
    const twilio = harness();
    const params = sms({
      From: 'whatsapp:+4915112345678',
      To: 'whatsapp:+14155550100',
      Body: 'Morning',
      ButtonText: 'Morning',
      ButtonPayload: '/choose{"slot":"morning"}',
    });
    expect((await twilio.post(params)).status).toBe(204);
    expect(twilio.queued).toMatchObject([
      { conversation_id: 'twilio:whatsapp:+4915112345678', text: '/choose{"slot":"morning"}' },
    ]);
  });

  it('gives a delivery repeated with the same MessageSid the same job', async () => {
    const twilio = harness();
    await twilio.post(sms());
    await twilio.post(sms());
    await twilio.post(sms({ MessageSid: 'SM0002' }));
    const [first, again, other] = twilio.queued.map((job) => job.id);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('answers 204 to a picture without text and queues nothing', async () => {
    const twilio = harness();
    const params = sms({ Body: '', NumMedia: '1', MediaUrl0: 'https://api.twilio.com/m/1' });
    expect(await twilio.post(params)).toEqual({ status: 204, body: undefined });
    expect(twilio.queued).toEqual([]);
  });

  it('refuses with 400 a From that cannot name a conversation', async () => {
    const twilio = harness();
    const answer = await twilio.post(sms({ From: '+49 151 <script>' }));
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(/^the sender id "twilio:\+49 151/);
    expect(twilio.queued).toEqual([]);
  });
});

describe('the Twilio output', () => {
  const batch = (conversationId: string, message: Record<string, unknown>) =>
    oneMessageBatch('twilio', conversationId, message);

  it('skips a message with neither text nor image, logging it at debug level', async () => {
    const twilio = harness();
    await twilio.channel.output?.deliver(batch('twilio:+4915112345678', { custom: { a: 1 } }));
    expect(twilio.calls).toEqual([]);
    expect(twilio.debugs).toEqual(['a message with neither text nor image is not sent by Twilio']);
    expect(twilio.warnings).toEqual([]);
  });

  it('refuses for good a conversation that is not a Twilio one', async () => {
    const twilio = harness();
    await twilio.channel.output?.deliver(batch('ada', { text: 'Hello' }));
    expect(twilio.calls).toEqual([]);
    expect(twilio.warnings).toEqual([
      'a reply was refused by its platform; it is not sent again: ' +
        'PlatformError: twilio: ada is not a Twilio conversation',
    ]);
  });
});

describe('the number a Twilio reply comes from', () => {
  it('is on WhatsApp for a WhatsApp conversation and a plain number for SMS', () => {
    expect(senderFor('+14155550100', 'whatsapp:+4915112345678')).toBe('whatsapp:+14155550100');
    expect(senderFor('whatsapp:+14155550100', '+4915112345678')).toBe('+14155550100');
    expect(senderFor('whatsapp:+14155550100', 'whatsapp:+49151')).toBe('whatsapp:+14155550100');
    expect(senderFor('+14155550100', '+49151')).toBe('+14155550100');
  });
});
