/**
 * The browser channel of the local stack, named `socketio` as Rasa's is. Everything the worker
 * delivers to one of its conversations, and the text a model writes for it, goes through a hub
 * in the process to whoever follows the conversation:
 * - Rasa's chat widgets, over socket.io (`session_request` / `session_confirm`, `user_uttered`,
 *   `bot_uttered`, with the event names credentials.yml's `socketio` block may rename), when
 *   credentials.yml configures the channel;
 * - a plain client, which posts messages to `POST /webhooks/socketio/webhook` (the REST body,
 *   answered 202 at once) and reads `GET /webhooks/socketio/stream/{sender}`, server-sent events:
 *   `delta` for each piece of text a model writes, `message` for each bot message (fillers too).
 * The hub lives in one process. On AWS, where the worker and the HTTP functions are apart, the
 * same routes are the web chat's (`src/channels/webChat.ts`): whole messages read from the
 * conversation's events, without the deltas.
 */
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { SocketIoChannelSettings } from '../assistant/index.js';
import { REST_LIMITS, restMessageJob } from '../channels/index.js';
import {
  ownSessionId,
  WEB_CHAT_CHANNEL,
  WEB_CHAT_STREAM_PATH,
  webChatPostRoute,
} from '../channels/webChat.js';
import type { BotMessage } from '../dialogue/index.js';
import { importOptional, type Logger } from '../resilience/index.js';
import {
  type Channel,
  type ChannelContext,
  type HttpResponse,
  sameSecret,
  type TextPreview,
} from '../runtime/index.js';

export const BROWSER_CHANNEL = WEB_CHAT_CHANNEL;
export const BROWSER_STREAM_PATH = WEB_CHAT_STREAM_PATH;

/** How long a stream may be quiet before it sends a comment. */
const KEEP_ALIVE_MS = 15_000;

/** What the hub passes to a conversation's followers. */
export type BrowserEvent =
  | { readonly type: 'message'; readonly id: string; readonly message: BotMessage }
  | {
      readonly type: 'delta';
      readonly runId: string;
      readonly stepId: string;
      readonly delta: string;
    };

type Follower = (event: BrowserEvent) => void;

/** Followers by conversation. */
export class BrowserHub {
  private readonly followers = new Map<string, Set<Follower>>();

  follow(conversationId: string, follower: Follower): () => void {
    const set = this.followers.get(conversationId) ?? new Set<Follower>();
    set.add(follower);
    this.followers.set(conversationId, set);
    return () => {
      set.delete(follower);
      if (set.size === 0) this.followers.delete(conversationId);
    };
  }

  publish(conversationId: string, event: BrowserEvent): void {
    for (const follower of this.followers.get(conversationId) ?? []) follower(event);
  }
}

export interface BrowserChannelOptions {
  readonly hub: BrowserHub;
  readonly logger?: Logger;
  /** Aborted when the stack begins to stop: streams end then, not after the webhooks' grace. */
  readonly streamsStopping?: AbortSignal;
}

/** The channel: its routes and its output into the hub. */
export function browserChannel(context: ChannelContext, options: BrowserChannelOptions): Channel {
  const { hub } = options;
  // A batch may be delivered twice: each message reaches the followers once.
  const sent = new Set<string>();
  return {
    name: BROWSER_CHANNEL,
    streams: true,
    routes: [
      webChatPostRoute(context),
      {
        method: 'GET',
        path: BROWSER_STREAM_PATH,
        authenticated: true,
        handle: async (request) =>
          stream(hub, request.params.sender ?? '', options.streamsStopping ?? context.stopping),
      },
    ],
    output: {
      deliver: async (batch) => {
        for (const { id, message } of batch.messages) {
          if (sent.has(id)) continue;
          sent.add(id);
          if (sent.size > 10_000) sent.delete(sent.values().next().value as string);
          hub.publish(batch.conversationId, { type: 'message', id, message });
        }
      },
      preview: async (preview: TextPreview) => {
        hub.publish(preview.conversationId, {
          type: 'delta',
          runId: preview.runId,
          stepId: preview.stepId,
          delta: preview.delta,
        });
      },
    },
  };
}

