/**
 * Slack's Events API channel. Slack posts user messages (`message`, `app_mention`) as JSON and
 * button clicks (`block_actions`) as a form with a JSON `payload`; every request is signed with
 * the app's signing secret and is refused (401) unless its signature matches and its timestamp
 * is within five minutes of now, before anything in it is read. A message is queued and
 * acknowledged with 200 at once: Slack retries what is not answered within three seconds, and a
 * retry is the same job, which the runtime drops. Replies are posted with `chat.postMessage`.
 *
 * A conversation is a user in a Slack channel, `slack:<channel>:<user>`; with `use_threads`,
 * each thread is a conversation of its own, `slack:<channel>:<user>:<thread ts>`, and its
 * replies go into that thread.
 */
import { createHmac } from 'node:crypto';
import * as z from 'zod/mini';
import type { SlackChannelSettings } from '../../assistant/index.js';
import {
  type Channel,
  type ChannelContext,
  HttpError,
  type HttpResponse,
  headerOf,
  type RouteRequest,
  requireContentType,
  sameSecret,
  senderIdProblem,
} from '../../runtime/index.js';
import { checkingSecret, type MessagingDeps, outputDeps } from './deps.js';
import { conversationOf, inboundJob } from './inbound.js';
import { messagingOutput } from './outbound.js';
import { SLACK_CHANNEL, sendToSlack } from './slackOutput.js';

export { SLACK_CHANNEL };
export const SLACK_PATH = '/webhooks/slack/webhook';

/** How far a request's timestamp may be from now, either way, as Slack recommends. */
const MAX_CLOCK_SKEW_S = 300;
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A user mention, `<@U024BE7LH>` or `<@U024BE7LH|ada>`: the bot's, or anyone's. */
function mentionOf(user: string | undefined): RegExp {
  return user && /^[UW][A-Z0-9]+$/.test(user)
    ? new RegExp(`<@${user}(?:\\|[^>]*)?>`, 'g')
    : /<@[UW][A-Z0-9]+(?:\|[^>]*)?>/g;
}

/**
 * Slack's markup read as the text a user sees: `<https://x|label>` and `<mailto:a@b|a@b>` as
 * their label (a bare link as itself), other users' labelled mentions as their name, and `&amp;`, `&lt;`,
 * `&gt;` as the characters.
 */
