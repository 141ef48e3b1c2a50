import { createHttpRuntime } from '../src/runtime/index.js';
import { httpHandler } from './shared/apiGateway.js';
import { env } from './shared/aws.js';
import { deploymentChannels } from './shared/channels.js';
import { awsRuntimeParts } from './shared/parts.js';
import { responder } from './shared/respond.js';

// The HTTP side only: the webhook runs no conversation, so it bundles no assistant.
const { http } = createHttpRuntime({ ...awsRuntimeParts, channels: deploymentChannels });

/**
 * The HTTP API behind API Gateway: health, version, the REST channel, the tracker and the
 * messaging channels' webhooks.
 */
export const handler = httpHandler(
  { ok: 'RequestsServed', refused: 'RequestsRefused', failed: 'RequestsFailed' },
  responder(http, {
    notConfigured: 'the REST channel is not configured',
    missing: 'the REST token secret is missing: create it, or deploy without auth',
    blank: 'the REST token secret is empty: put a token in it, or deploy without auth',
    ...(env.REST_TOKEN_SECRET ? { blankSecret: env.REST_TOKEN_SECRET } : {}),
  }),
);
