import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { HttpRequest, HttpResponse } from '../../src/runtime/channel.js';

/** An API Gateway HTTP API (payload 2.0) request as the HTTP API reads it. */
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

/** A JSON response for API Gateway; without a body when the response has none (HEAD). */
export function jsonResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: response.status,
    headers: { ...response.headers, 'content-type': 'application/json' },
    ...(response.body === undefined ? {} : { body: JSON.stringify(response.body) }),
  };
}
