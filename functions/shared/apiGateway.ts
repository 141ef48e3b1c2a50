import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { HttpRequest } from '../../src/channels/httpApi.js';

/** The largest body the webhook reads, as the local server. */
export const MAX_BODY_BYTES = 256 * 1024;

/** An API Gateway HTTP API (payload 2.0) request as the HTTP contract reads it. */
export function httpRequestOf(event: APIGatewayProxyEventV2): HttpRequest {
  const body =
    event.body === undefined
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
  return {
    method: event.requestContext.http.method,
    path: event.rawPath,
    headers: event.headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** A JSON response for API Gateway. */
export function jsonResult(status: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}
