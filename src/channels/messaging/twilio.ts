/**
 * Twilio's Messaging webhook, for SMS and WhatsApp numbers alike. Twilio posts each incoming
 * message form-encoded and signs it (`X-Twilio-Signature`); the route checks the signature,
 * queues the message and answers 204 with no body, so that Twilio sends nothing itself. Each bot
 * message then goes out through the Messages API, to the number the user wrote from.
 *
 * SMS has no buttons (nor has WhatsApp outside its templates): a message's buttons are appended
 * to its text as numbered lines, and the user answers in their own words ("2", "Evening"), which
 * reach the assistant as text, never as a button's payload. A WhatsApp template's quick-reply
 * button does come back with its payload (`ButtonPayload`), which is then the message's text.
 */
import { createHmac } from 'node:crypto';
import type { TwilioChannelSettings } from '../../assistant/index.js';
import type { BotMessage } from '../../dialogue/index.js';
import {
  type Channel,
  type ChannelContext,
  HttpError,
  headerOf,
  type RouteRequest,
  requireContentType,
  sameSecret,
  senderIdProblem,
} from '../../runtime/index.js';
import { apiRoot, checkingSecret, type MessagingDeps, outputDeps } from './deps.js';
import { conversationOf, type InboundMessage, inboundJob, platformIdOf } from './inbound.js';
import { callPlatform, messagingOutput, PlatformError, splitText } from './outbound.js';

