/**
 * Telegram's Bot API channel. Telegram posts each Update to the webhook with the `secret_token`
 * given to `setWebhook` in the `X-Telegram-Bot-Api-Secret-Token` header; a request without it is
 * refused before its body is looked at. A message's text, or the data of a pressed inline-keyboard
 * button, becomes a job of the chat's conversation (`telegram:<chat id>`); every other update is
 * acknowledged and dropped. Replies go out with `sendMessage` and `sendPhoto`, buttons as an
 * inline keyboard with one button per row.
 */
import * as z from 'zod/mini';
import type { TelegramChannelSettings } from '../../assistant/index.js';
import { describeError, redact } from '../../resilience/index.js';
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
import { callPlatform, messagingOutput, PlatformError } from './outbound.js';
import { type BotApiCall, botApiCalls } from './telegramMessages.js';

export const TELEGRAM_CHANNEL = 'telegram';
export const TELEGRAM_PATH = '/webhooks/telegram/webhook';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
/** How long the webhook waits for Telegram to take the answer to a button press. */
const BUTTON_ANSWER_TIMEOUT_MS = 2_000;

const TelegramMessage = z.lazy(() =>
  z.object({
    message_id: z.number(),
    from: z.optional(z.object({ id: z.number() })),
    chat: z.object({ id: z.number() }),
    text: z.optional(z.string()),
  }),
);
type TelegramMessage = z.infer<typeof TelegramMessage>;

/** The parts of an Update (https://core.telegram.org/bots/api#update) the channel reads. */
const TelegramUpdate = z.lazy(() =>
  z.object({
    update_id: z.number(),
    message: z.optional(TelegramMessage),
    callback_query: z.optional(
      z.object({
        id: z.string(),
        from: z.object({ id: z.number() }),
        message: z.optional(TelegramMessage),
        data: z.optional(z.string()),
      }),
    ),
  }),
);
type TelegramUpdate = z.infer<typeof TelegramUpdate>;

/**
 * The Telegram channel: `POST /webhooks/telegram/webhook` takes Telegram's updates, and its
 * output sends the bot's messages to the conversation's chat.
 */
export function telegramChannel(
  context: ChannelContext,
  settings: TelegramChannelSettings,
  deps: MessagingDeps,
): Channel {
  return {
    name: TELEGRAM_CHANNEL,
    streams: false,
    routes: [
      {
        method: 'POST',
        path: TELEGRAM_PATH,
        // Telegram cannot send the API token: the secret token proves who is calling.
        authenticated: false,
        handle: async (request) => {
          await verify(request, settings, deps);
          requireContentType(headerOf(request, 'content-type'));
          const update = parseUpdate(request.body);
          const message = inboundOf(update, settings.verify);
          if (message) await context.queue.enqueue([inboundJob(TELEGRAM_CHANNEL, message)]);
          if (update.callback_query) {
            await answerButtonPress(update.callback_query.id, settings, deps);
          }
          return { status: 200, body: {} };
        },
      },
    ],
    output: messagingOutput({
      ...outputDeps(context, deps),
      channel: TELEGRAM_CHANNEL,
      send: async (conversationId, message, signal) => {
        const calls = botApiCalls(chatIdOf(conversationId), message.message);
        if (calls.length === 0) return;
        const token = await deps.secrets.get(settings.access_token.secret);
        for (const call of calls) await callBotApi(deps, token, call, signal);
      },
    }),
  };
}

/**
 * Refuses with 401 a request whose secret token header is missing or wrong, and every request
 * when no secret token is configured (or it resolves to an empty value).
 */
async function verify(
  request: RouteRequest,
  settings: TelegramChannelSettings,
  deps: MessagingDeps,
): Promise<void> {
  if (!settings.secret_token) {
    throw new HttpError(401, 'the telegram channel has no secret_token, so it takes no updates');
  }
  const given = headerOf(request, SECRET_HEADER);
  if (given === undefined) {
    throw new HttpError(401, 'missing X-Telegram-Bot-Api-Secret-Token header');
  }
  const expected = await checkingSecret(deps.secrets, settings.secret_token.secret);
  if (!sameSecret(given, expected)) {
    throw new HttpError(401, 'wrong X-Telegram-Bot-Api-Secret-Token header');
  }
}

