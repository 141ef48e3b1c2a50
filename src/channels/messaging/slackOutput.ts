/**
 * Replies to Slack: each bot message is posted with `chat.postMessage` to the conversation's
 * channel (and thread), its buttons and image as blocks, and Rasa's `custom` Slack message as a
 * post of its own.
 */
import * as z from 'zod/mini';
import type { SlackChannelSettings } from '../../assistant/index.js';
import type { BotMessage } from '../../dialogue/index.js';
import { parseRetryAfter } from '../../resilience/index.js';
import type { OutboundMessage } from '../../runtime/index.js';
import { apiRoot, type MessagingDeps } from './deps.js';
import { platformIdOf } from './inbound.js';
import { callPlatform, PlatformError, splitText } from './outbound.js';

/** The channel's name, as jobs and conversations carry it. */
export const SLACK_CHANNEL = 'slack';

/** Slack's limits on a button's text and on the elements of one `actions` block. */
const BUTTON_TEXT_CHARS = 75;
const BUTTONS_PER_BLOCK = 25;
/** Slack's limit on a section block's text. */
const SECTION_CHARS = 3_000;
/** The `error`s of an `ok: false` answer that a later try may get past. */
const TRANSIENT_ERRORS = new Set([
  'ratelimited',
  'service_unavailable',
  'internal_error',
  'fatal_error',
  'request_timeout',
]);

/** Where a conversation's replies go: its channel, and its thread with `use_threads`. */
interface SlackAddress {
  readonly channel: string;
  readonly thread_ts?: string;
}

/** The address in a conversation id `slackJob` made; a refusal for good for any other id. */
function addressOf(conversationId: string): SlackAddress {
  const parts = platformIdOf(SLACK_CHANNEL, conversationId)?.split(':') ?? [];
  const [channel, user, thread] = parts;
  if (!channel || !user || parts.length > 3 || thread === '') {
    throw new PlatformError(`conversation ${conversationId} is not a Slack conversation`);
  }
  return { channel, ...(thread !== undefined ? { thread_ts: thread } : {}) };
}

/** Posts one bot message of a Slack conversation. */
export async function sendToSlack(
  conversationId: string,
  message: OutboundMessage,
  signal: AbortSignal,
  settings: SlackChannelSettings,
  deps: MessagingDeps,
): Promise<void> {
  const bodies = slackBodies(addressOf(conversationId), message.message);
  if (bodies.length === 0) return;
  const token = await deps.secrets.get(settings.slack_token.secret);
  for (const body of bodies) {
    const response = await callPlatform(
      {
        what: 'slack chat.postMessage',
        url: `${apiRoot(deps, 'slack')}/chat.postMessage`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json; charset=utf-8',
        },
        body: JSON.stringify(body),
      },
      signal,
      deps.fetch,
    );
    await requireOk(response);
  }
}

/**
 * The `chat.postMessage` bodies of a bot message: its text, image and buttons as one message,
 * then its `custom` (Rasa's raw Slack message) as another, the address filling in what it
 * leaves out. A message with none of them (only a response name) sends nothing.
 */
function slackBodies(address: SlackAddress, message: BotMessage): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  const raw = message.text ?? '';
  const text = escapeText(raw);
  const media: object[] = [
    ...(message.image !== undefined ? [imageBlock(message.image)] : []),
    ...chunks(message.buttons ?? [], BUTTONS_PER_BLOCK).map(actionsBlock),
  ];
  // With blocks, Slack shows only the blocks: the text goes first among them.
  // A section holds 3,000 characters: a longer text takes several.
  const sections = escapedParts(raw, SECTION_CHARS).map(sectionBlock);
  const blocks = media.length > 0 && text !== '' ? [...sections, ...media] : media;
  if (text !== '' || blocks.length > 0) {
    bodies.push({ ...address, text, ...(blocks.length > 0 ? { blocks } : {}) });
  }
  if (message.custom !== undefined) bodies.push(customBody(address, message.custom));
  return bodies;
}

/**
 * Text with Slack's control characters escaped, as its API asks: a bot's text (a model's most of
 * all) cannot mention `<!channel>` or a user, nor make a link of its own. Formatting (`*bold*`,
 * `_italic_`) stays; raw Slack messages go in a response's `custom`, which is sent as it is.
 */
export function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Text escaped and cut into parts of at most `limit` characters each. It is cut before it is
 * escaped, so that no cut falls inside an entity (`&amp;`); a part that escaping made too long
 * is cut again, smaller.
 */
function escapedParts(text: string, limit: number, window = limit): string[] {
  return splitText(text, window).flatMap((part) => {
    const escaped = escapeText(part);
    if (escaped.length <= limit) return [escaped];
    // An entity is five characters at most: a fifth of the limit always fits.
    const smaller = Math.max(Math.floor(limit / 5), Math.floor((window * limit) / escaped.length));
    return escapedParts(part, limit, Math.min(smaller, window - 1));
  });
}

function sectionBlock(text: string) {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

function imageBlock(url: string) {
  // As Rasa does: a bot message carries no description of its image.
  return { type: 'image', image_url: url, alt_text: url };
}

function actionsBlock(buttons: readonly { title: string; payload: string }[], block: number) {
  return {
    type: 'actions',
    elements: buttons.map((button, i) => ({
      type: 'button',
      text: {
        type: 'plain_text',
        text: Array.from(button.title).slice(0, BUTTON_TEXT_CHARS).join(''),
      },
      value: button.payload,
      action_id: `button_${block * BUTTONS_PER_BLOCK + i}`,
    })),
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rasa's `custom` for Slack: a message body of its own, as Rasa sends it (its keys win). */
function customBody(address: SlackAddress, custom: unknown): Record<string, unknown> {
  if (typeof custom !== 'object' || custom === null || Array.isArray(custom)) {
    throw new PlatformError('a custom Slack message must be an object (a chat.postMessage body)');
  }
  return { ...address, ...custom };
}

const SlackAnswer = z.lazy(() => z.object({ ok: z.boolean(), error: z.optional(z.string()) }));

/**
 * Throws the `PlatformError` of an answer `{"ok": false}`, which Slack sends with status 200.
 * An answer that is not Slack's JSON counts as sent: the call itself succeeded.
 */
async function requireOk(response: Response): Promise<void> {
  const answer = SlackAnswer.safeParse(await response.json().catch(() => undefined));
  if (!answer.success || answer.data.ok) return;
  const error = answer.data.error ?? 'unknown_error';
  throw new PlatformError(`slack chat.postMessage refused the message: ${error}`, {
    transient: TRANSIENT_ERRORS.has(error),
    retryAfterMs: parseRetryAfter(response.headers),
  });
}
