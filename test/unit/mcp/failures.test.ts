import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { McpRequestError, McpUnavailableError, OAuthTokenError } from '../../../src/mcp/errors.js';
import {
  classifyFailure,
  describeFailure,
  isUnknownToolResult,
} from '../../../src/mcp/failures.js';
import { redact } from '../../../src/resilience/index.js';

/** An error as Node's network stack raises it: a message and a code such as `ECONNREFUSED`. */
function networkError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** An error of the SSE stream, with the status it was answered with if any. */
function sseError(status: number | undefined, message: string): SseError {
  // The event the error carries along; nothing here reads it.
  const event = { type: 'error', code: status, message } as ConstructorParameters<
    typeof SseError
  >[2];
  return new SseError(status, message, event);
}

/** How the SSE transport reports a POST the server refused. */
function ssePostRefused(status: number): Error {
  return new Error(`Error POSTing to endpoint (HTTP ${status}): the server's own words`);
}

describe('classifyFailure', () => {
  it("takes our own errors' word on whether a later try may succeed", () => {
    const refusedAfterNetworkFailure = new OAuthTokenError(
      'https://auth.example/token',
      'refused the client',
      false,
      { cause: networkError('connect ECONNREFUSED', 'ECONNREFUSED') },
    );

    expect(classifyFailure(new McpUnavailableError('weather', 'timed out'))).toBe('unavailable');
    expect(classifyFailure(new McpRequestError('weather', 'refused'))).toBe('request');
    expect(classifyFailure(refusedAfterNetworkFailure)).toBe('request');
  });

  it('calls a transport failure without an HTTP status unavailable', () => {
    expect(classifyFailure(sseError(undefined, 'fetch failed'))).toBe('unavailable');
    expect(classifyFailure(new StreamableHTTPError(-1, 'Unexpected content type: text/html'))).toBe(
      'unavailable',
    );
  });

  it('calls 401 unauthorized, whether connecting or not', () => {
    expect(classifyFailure(new StreamableHTTPError(401, 'no'), true)).toBe('unauthorized');
    expect(classifyFailure(new StreamableHTTPError(401, 'no'))).toBe('unauthorized');
    expect(classifyFailure(sseError(401, 'no'))).toBe('unauthorized');
  });

  it('takes 400, 404 and 405 to the first request for a server that only speaks SSE', () => {
    for (const status of [400, 404, 405]) {
      expect(classifyFailure(new StreamableHTTPError(status, 'no'), true)).toBe('legacy-server');
    }
  });

  it('classifies other statuses to the first request as it does later ones', () => {
    expect(classifyFailure(new StreamableHTTPError(403, 'no'), true)).toBe('request');
    expect(classifyFailure(new StreamableHTTPError(503, 'busy'), true)).toBe('unavailable');
  });

  it('takes a 404 to a later request for a lost session and 400 or 405 for a refused request', () => {
    expect(classifyFailure(new StreamableHTTPError(404, 'no session'))).toBe('session-lost');
    expect(classifyFailure(new StreamableHTTPError(400, 'bad'))).toBe('request');
    expect(classifyFailure(new StreamableHTTPError(405, 'no'))).toBe('request');
  });

  it('calls 408, 429 and 5xx unavailable and other statuses refused requests', () => {
    for (const status of [408, 429, 500, 503]) {
      expect(classifyFailure(new StreamableHTTPError(status, 'later'))).toBe('unavailable');
    }
    for (const status of [403, 409, 422]) {
      expect(classifyFailure(new StreamableHTTPError(status, 'no'))).toBe('request');
    }
  });

  it('reads the status of a POST the SSE transport reports as a plain error', () => {
    expect(classifyFailure(ssePostRefused(503))).toBe('unavailable');
    expect(classifyFailure(ssePostRefused(401))).toBe('unauthorized');
    expect(classifyFailure(ssePostRefused(404))).toBe('session-lost');
    expect(classifyFailure(ssePostRefused(404), true)).toBe('legacy-server');
  });

  it('does not take a status from an error that only quotes an SSE failure', () => {
    expect(
      classifyFailure(new Error('the tool said: Error POSTing to endpoint (HTTP 503): busy')),
    ).toBe('request');
    expect(classifyFailure({ message: 'Error POSTing to endpoint (HTTP 503): busy' })).toBe(
      'request',
    );
  });

  it('calls a timed out request or a closed connection unavailable, other protocol errors refused', () => {
    expect(classifyFailure(new McpError(ErrorCode.RequestTimeout, 'timed out'))).toBe(
      'unavailable',
    );
    expect(classifyFailure(new McpError(ErrorCode.ConnectionClosed, 'closed'))).toBe('unavailable');
    expect(classifyFailure(new McpError(ErrorCode.MethodNotFound, 'no such method'))).toBe(
      'request',
    );
    expect(classifyFailure(new McpError(ErrorCode.InvalidParams, 'bad arguments'))).toBe('request');
  });

  it('calls a network failure unavailable and any other error or value a refused request', () => {
    expect(classifyFailure(networkError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'))).toBe(
      'unavailable',
    );
    expect(classifyFailure(new Error('boom'))).toBe('request');
    expect(classifyFailure('boom')).toBe('request');
    expect(classifyFailure(null)).toBe('request');
  });
});

describe('describeFailure', () => {
  it('names an HTTP failure by its status only, not by the body the server answered', () => {
    expect(describeFailure(new StreamableHTTPError(503, 'Error POSTing to endpoint: echo'))).toBe(
      'the server answered HTTP 503',
    );
    expect(describeFailure(sseError(401, 'Unauthorized'))).toBe('the server answered HTTP 401');
    expect(describeFailure(ssePostRefused(502))).toBe('the server answered HTTP 502');
  });

  it('gives the message of a transport failure that has no status', () => {
    expect(describeFailure(sseError(undefined, 'fetch failed'))).toBe('SSE error: fetch failed');
    expect(describeFailure(new StreamableHTTPError(-1, 'Unexpected content type: text/html'))).toBe(
      'Streamable HTTP error: Unexpected content type: text/html',
    );
  });

  it('gives the message of an error that only quotes an SSE failure', () => {
    expect(
      describeFailure(new Error('the tool said: Error POSTing to endpoint (HTTP 503): busy')),
    ).toBe('the tool said: Error POSTing to endpoint (HTTP 503): busy');
  });

  it('adds the network code a message does not already name', () => {
    expect(describeFailure(networkError('connect failed', 'ECONNREFUSED'))).toBe(
      'connect failed (ECONNREFUSED)',
    );
    expect(describeFailure(networkError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('writes out a thrown value that is not an error, without the credentials', () => {
    const withoutToken = (text: string) => redact(text, ['s3cr3t-token']);

    expect(describeFailure('refused s3cr3t-token', withoutToken)).toBe('refused [redacted]');
    expect(describeFailure(null)).toBe('null');
  });

  it('takes the credentials out of an error message and keeps it short', () => {
    const withoutToken = (text: string) => redact(text, ['s3cr3t-token']);

    expect(describeFailure(new Error('bad token s3cr3t-token'), withoutToken)).toBe(
      'bad token [redacted]',
    );
    expect(describeFailure(new Error('x'.repeat(400)))).toBe(`${'x'.repeat(300)}…`);
  });
});

describe('isUnknownToolResult', () => {
  /** An error result holding `content`. */
  function errorResult(...content: unknown[]) {
    return { isError: true, content };
  }

  it('recognises the ways servers say they have no such tool', () => {
    expect(
      isUnknownToolResult(errorResult({ type: 'text', text: 'Tool get_weather not found' })),
    ).toBe(true);
    expect(
      isUnknownToolResult(errorResult({ type: 'text', text: 'Unknown tool: get_weather' })),
    ).toBe(true);
    expect(
      isUnknownToolResult(errorResult({ type: 'text', text: 'Tool get_weather disabled' })),
    ).toBe(true);
  });

  it('finds the refusal among other parts', () => {
    expect(
      isUnknownToolResult(
        errorResult(
          { type: 'image', data: 'aGVsbG8=' },
          { type: 'text', text: 'Tool get_weather not found' },
        ),
      ),
    ).toBe(true);
  });

  it('does not take other failures for an unknown tool', () => {
    expect(isUnknownToolResult(errorResult({ type: 'text', text: 'City not found' }))).toBe(false);
    expect(isUnknownToolResult(errorResult())).toBe(false);
  });

  it('reads only text parts whose text is a string', () => {
    expect(
      isUnknownToolResult(
        errorResult(
          null,
          'Unknown tool: get_weather',
          42,
          { type: 'text', text: ['Unknown tool: get_weather'] },
          { type: 'image', data: 'aGVsbG8=' },
        ),
      ),
    ).toBe(false);
  });
});