/** A conversation's events as server-sent events, until the client leaves or the server stops. */
function stream(hub: BrowserHub, sender: string, stopping?: AbortSignal): HttpResponse {
  async function* frames(): AsyncGenerator<string> {
    const waiting: BrowserEvent[] = [];
    let wake: (() => void) | undefined;
    const unfollow = hub.follow(sender, (event) => {
      waiting.push(event);
      wake?.();
    });
    const stopped = () => wake?.();
    stopping?.addEventListener('abort', stopped);
    try {
      // A comment first, so that the client knows it is following before anything is said.
      yield ': following\n\n';
      while (!stopping?.aborted) {
        const event = waiting.shift();
        if (event === undefined) {
          // A comment now and then keeps proxies from closing a quiet stream.
          const quiet = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), KEEP_ALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = undefined;
          if (quiet) yield ': keep-alive\n\n';
          continue;
        }
        const { type, ...data } = event;
        yield `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
      }
    } finally {
      stopping?.removeEventListener('abort', stopped);
      unfollow();
    }
  }
  return {
    status: 200,
    body: undefined,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
    stream: frames(),
  };
}

/** A bot message as Rasa's socket.io channel emits it. */
export function socketIoMessage(message: BotMessage): Record<string, unknown> {
  if (message.custom !== undefined && message.text === undefined) {
    return message.custom as Record<string, unknown>;
  }
  return {
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(message.buttons && message.buttons.length > 0
      ? {
          quick_replies: message.buttons.map((b) => ({
            content_type: 'text',
            title: b.title,
            payload: b.payload,
          })),
        }
      : {}),
    ...(message.image !== undefined
      ? { attachment: { type: 'image', payload: { src: message.image } } }
      : {}),
  };
}

const SOCKET_IO_PURPOSE = "Serving Rasa's socketio channel (credentials.yml's socketio block)";

/**
 * Serves Rasa's socket.io protocol on the local stack's HTTP server: a client asks for a session
 * (`session_request`), is confirmed in it (`session_confirm`), sends `user_uttered`
 * `{message, session_id}` and receives each bot message as `bot_uttered`. With
 * `session_persistence`, a client may come back to the session id it kept; without it, every
 * connection gets a new one and the ids a client names are ignored. When the stack has a REST
 * token, a client gives it as `auth: {token}` (or the `token` query parameter) or is refused.
 * Returns the function that stops it.
 */
export async function serveSocketIo(
  server: HttpServer,
  settings: SocketIoChannelSettings,
  context: Pick<ChannelContext, 'queue' | 'newId'>,
  hub: BrowserHub,
  options: { readonly token?: string | undefined; readonly logger?: Logger } = {},
): Promise<() => Promise<void>> {
  const { logger, token } = options;
  const { Server } = await importOptional(
    'socket.io',
    SOCKET_IO_PURPOSE,
    ['socket.io@4.8.4'],
    () => import('socket.io'),
  );
  const userEvent = settings.user_message_evt ?? 'user_uttered';
  const botEvent = settings.bot_message_evt ?? 'bot_uttered';
  const io = new Server(server, { cors: { origin: '*' }, serveClient: false });
  if (token !== undefined) {
    io.use((socket, next) => {
      const given = socket.handshake.auth?.token ?? socket.handshake.query?.token;
      next(
        typeof given === 'string' && sameSecret(given, token)
          ? undefined
          : new Error('missing or wrong token: give the REST token as auth.token'),
      );
    });
  }
  const persistent = settings.session_persistence === true;
  io.on('connection', (socket) => {
    let unfollow: (() => void) | undefined;
    let session: string | undefined;
    const join = (sender: string) => {
      unfollow?.();
      session = sender;
      unfollow = hub.follow(sender, (event) => {
        if (event.type === 'message') socket.emit(botEvent, socketIoMessage(event.message));
      });
    };
    socket.on('session_request', (data: unknown) => {
      const asked = (data as { session_id?: unknown } | null)?.session_id;
      join(persistent && ownSessionId(asked) ? asked : randomUUID());
      socket.emit('session_confirm', session);
    });
    socket.on(userEvent, (data: unknown) => {
      const { message, session_id: given } = (data ?? {}) as {
        message?: unknown;
        session_id?: unknown;
      };
      // Without persistence the session is the one the server confirmed, whatever is named.
      const sender = persistent && ownSessionId(given) ? given : session;
      if (typeof message !== 'string' || sender === undefined) {
        logger?.debug('a socket.io message without text or session was dropped', {});
        return;
      }
      if (message.length > REST_LIMITS.messageChars) {
        socket.emit(
          'error_message',
          `a message may hold at most ${REST_LIMITS.messageChars} characters`,
        );
        return;
      }
      if (sender !== session) join(sender);
      const job = restMessageJob({ sender, message }, context.newId, BROWSER_CHANNEL);
      context.queue.enqueue([job]).catch((error: unknown) => {
        logger?.warn('a socket.io message could not be queued', { error: String(error) });
      });
    });
    socket.on('disconnect', () => unfollow?.());
  });
  // Closing disconnects every client and stops the engine; it closes the HTTP server too, whose
  // own stop waits for requests in progress, so that wait is not this one's.
  return async () => {
    void io.close();
  };
}
