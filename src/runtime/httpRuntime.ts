/**
 * The HTTP side of the runtime: the channels' routes over the stores and the queue. The HTTP
 * handlers (the webhook, the push receiver, the A2A server) build only this, so that they load
 * no dialogue engine; `createRuntime` builds it too, beside the job side.
 */
import type { ChannelContext, ChannelFactory } from './channel.js';
import { createHttpApi, type HttpApi } from './httpApi.js';

/**
 * The environment-specific pieces every runtime needs: the stores and queue, a clock, and the
 * channels with their HTTP settings.
 */
export interface RuntimeParts extends Omit<ChannelContext, 'replyWaitMs' | 'stopping'> {
  readonly channels: ChannelFactory;
  readonly http: {
    /** How long a webhook waits for its turn to settle. */
    readonly replyWaitMs: number;
    /** The bearer token authenticated routes need; none when it resolves to undefined. */
    readonly authToken?: () => Promise<string | undefined>;
    /** Aborted when the server stops: waiting webhooks answer with what they have. */
    readonly stopping?: AbortSignal;
  };
}

/** The HTTP side: what a webhook handler runs. */
export interface HttpRuntime {
  readonly http: HttpApi;
}

/** Assembles the HTTP side of a runtime from adapters: its channels and their routes. */
export function createHttpRuntime(parts: RuntimeParts): HttpRuntime & {
  readonly channels: ReturnType<ChannelFactory>;
} {
  const context: ChannelContext = {
    queue: parts.queue,
    store: parts.store,
    replies: parts.replies,
    newId: parts.newId,
    now: parts.now,
    sleep: parts.sleep,
    replyWaitMs: parts.http.replyWaitMs,
    ...(parts.http.stopping ? { stopping: parts.http.stopping } : {}),
  };
  const channels = parts.channels(context);
  const http = createHttpApi(
    channels,
    parts.http.authToken ? { authToken: parts.http.authToken } : {},
  );
  return { http, channels };
}
