/**
 * The channel seam: every way into and out of a conversation (the REST webhook, the tracker,
 * messaging platforms, the A2A push receiver, the A2A server, a streaming web chat) is one
 * `Channel`: its HTTP routes turn requests into jobs or answers, and its output (if it carries
 * conversations) delivers the bot's replies.
 */

import { WireError } from '../resilience/index.js';
import type { ConversationStore, JobQueue, OutputChannel, ReplyStore } from './ports.js';

/**
 * A request body: its text, or a reader of it. The route table reads it only once the request is
 * routed and authorized; a reader refuses a body over the limit with an `HttpError` 413.
 */
export type RequestBody = string | (() => Promise<string>);

/** An HTTP request, whatever carried it (node:http locally, API Gateway on AWS). */
export interface HttpRequest {
  readonly method: string;
  /** The path, possibly with a query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body?: RequestBody;
}

/**
 * An HTTP answer; the body is sent as JSON (none when undefined, as for HEAD). A streamed answer
 * (`stream`, server-sent events) is sent a chunk at a time as it comes, with its own content type
 * in `headers`; where the host cannot stream (an API Gateway HTTP API), it is sent whole once it
 * ends. Closing the connection ends the stream (its iterator is returned).
 */
export interface HttpResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly stream?: AsyncIterable<string>;
}

/**
 * A request refused with a status and a reason the caller can act on.
 * Code `HTTP_REQUEST_REFUSED`.
 */
export class HttpError extends WireError {
  override readonly name = 'HttpError';
  override readonly code = 'HTTP_REQUEST_REFUSED';
  constructor(
    override readonly status: number,
    reason: string,
    readonly headers: Readonly<Record<string, string>> = {},
    options?: { cause?: unknown },
  ) {
    super(reason, { ...options, status });
  }
}

/** A request as a route sees it: the path's parameters decoded and checked, the body read. */
export interface RouteRequest extends Omit<HttpRequest, 'body'> {
  readonly body?: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Why a decoded path parameter is refused (e.g. `must be four digits`), or undefined. */
export type ParamCheck = (value: string) => string | undefined;

/** One HTTP route of a channel. A `GET` route also answers `HEAD`, without a body. */
export interface Route {
  readonly method: 'GET' | 'POST';
  /** A path such as `/conversations/{sender}/tracker`; `{name}` matches one segment. */
  readonly path: string;
  /** Whether the route needs the API token, when one is configured. */
  readonly authenticated: boolean;
  /**
   * Checks of path parameters, by name, before the route runs; a failed check answers 400.
   * `{sender}` is always checked as a sender id.
   */
  readonly params?: Readonly<Record<string, ParamCheck>>;
  handle(request: RouteRequest): Promise<HttpResponse>;
}

/** An inbound and outbound integration. */
export interface Channel {
  /** The name jobs and conversations carry (`rest`); replies are routed by it. */
  readonly name: string;
  readonly routes: readonly Route[];
  /** Delivers the replies of conversations on this channel; absent for channels that carry none. */
  readonly output?: OutputChannel;
  /** Whether the channel can show text while it is generated (best-effort previews). */
  readonly streams: boolean;
}

/** What channels are built from: the runtime's stores and queue, a clock and their settings. */
export interface ChannelContext {
  readonly queue: JobQueue;
  readonly store: ConversationStore;
  readonly replies: ReplyStore;
  readonly newId: () => string;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long a webhook that answers with the turn's replies waits for the turn to settle. */
  readonly replyWaitMs: number;
  /** Aborted when the server stops: waiting webhooks answer with what they have. */
  readonly stopping?: AbortSignal;
}

/** Builds the channels of a deployment. */
export type ChannelFactory = (context: ChannelContext) => readonly Channel[];
