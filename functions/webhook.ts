import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { SecretNotFoundError } from '../src/adapters/secretErrors.js';
import {
  BlankTokenError,
  createRuntime,
  type HttpRequest,
  type HttpResponse,
} from '../src/runtime/index.js';
import { httpRequestOf, jsonResult } from './shared/apiGateway.js';
import { env } from './shared/aws.js';
import { describeError, lambdaHandler, logger, metrics } from './shared/observability.js';
import { awsRuntimeParts } from './shared/parts.js';

// The HTTP side only: the webhook runs no conversation, so it bundles no assistant.
const { http } = createRuntime(awsRuntimeParts);

const NOT_CONFIGURED: HttpResponse = {
  status: 503,
  body: { error: 'the REST channel is not configured' },
};

/** The HTTP API behind API Gateway: health, the REST channel and the tracker. */
export const handler = lambdaHandler(
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    logger.setCorrelationId(event.requestContext.requestId);
    const response = await respond(httpRequestOf(event));
    metrics.addMetric(outcomeMetric(response.status), MetricUnit.Count, 1);
    return jsonResult(response);
  },
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

function outcomeMetric(status: number): string {
  if (status < 400) return 'RequestsServed';
  return status < 500 ? 'RequestsRefused' : 'RequestsFailed';
}
