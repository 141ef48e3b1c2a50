/**
 * The web chat: the browser channel (`socketio`, as Rasa names it) as a deployment serves it. A
 * client posts the REST body to `POST /webhooks/socketio/webhook` (answered 202 at once) and reads
 * `GET /webhooks/socketio/stream/{sender}`: server-sent events, one `message` event per bot
 * message (fillers too), each with the `id` of its event in the conversation, so that a client
 * that comes back with `Last-Event-ID` (or `?after=`) gets what it missed. Without either, the
 * stream begins with what is said from then on.
 *
 * The stream reads the conversation's event log, which the worker writes as each job commits: the
 * function that streams and the worker are different processes on AWS. It sends whole messages;
 * the text a model is writing (`delta` events) reaches only the local stack's browser channel,
 * whose worker runs in the same process (`src/local/browserChannel.ts`).
 */
import type { BotMessage, DialogueEvent } from '../dialogue/index.js';
import {
  type Channel,
  type ChannelContext,
  type ConversationStore,
  HttpError,
  type HttpResponse,
  headerOf,
  type Route,
  type SequencedEvent,
  senderIdProblem,
} from '../runtime/index.js';
import { parseRestWebhook, restMessageJob } from './rest.js';
import { eventsAfter } from './tracker.js';

export const WEB_CHAT_CHANNEL = 'socketio';
export const WEB_CHAT_POST_PATH = '/webhooks/socketio/webhook';
export const WEB_CHAT_STREAM_PATH = '/webhooks/socketio/stream/{sender}';

/** How often the stream looks for new messages, and how long it may be quiet. */
const POLL_MS = 400;
const KEEP_ALIVE_MS = 15_000;
/** Events read from the log at a time. */
const PAGE = 100;

/**
 * Whether a browser may name `id` as its conversation: a sender id of its own kind. Ids with a
 * colon are the messaging platforms' (`slack:…`, `telegram:…`), which a browser must not join.
 */
export function ownSessionId(id: unknown): id is string {
  return typeof id === 'string' && !id.includes(':') && senderIdProblem(id) === undefined;
}

/** `POST /webhooks/socketio/webhook`: the REST body, queued as the user's message (202). */
export function webChatPostRoute(context: ChannelContext): Route {
  return {
    method: 'POST',
    path: WEB_CHAT_POST_PATH,
    authenticated: true,
    handle: async (request) => {
      const body = parseRestWebhook(request.body, headerOf(request, 'content-type'));
      if (!ownSessionId(body.sender)) {
        throw new HttpError(
          400,
          "sender: a browser conversation's id has no colon (those are the platforms')",
        );
      }
      const job = restMessageJob(body, context.newId, WEB_CHAT_CHANNEL);
      await context.queue.enqueue([job]);
      return { status: 202, body: { queued: job.id } };
    },
  };
}

export interface WebChatStreamOptions {
  readonly store: ConversationStore;
  /** How long one stream goes on at most; then the client reconnects (`Last-Event-ID`). */
  readonly streamLimitMs: number;
  readonly pollMs?: number;
}

/**
 * The deployed web chat: the route that takes the browser's messages, and, with `stream`, the one
 * that streams the bot's (each served by its own function). Its output delivers nothing: the
 * stream reads the messages from the conversation's events, which the commit wrote before any
 * delivery.
 */
export function webChatChannel(context: ChannelContext, stream?: WebChatStreamOptions): Channel {
  return {
    name: WEB_CHAT_CHANNEL,
    streams: false,
    routes: [webChatPostRoute(context), ...(stream ? [streamRoute(context, stream)] : [])],
    output: { deliver: async () => undefined },
  };
}

/** `GET /webhooks/socketio/stream/{sender}`: the conversation's bot messages as they come. */
function streamRoute(context: ChannelContext, options: WebChatStreamOptions): Route {
  return {
    method: 'GET',
    path: WEB_CHAT_STREAM_PATH,
    authenticated: true,
    handle: async (request) => {
      const sender = request.params.sender ?? '';
      if (!ownSessionId(sender)) {
        throw new HttpError(400, "sender: a browser conversation's id has no colon");
      }
      const query = new URLSearchParams(request.path.split('?')[1] ?? '');
      const given = headerOf(request, 'last-event-id') ?? query.get('after') ?? undefined;
      const after = given === undefined || given === '' ? undefined : Number(given);
      if (after !== undefined && !(Number.isInteger(after) && after >= -1)) {
        throw new HttpError(400, 'Last-Event-ID (or after) must be the id of an event');
      }
      // From the request on when the client names no event: read now, not when streaming starts.
      const from = after ?? (await nextSeq(options.store, sender)) - 1;
      return streamOf(context, options, sender, from);
    },
  };
}

/** The conversation's bot messages after the event `after`, as server-sent events. */
function streamOf(
  context: ChannelContext,
  options: WebChatStreamOptions,
  sender: string,
  after: number,
): HttpResponse {
  const pollMs = options.pollMs ?? POLL_MS;
  async function* frames(): AsyncGenerator<string> {
    const began = context.now();
    let seen = after;
    let quietSince = began;
    yield ': following\n\n';
    while (!context.stopping?.aborted && context.now() - began < options.streamLimitMs) {
      const { events, more } = await newEvents(options.store, sender, seen);
      for (const { seq, event } of events) {
        seen = seq;
        if (event.event !== 'bot') continue;
        quietSince = context.now();
        const message = botMessageOf(event);
        yield `event: message\nid: ${seq}\ndata: ${JSON.stringify({ id: String(seq), message })}\n\n`;
      }
      if (more) continue;
      if (context.now() - quietSince >= KEEP_ALIVE_MS) {
        quietSince = context.now();
        yield ': keep-alive\n\n';
      }
      await context.sleep(pollMs);
    }
  }
  return {
    status: 200,
    body: undefined,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
    stream: frames(),
  };
}

/** The seq the conversation's next event gets (0 for a new conversation). */
async function nextSeq(store: ConversationStore, sender: string): Promise<number> {
  return (await store.load(sender))?.nextSeq ?? 0;
}

/**
 * The events after `seen`: none, at the cost of one read, while the conversation has no newer
 * ones (an open stream's usual state); else a page of the log and the outbox.
 */
async function newEvents(
  store: ConversationStore,
  sender: string,
  seen: number,
): Promise<{ events: SequencedEvent[]; more: boolean }> {
  const head = await store.load(sender);
  if (!head || head.nextSeq - 1 <= seen) return { events: [], more: false };
  return eventsAfter(store, sender, head, seen, PAGE);
}

function botMessageOf(event: Extract<DialogueEvent, { event: 'bot' }>): BotMessage {
  const { event: _kind, timestamp: _at, ...message } = event;
  return message;
}
