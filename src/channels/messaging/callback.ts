/**
 * Rasa's `callback` channel: a message comes in as the REST channel's body, is acknowledged at
 * once, and each bot message is posted to the configured URL as the REST channel answers it
 * (`{recipient_id, text, buttons, image, custom}`). The route takes the API token, as the REST
 * webhook does: it is how the caller proves who it is.
 */
import type { CallbackChannelSettings } from '../../assistant/index.js';
import { type Channel, type ChannelContext, headerOf } from '../../runtime/index.js';
import { parseRestWebhook, restMessageJob, toRestReply } from '../rest.js';
import { type MessagingDeps, outputDeps } from './deps.js';
import { callPlatform, messagingOutput } from './outbound.js';

export const CALLBACK_CHANNEL = 'callback';
export const CALLBACK_PATH = '/webhooks/callback/webhook';

export function callbackChannel(
  context: ChannelContext,
  settings: CallbackChannelSettings,
  deps: MessagingDeps,
): Channel {
  return {
    name: CALLBACK_CHANNEL,
    streams: false,
    routes: [
      {
        method: 'POST',
        path: CALLBACK_PATH,
        authenticated: true,
        handle: async (request) => {
          const body = parseRestWebhook(request.body, headerOf(request, 'content-type'));
          const job = restMessageJob(body, context.newId, CALLBACK_CHANNEL);
          await context.queue.enqueue([job]);
          return { status: 200, body: 'success' };
        },
      },
    ],
    output: messagingOutput({
      ...outputDeps(context, deps),
      channel: CALLBACK_CHANNEL,
      send: async (conversationId, message, signal) => {
        await callPlatform(
          {
            // The host alone: the URL's path or query may hold what logs must not show.
            what: `callback to ${new URL(settings.url).host}`,
            url: settings.url,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...toRestReply(message), recipient_id: conversationId }),
          },
          signal,
          deps.fetch,
        );
      },
    }),
  };
}
