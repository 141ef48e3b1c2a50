import { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { HttpRequest, HttpResponse } from '../../src/runtime/channel.js';
import { countOutcome, type OutcomeMetrics } from './apiGateway.js';
import { lambdaHandler, logger } from './observability.js';

/**
 * An API Gateway REST API (payload 1.0) request as the HTTP API reads it. The stage goes along as
 * `X-Forwarded-Prefix`, as a proxy's path prefix would, so that URLs the answer names (the A2A
 * card's) include it.
 */
export function restRequestOf(event: APIGatewayProxyEvent): HttpRequest {
  const body =
    event.body === null
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    for (const value of values ?? []) query.append(name, value);
  }
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return {
    method: event.httpMethod,
    path: `${event.path}${search}`,
    headers: {
      // A caller's own X-Forwarded-Prefix, in any letter case, must not name the card's URLs.
      ...Object.fromEntries(
        Object.entries(event.headers).filter(
          ([name]) => name.toLowerCase() !== 'x-forwarded-prefix',
        ),
      ),
      'x-forwarded-prefix': `/${event.requestContext.stage}`,
    },
    ...(body === undefined ? {} : { body }),
  };
}

/** What a streaming handler answers: middy streams the body, after the status and headers. */
export interface StreamedResult {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: Readable;
}

export function streamedResult(response: HttpResponse): StreamedResult {
  if (response.stream) {
    return {
      statusCode: response.status,
      headers: { 'content-type': 'text/event-stream', ...response.headers },
      body: Readable.from(response.stream),
    };
  }
  return {
    statusCode: response.status,
    headers: { ...response.headers, 'content-type': 'application/json' },
    body: Readable.from(response.body === undefined ? [] : [JSON.stringify(response.body)]),
  };
}

/**
 * A handler behind a REST API route with response streaming: each request, with its request id
 * as the logs' correlation id, answered by `respond` a chunk at a time when it streams, and its
 * outcome counted.
 */
export function streamingHttpHandler(
  outcomes: OutcomeMetrics,
  respond: (request: HttpRequest) => Promise<HttpResponse>,
) {
  return lambdaHandler(
    async (event: APIGatewayProxyEvent): Promise<StreamedResult> => {
      logger.setCorrelationId(event.requestContext.requestId);
      const response = await respond(restRequestOf(event));
      countOutcome(outcomes, response.status);
      return streamedResult(response);
    },
    { streamifyResponse: true },
  );
}
