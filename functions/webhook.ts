import { SecretNotFoundError } from '../src/adapters/secretErrors.js';
import { describeError } from '../src/resilience/index.js';
import {
  BlankTokenError,
  createRuntime,
  type HttpRequest,
  type HttpResponse,
} from '../src/runtime/index.js';
import { httpHandler } from './shared/apiGateway.js';
import { env } from './shared/aws.js';
import { logger } from './shared/observability.js';
import { awsRuntimeParts } from './shared/parts.js';

// The HTTP side only: the webhook runs no conversation, so it bundles no assistant.
const { http } = createRuntime(awsRuntimeParts);

const NOT_CONFIGURED: HttpResponse = {
  status: 503,
  body: { error: 'the REST channel is not configured' },
};

/** The HTTP API behind API Gateway: health, version, the REST channel and the tracker. */
export const handler = httpHandler(
  { ok: 'RequestsServed', refused: 'RequestsRefused', failed: 'RequestsFailed' },
  respond,
);

async function respond(request: HttpRequest): Promise<HttpResponse> {
  try {
    return await http.handle(request);
  } catch (error) {
    if (error instanceof SecretNotFoundError) {
      logger.error('the REST token secret is missing: create it, or deploy without auth', {
        secret: error.secret,
      });
      return NOT_CONFIGURED;
    }
    if (error instanceof BlankTokenError) {
      logger.error('the REST token secret is empty: put a token in it, or deploy without auth', {
        secret: env.REST_TOKEN_SECRET,
      });
      return NOT_CONFIGURED;
    }
    logger.error('request failed', { error: describeError(error) });
    return { status: 500, body: { error: 'internal error' } };
  }
}