function plainText(text: string): string {
  return text
    .replace(/<(?:mailto:)?([^>|]+)\|([^>]+)>/g, (_, _target: string, label: string) => label)
    .replace(/<([^@#!][^>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

/** The Slack channel: its webhook and its output. */
export function slackChannel(
  context: ChannelContext,
  settings: SlackChannelSettings,
  deps: MessagingDeps,
): Channel {
  return {
    name: SLACK_CHANNEL,
    streams: false,
    routes: [
      {
        method: 'POST',
        path: SLACK_PATH,
        // Slack cannot send our API token; its signature is checked instead.
        authenticated: false,
        handle: (request) => receive(request, context, settings, deps),
      },
    ],
    output: messagingOutput({
      ...outputDeps(context, deps),
      channel: SLACK_CHANNEL,
      send: (conversationId, message, signal) =>
        sendToSlack(conversationId, message, signal, settings, deps),
    }),
  };
}

// --- The way in ---

/** A user's message or button click, in Slack's terms. */
interface SlackMessage {
  /** Names the message for good: a repeat of it (a retry, a second event of it) is the same. */
  readonly key: string;
  readonly channel: string;
  readonly user: string;
  /** The message's own ts. */
  readonly ts: string;
  /** The thread it is in, if any. */
  readonly threadTs: string | undefined;
  readonly text: string;
}

type SlackRequest =
  | { readonly kind: 'challenge'; readonly challenge: string }
  | { readonly kind: 'message'; readonly message: SlackMessage }
  | { readonly kind: 'ignored' };

async function receive(
  request: RouteRequest,
  context: ChannelContext,
  settings: SlackChannelSettings,
  deps: MessagingDeps,
): Promise<HttpResponse> {
  await verifySignature(request, context.now(), () =>
    checkingSecret(deps.secrets, settings.slack_signing_secret.secret),
  );
  const parsed = parseRequest(request, settings);
  switch (parsed.kind) {
    case 'challenge':
      return { status: 200, body: { challenge: parsed.challenge } };
    case 'ignored':
      return { status: 200, body: {} };
    case 'message':
      await context.queue.enqueue([slackJob(parsed.message, settings)]);
      return { status: 200, body: {} };
    default: {
      const never: never = parsed;
      throw new Error(`unhandled Slack request ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Refuses with 401 a request Slack did not sign: `X-Slack-Signature` must be `v0=` and the hex
 * HMAC-SHA256 of `v0:<timestamp>:<body>`, the timestamp within five minutes of now.
 */
async function verifySignature(
  request: RouteRequest,
  nowMs: number,
  signingSecret: () => Promise<string>,
): Promise<void> {
  const timestamp = headerOf(request, 'x-slack-request-timestamp');
  const signature = headerOf(request, 'x-slack-signature');
  if (!timestamp || !signature) {
    throw new HttpError(
      401,
      'the request is not signed by Slack (X-Slack-Request-Timestamp or X-Slack-Signature is missing)',
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new HttpError(401, 'X-Slack-Request-Timestamp is not a Unix time in seconds');
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_S) {
    throw new HttpError(
      401,
      `the Slack request is stale: its timestamp is more than ${MAX_CLOCK_SKEW_S} s from now`,
    );
  }
  const expected = `v0=${createHmac('sha256', await signingSecret())
    .update(`v0:${timestamp}:${request.body ?? ''}`)
    .digest('hex')}`;
  if (!sameSecret(signature, expected)) {
    throw new HttpError(401, 'the Slack signature does not match');
  }
}

function parseRequest(request: RouteRequest, settings: SlackChannelSettings): SlackRequest {
  const contentType = headerOf(request, 'content-type');
  requireContentType(contentType, [JSON_TYPE, FORM_TYPE], 'JSON or form-encoded');
  const body = request.body ?? '';
  if (body.trim() === '') throw new HttpError(400, 'the body is empty');
  const isForm = contentType?.split(';')[0]?.trim().toLowerCase() === FORM_TYPE;
  return isForm ? parseInteraction(body) : parseEvent(body, settings);
}

const SlackEvent = z.lazy(() =>
  z.object({
    type: z.string(),
    subtype: z.optional(z.unknown()),
    bot_id: z.optional(z.unknown()),
    user: z.optional(z.string()),
    text: z.optional(z.string()),
    ts: z.optional(z.string()),
    thread_ts: z.optional(z.string()),
    channel: z.optional(z.string()),
  }),
);

/** An Events API request: only what is read of it. */
const EventsBody = z.lazy(() =>
  z.object({
    type: z.string(),
    challenge: z.optional(z.string()),
    event_id: z.optional(z.string()),
    event: z.optional(SlackEvent),
    /** Who the app is in the workspace: its bot user's id, whose mentions are taken out. */
    authorizations: z.optional(z.array(z.object({ user_id: z.optional(z.string()) }))),
  }),
);

function parseEvent(text: string, settings: SlackChannelSettings): SlackRequest {
  const body = parseWith(EventsBody, parseJson(text, 'body'), 'the Slack event');
  if (body.type === 'url_verification') {
    if (body.challenge === undefined)
      throw new HttpError(400, 'the url_verification has no challenge');
    return { kind: 'challenge', challenge: body.challenge };
  }
  if (body.type !== 'event_callback') return { kind: 'ignored' };
  if (body.event === undefined || body.event_id === undefined) {
    throw new HttpError(400, 'the event_callback has no event or no event_id');
  }
  const botUser = body.authorizations?.[0]?.user_id;
  const message = userMessage(body.event, settings, botUser);
  return message ? { kind: 'message', message } : { kind: 'ignored' };
}

/**
 * A user's message in an event, or undefined for any other event: bots' messages (ours
 * included), edits and other subtypes, and messages with no text beside the bot's mention.
 * The bot's mentions are taken out (every mention, when the event does not say who the bot
 * is), and Slack's markup of links, e-mail addresses and `&`, `<`, `>` is read as plain text.
 */
function userMessage(
  event: z.infer<typeof SlackEvent>,
  settings: SlackChannelSettings,
  botUser?: string,
): SlackMessage | undefined {
  if (event.type !== 'message' && event.type !== 'app_mention') return undefined;
  if (event.subtype !== undefined || event.bot_id !== undefined) return undefined;
  const channel = event.channel ?? settings.slack_channel;
  const text = plainText((event.text ?? '').replace(mentionOf(botUser), ''));
  if (!channel || !event.user || !event.ts || text === '') return undefined;
  return {
    // A mention in a channel comes as two events (message and app_mention) with their own
    // event ids; the message's channel and ts make them, and Slack's retries, one job.
    key: `message:${channel}:${event.ts}`,
    channel,
    user: event.user,
    ts: event.ts,
    threadTs: event.thread_ts,
    text,
  };
}

/** An interactivity request's `payload`: only what is read of it. */
const Interaction = z.lazy(() =>
  z.object({
    type: z.string(),
    user: z.optional(z.object({ id: z.string() })),
    channel: z.optional(z.object({ id: z.string() })),
    container: z.optional(
      z.object({ message_ts: z.optional(z.string()), thread_ts: z.optional(z.string()) }),
    ),
    actions: z.optional(
      z.array(z.object({ value: z.optional(z.string()), action_ts: z.optional(z.string()) })),
    ),
  }),
);

/**
 * A button click (`block_actions`): the first action's value is what the user says. Other
 * interactions (modals, shortcuts, menus without a value) are ignored.
 */
function parseInteraction(text: string): SlackRequest {
  const payload = new URLSearchParams(text).get('payload');
  if (payload === null) throw new HttpError(400, 'the form has no payload field');
  const body = parseWith(Interaction, parseJson(payload, 'payload'), 'the Slack payload');
  const action = body.actions?.[0];
  const ts = body.container?.message_ts;
  if (body.type !== 'block_actions' || !body.channel || !body.user || !ts)
    return { kind: 'ignored' };
  if (!action?.value || !action.action_ts) return { kind: 'ignored' };
  return {
    kind: 'message',
    message: {
      key: `action:${ts}:${action.action_ts}`,
      channel: body.channel.id,
      user: body.user.id,
      ts,
      threadTs: body.container?.thread_ts,
      text: action.value,
    },
  };
}

/** The job of a Slack message; refuses (400) a conversation id that could not be stored. */
function slackJob(message: SlackMessage, settings: SlackChannelSettings) {
  const thread = settings.use_threads ? `:${message.threadTs ?? message.ts}` : '';
  const conversationId = conversationOf(
    SLACK_CHANNEL,
    `${message.channel}:${message.user}${thread}`,
  );
  const problem = senderIdProblem(conversationId);
  if (problem !== undefined) {
    throw new HttpError(400, `the Slack conversation id ${conversationId} ${problem}`);
  }
  const slack = {
    channel: message.channel,
    user: message.user,
    ts: message.ts,
    ...(message.threadTs !== undefined ? { thread_ts: message.threadTs } : {}),
  };
  return inboundJob(SLACK_CHANNEL, {
    eventId: message.key,
    conversationId,
    text: message.text,
    metadata: { slack },
    // A button click's value is a payload; a message is what the user typed.
    typed: !message.key.startsWith('action:'),
  });
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, `the ${what} is not valid JSON`);
  }
}

function parseWith<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new HttpError(400, `${what} is not as Slack sends it${where}: ${issue?.message ?? ''}`);
}
