import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { SqsJobQueue } from '../src/adapters/aws/sqsJobQueue.js';
import { SecretNotFoundError } from '../src/adapters/secretErrors.js';
import {
  type HttpApiDeps,
  type HttpRequest,
  type HttpResponse,
  handleHttp,
} from '../src/channels/httpApi.js';
import { httpRequestOf, jsonResult, MAX_BODY_BYTES } from './shared/apiGateway.js';
import { env, namedSecrets, queueOptions } from './shared/aws.js';
import { describeError, lambdaHandler, logger, metrics } from './shared/observability.js';
import { conversations, replies } from './shared/stores.js';

const api: HttpApiDeps = {
  queue: new SqsJobQueue(queueOptions),
  replies,
  store: conversations,
  newId: randomUUID,
  now: () => Date.now(),
  sleep: (ms) => sleep(ms),
  replyWaitMs: env.REPLY_WAIT_MS,
};

/** The HTTP contract behind API Gateway: health, the REST channel and the tracker. */
export const handler = lambdaHandler(
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    logger.setCorrelationId(event.requestContext.requestId);
    const response = await respond(httpRequestOf(event));
    metrics.addMetric(outcomeMetric(response.status), MetricUnit.Count, 1);
    return jsonResult(response.status, response.body);
  },
);

async function respond(request: HttpRequest): Promise<HttpResponse> {
  if (request.body !== undefined && Buffer.byteLength(request.body) > MAX_BODY_BYTES) {
    return { status: 413, body: { error: `the body is larger than ${MAX_BODY_BYTES} bytes` } };
  }
  try {
    const authToken = isHealthCheck(request) ? undefined : await restToken();
    return await handleHttp(request, authToken ? { ...api, authToken } : api);
  } catch (error) {
    if (error instanceof SecretNotFoundError) {
      logger.error('the REST token secret is missing: create it, or deploy without auth', {
        secret: error.secret,
      });
      return { status: 503, body: { error: 'the REST channel is not configured' } };
    }
    logger.error('request failed', { error: describeError(error) });
    return { status: 500, body: { error: 'internal error' } };
  }
}

function outcomeMetric(status: number): string {
  if (status < 400) return 'RequestsServed';
  return status < 500 ? 'RequestsRefused' : 'RequestsFailed';
}

/** The bearer token requests must carry, when the deployment names a secret for it. */
async function restToken(): Promise<string | undefined> {
  return env.REST_TOKEN_SECRET === undefined ? undefined : namedSecrets.get(env.REST_TOKEN_SECRET);
}

function isHealthCheck(request: HttpRequest): boolean {
  const path = request.path.split('?')[0];
  return request.method === 'GET' && (path === '/health' || path === '/');
}