/** The update in a request body; refuses with 400 a body that is not one. */
function parseUpdate(body: string | undefined): TelegramUpdate {
  if (body === undefined || body.length === 0) throw new HttpError(400, 'the body is empty');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
  const parsed = TelegramUpdate.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new HttpError(400, `not a Telegram update: ${where}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/**
 * What the user said in an update, or undefined for an update that says nothing to the
 * assistant (an edit, a channel post, a photo, a text that was only the bot's mention).
 */
function inboundOf(
  update: TelegramUpdate,
  botName: string | undefined,
): InboundMessage | undefined {
  const said = saidIn(update);
  if (!said) return undefined;
  const text = botName === undefined ? said.text : withoutMention(said.text, botName);
  if (text === '') return undefined;
  const conversationId = conversationOf(TELEGRAM_CHANNEL, String(said.message.chat.id));
  const problem = senderIdProblem(conversationId);
  if (problem !== undefined) throw new HttpError(400, `the chat's conversation id ${problem}`);
  return {
    eventId: String(update.update_id),
    conversationId,
    text,
    // A pressed button's data is a payload; a message is what the user typed.
    typed: update.callback_query === undefined,
    metadata: {
      telegram: {
        chat_id: said.message.chat.id,
        ...(said.fromId !== undefined ? { from_id: said.fromId } : {}),
        message_id: said.message.message_id,
      },
    },
  };
}

/** A message's text, or a pressed button's data with the message that carried the button. */
function saidIn(
  update: TelegramUpdate,
): { text: string; message: TelegramMessage; fromId: number | undefined } | undefined {
  const { message, callback_query: press } = update;
  if (message?.text !== undefined) {
    return { text: message.text, message, fromId: message.from?.id };
  }
  if (press?.data !== undefined && press.message) {
    // The button's data is what it says, as sent: a mention is stripped from typed text only.
    return { text: press.data, message: press.message, fromId: press.from.id };
  }
  return undefined;
}

/**
 * `text` without mentions of the bot (`/start@MyBot`, `@MyBot hi`), in any letter case, as
 * Telegram's user names are; `botName` may be written with or without its `@`.
 */
function withoutMention(text: string, botName: string): string {
  const name = botName.replace(/^@/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`\\s*@${name}(?![A-Za-z0-9_])`, 'gi'), '').trim();
}

/**
 * Tells Telegram a button press was received, so that the user's app stops showing it as
 * pending. Best effort: the press is queued already, and a failure is only logged.
 */
async function answerButtonPress(
  id: string,
  settings: TelegramChannelSettings,
  deps: MessagingDeps,
): Promise<void> {
  const call: BotApiCall = { method: 'answerCallbackQuery', payload: { callback_query_id: id } };
  try {
    const token = await deps.secrets.get(settings.access_token.secret);
    await callBotApi(deps, token, call, AbortSignal.timeout(BUTTON_ANSWER_TIMEOUT_MS));
  } catch (error) {
    deps.logger?.debug('telegram did not take the answer to a button press', {
      channel: TELEGRAM_CHANNEL,
      error: describeError(error),
    });
  }
}

/** The chat of a conversation; refuses for good a conversation that is not a Telegram chat. */
function chatIdOf(conversationId: string): number | string {
  const id = platformIdOf(TELEGRAM_CHANNEL, conversationId);
  if (id === undefined || id === '') {
    throw new PlatformError(
      `telegram cannot send to conversation ${conversationId}: it is not a Telegram chat`,
      { transient: false },
    );
  }
  // Telegram's chat ids are integers; a channel's `@username` stays a string.
  const numeric = Number(id);
  return /^-?\d+$/.test(id) && Number.isSafeInteger(numeric) ? numeric : id;
}

/**
 * Makes one Bot API call. The bot's token is part of the URL, so `what` names only the method
 * and the token is taken out of any error's message.
 */
async function callBotApi(
  deps: MessagingDeps,
  token: string,
  call: BotApiCall,
  signal: AbortSignal,
): Promise<void> {
  try {
    await callPlatform(
      {
        what: `telegram ${call.method}`,
        url: `${apiRoot(deps, 'telegram')}/bot${token}/${call.method}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(call.payload),
      },
      signal,
      waitInHeader(deps.fetch),
    );
  } catch (error) {
    throw withoutToken(error, token);
  }
}

/**
 * A fetch that copies the wait Telegram asks for in a refusal's body (`parameters.retry_after`,
 * in seconds: its answer to a 429) into the `Retry-After` header, where `callPlatform` reads it.
 */
function waitInHeader(fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (response.ok || response.headers.has('retry-after')) return response;
    const text = await response.text();
    const headers = new Headers(response.headers);
    const seconds = retryAfterIn(text);
    if (seconds !== undefined) headers.set('retry-after', String(seconds));
    return new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

const Refusal = z.lazy(() =>
  z.object({
    parameters: z.optional(z.object({ retry_after: z.optional(z.number()) })),
  }),
);

function retryAfterIn(text: string): number | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const seconds = Refusal.safeParse(json).data?.parameters?.retry_after;
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** `error` without the bot's token in its message. */
function withoutToken(error: unknown, token: string): unknown {
  if (!(error instanceof PlatformError)) return error;
  const message = redact(error.message, [token]);
  if (message === error.message) return error;
  // The cause is left out: it may name the URL, and so the token, too.
  return new PlatformError(message, {
    transient: error.transient,
    retryAfterMs: error.retryAfterMs,
    status: error.status,
  });
}
