import { SecretNotFoundError } from '../src/adapters/secretErrors.js';
import { a2aPushChannel } from '../src/channels/a2aPush.js';
import { describeError } from '../src/resilience/index.js';
import { createHttpRuntime, type HttpRequest, type HttpResponse } from '../src/runtime/index.js';
import { httpHandler } from './shared/apiGateway.js';
import { env, pushKeyOf } from './shared/aws.js';
import { logger } from './shared/observability.js';
import { awsRuntimeParts } from './shared/parts.js';

const pushKey = pushKeyOf(env.A2A_PUSH_KEY_SECRET);

// The receiver only: a notification becomes a job of its run; the worker applies it.
const { http } = createHttpRuntime({
  ...awsRuntimeParts,
  channels: (context) => (pushKey ? [a2aPushChannel(context, { pushKey })] : []),
});

const NOT_CONFIGURED: HttpResponse = {
  status: 503,
  body: { error: 'the A2A push receiver is not configured' },
};

/** `POST /a2a/push/{sender}/{run}` behind API Gateway: A2A push notifications of running tasks. */
export const handler = httpHandler(
  { ok: 'NotificationsAccepted', refused: 'NotificationsRefused', failed: 'NotificationsFailed' },
  respond,
);

async function respond(request: HttpRequest): Promise<HttpResponse> {
  if (!pushKey) {
    logger.error('no A2A_PUSH_KEY_SECRET is set: the receiver cannot check notifications');
    return NOT_CONFIGURED;
  }
  try {
    return await http.handle(request);
  } catch (error) {
    if (error instanceof SecretNotFoundError) {
      logger.error('the A2A push key secret is missing', { secret: error.secret });
      return NOT_CONFIGURED;
    }
    logger.error('notification failed', { error: describeError(error) });
    return { status: 500, body: { error: 'internal error' } };
  }
}
