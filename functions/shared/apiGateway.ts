import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { HttpRequest, HttpResponse } from '../../src/runtime/channel.js';
import { lambdaHandler, logger, metrics } from './observability.js';

/** An API Gateway HTTP API (payload 2.0) request as the HTTP API reads it. */
export function httpRequestOf(event: APIGatewayProxyEventV2): HttpRequest {
  const body =
    event.body === undefined
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
  // The query string goes along: the tracker pages with it, and a token may come in it.
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  return {
    method: event.requestContext.http.method,
    path: `${event.rawPath}${query}`,
    headers: event.headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** A JSON response for API Gateway; without a body when the response has none (HEAD). */
export function jsonResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: response.status,
    headers: { ...response.headers, 'content-type': 'application/json' },
    ...(response.body === undefined ? {} : { body: JSON.stringify(response.body) }),
  };
}

/** The metric counted for each answer, by its class: under 400, 4xx, 5xx. */
export interface OutcomeMetrics {
  readonly ok: string;
  readonly refused: string;
  readonly failed: string;
}

/** Counts an answer under its class's metric. */
export function countOutcome(outcomes: OutcomeMetrics, status: number): void {
  const metric = status < 400 ? outcomes.ok : status < 500 ? outcomes.refused : outcomes.failed;
  metrics.addMetric(metric, MetricUnit.Count, 1);
}

/**
 * A handler behind the HTTP API: each request, with its request id as the logs' correlation id,
 * answered by `respond` as JSON, and its outcome counted.
 */
export function httpHandler(
  outcomes: OutcomeMetrics,
  respond: (request: HttpRequest) => Promise<HttpResponse>,
) {
  return lambdaHandler(
    async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
      logger.setCorrelationId(event.requestContext.requestId);
      const response = await respond(httpRequestOf(event));
      countOutcome(outcomes, response.status);
      return jsonResult(response);
    },
  );
}
