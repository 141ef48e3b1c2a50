import { webChatChannel } from '../src/channels/webChat.js';
import { createHttpRuntime } from '../src/runtime/index.js';
import { env } from './shared/aws.js';
import { awsRuntimeParts } from './shared/parts.js';
import { responder } from './shared/respond.js';
import { streamingHttpHandler } from './shared/restStream.js';

// The web chat's stream only: its messages come from the conversation's events as the worker
// commits them (the webhook function takes the messages the browser posts).
const { http } = createHttpRuntime({
  ...awsRuntimeParts,
  // A stream that reaches its limit ends; the browser's EventSource reconnects with Last-Event-ID.
  channels: (context) => [
    webChatChannel(context, { store: awsRuntimeParts.store, streamLimitMs: env.STREAM_LIMIT_MS }),
  ],
});

/** The web chat's server-sent events behind the REST API's streaming route. */
export const handler = streamingHttpHandler(
  { ok: 'WebChatStreamsServed', refused: 'WebChatStreamsRefused', failed: 'WebChatStreamsFailed' },
  responder(http, {
    notConfigured: 'the web chat is not configured',
    missing: 'the REST token secret is missing: create it',
    blank: 'the REST token is blank: put a value in it',
  }),
);