export const TWILIO_CHANNEL = 'twilio';
export const TWILIO_PATH = '/webhooks/twilio/webhook';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The Twilio channel: `POST /webhooks/twilio/webhook` takes the messages Twilio posts (refused
 * with 401 unless signed with the account's auth token), and replies are sent from
 * `twilio_number` to the conversation's number (`+49…` or `whatsapp:+49…`).
 */
export function twilioChannel(
  context: ChannelContext,
  settings: TwilioChannelSettings,
  deps: MessagingDeps,
): Channel {
  const authToken = () => deps.secrets.get(settings.auth_token.secret);
  return {
    name: TWILIO_CHANNEL,
    streams: false,
    routes: [
      {
        method: 'POST',
        path: TWILIO_PATH,
        // Twilio cannot send our API token; its signature proves the request instead.
        authenticated: false,
        handle: async (request) => {
          requireContentType(headerOf(request, 'content-type'), [FORM], 'form-encoded');
          const form = new URLSearchParams(request.body ?? '');
          const key = await checkingSecret(deps.secrets, settings.auth_token.secret);
          verifySignature(request, form, key, settings.webhook_url);
          const message = inboundMessage(form);
          if (message) await context.queue.enqueue([inboundJob(TWILIO_CHANNEL, message)]);
          return { status: 204, body: undefined };
        },
      },
    ],
    output: messagingOutput({
      ...outputDeps(context, deps),
      channel: TWILIO_CHANNEL,
      send: async (conversationId, message, signal) => {
        const to = addressOf(conversationId);
        const forms = replyForms(senderFor(settings.twilio_number, to), to, message.message);
        if (forms.length === 0) {
          deps.logger?.debug('a message with neither text nor image is not sent by Twilio', {
            channel: TWILIO_CHANNEL,
            conversationId,
            messageId: message.id,
          });
          return;
        }
        for (const form of forms) {
          await postMessage(settings, await authToken(), form, signal, deps);
        }
      },
    }),
  };
}

/**
 * Refuses with 401 a request whose `X-Twilio-Signature` is missing or is not Twilio's signature
 * of it: base64 HMAC-SHA1, keyed with the auth token, of the URL Twilio posted to followed by
 * each form parameter's name and value, sorted by name (then by value, for a repeated name).
 * See https://www.twilio.com/docs/usage/security#validating-requests.
 */
function verifySignature(
  request: RouteRequest,
  form: URLSearchParams,
  authToken: string,
  webhookUrl: string | undefined,
): void {
  const given = headerOf(request, 'x-twilio-signature');
  if (given === undefined || given === '') {
    throw new HttpError(401, 'the request has no X-Twilio-Signature');
  }
  const url = webhookUrl ?? arrivalUrl(request);
  if (sameSecret(given, twilioSignature(authToken, url, form))) return;
  const hint =
    webhookUrl === undefined
      ? '; if a proxy or tunnel changes the host or path, set webhook_url to the URL Twilio posts to'
      : ' (webhook_url)';
  throw new HttpError(401, `the X-Twilio-Signature is not Twilio's signature for ${url}${hint}`);
}

/**
 * The URL a request arrived at, as its headers tell it: the scheme of `X-Forwarded-Proto` (its
 * first entry; `https` without one), the `Host`, then the path with its query.
 */
function arrivalUrl(request: RouteRequest): string {
  const proto = headerOf(request, 'x-forwarded-proto')?.split(',')[0]?.trim() || 'https';
  return `${proto}://${headerOf(request, 'host') ?? ''}${request.path}`;
}

function twilioSignature(authToken: string, url: string, form: URLSearchParams): string {
  const pairs = [...form].sort(([a, x], [b, y]) => byCodeUnits(a, b) || byCodeUnits(x, y));
  const data = url + pairs.map(([name, value]) => name + value).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

// Twilio sorts names case-sensitively, as bytes; `localeCompare` would not.
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The message of a verified form, or undefined when it has no text (a picture or a location on
 * its own). Refused with 400 without a `MessageSid` or a `From` that names a conversation.
 */
function inboundMessage(form: URLSearchParams): InboundMessage | undefined {
  const messageSid = requiredParam(form, 'MessageSid');
  const from = requiredParam(form, 'From');
  const conversationId = conversationOf(TWILIO_CHANNEL, from);
  const problem = senderIdProblem(conversationId);
  if (problem !== undefined) {
    throw new HttpError(400, `the sender id ${JSON.stringify(conversationId)} ${problem}`);
  }
  const payload = form.get('ButtonPayload') ?? '';
  const text = payload !== '' ? payload : (form.get('Body') ?? '');
  if (text.trim() === '') return undefined;
  const to = form.get('To');
  return {
    eventId: messageSid,
    conversationId,
    text,
    // A WhatsApp quick reply's payload is a payload; a message is what the user typed.
    typed: payload === '',
    metadata: {
      twilio: { from, ...(to !== null ? { to } : {}), message_sid: messageSid },
    },
  };
}

function requiredParam(form: URLSearchParams, name: string): string {
  const value = form.get(name) ?? '';
  if (value === '') throw new HttpError(400, `the form has no ${name}`);
  return value;
}

/** The number of a Twilio conversation (`+49…`, `whatsapp:+49…`); a refusal for another's. */
function addressOf(conversationId: string): string {
  const address = platformIdOf(TWILIO_CHANNEL, conversationId);
  if (address === undefined || address === '') {
    throw new PlatformError(`twilio: ${conversationId} is not a Twilio conversation`, {
      transient: false,
    });
  }
  return address;
}

/** The Messages API's form of a bot message, or undefined when it has nothing SMS can show. */
/**
 * The Messages API requests of a bot message: none for a message without text or image; a body
 * over Twilio's 1,600 characters in parts, the image with the first.
 */
function replyForms(from: string, to: string, message: BotMessage): URLSearchParams[] {
  const body = textWithButtons(message);
  if (body === '' && message.image === undefined) return [];
  return splitText(body, BODY_CHARS).map((part, i) => {
    const form = new URLSearchParams({ To: to, From: from });
    if (part !== '') form.set('Body', part);
    if (i === 0 && message.image !== undefined) form.set('MediaUrl', message.image);
    return form;
  });
}

/** Twilio's limit on a message's body. */
const BODY_CHARS = 1_600;

/** The text, then one line per button (`1. Morning`). */
function textWithButtons(message: BotMessage): string {
  const lines = (message.buttons ?? []).map((button, i) => `${i + 1}. ${button.title}`);
  return [message.text ?? '', ...lines].filter((line) => line !== '').join('\n');
}

async function postMessage(
  settings: TwilioChannelSettings,
  authToken: string,
  form: URLSearchParams,
  signal: AbortSignal,
  deps: MessagingDeps,
): Promise<void> {
  const account = encodeURIComponent(settings.account_sid);
  const credentials = Buffer.from(`${settings.account_sid}:${authToken}`).toString('base64');
  await callPlatform(
    {
      what: 'twilio Messages.json',
      url: `${apiRoot(deps, 'twilio')}/2010-04-01/Accounts/${account}/Messages.json`,
      headers: { 'content-type': FORM, authorization: `Basic ${credentials}` },
      body: form.toString(),
    },
    signal,
    deps.fetch,
  );
}

const WHATSAPP = 'whatsapp:';

/**
 * The number a reply comes from: `twilio_number`, as a WhatsApp sender when the conversation is
 * on WhatsApp and as a plain number when it is by SMS (Twilio refuses a reply whose From and To
 * are not on the same one). One number can serve both.
 */
export function senderFor(number: string, to: string): string {
  const plain = number.startsWith(WHATSAPP) ? number.slice(WHATSAPP.length) : number;
  return to.startsWith(WHATSAPP) ? `${WHATSAPP}${plain}` : plain;
}
