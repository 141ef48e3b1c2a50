import { describe, expect, it } from 'vitest';
import {
  A2ARequestError,
  A2AUnavailableError,
  a2aFailure,
  describeA2AFailure,
  httpStatusOf,
  isTransientA2AFailure,
} from '../../../src/a2a/errors.js';
import { McpRequestError, McpUnavailableError } from '../../../src/mcp/errors.js';
import { codeOf, isTransient } from '../../../src/resilience/index.js';

const keep = (text: string) => text;

/** A failed connection as fetch reports it. */
const refused = () =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });

describe('A2AUnavailableError', () => {
  it('names the agent, says a later try may succeed and keeps its cause and wait', () => {
    const cause = new Error('connect ECONNREFUSED');

    const error = new A2AUnavailableError('shop', 'could not be reached', {
      cause,
      retryAfterMs: 30_000,
    });

    expect(String(error)).toBe('A2AUnavailableError: A2A agent shop: could not be reached');
    expect(codeOf(error)).toBe('A2A_UNAVAILABLE');
    expect(isTransient(error)).toBe(true);
    expect(error.agentName).toBe('shop');
    expect(error.cause).toBe(cause);
    expect(error.retryAfterMs).toBe(30_000);
  });
});

describe('A2ARequestError', () => {
  it('names the agent and says trying again will not help', () => {
    const cause = new Error('bad request');

    const error = new A2ARequestError('shop', 'refused the message', { cause });

    expect(String(error)).toBe('A2ARequestError: A2A agent shop: refused the message');
    expect(codeOf(error)).toBe('A2A_REQUEST_REFUSED');
    expect(isTransient(error)).toBe(false);
    expect(error.agentName).toBe('shop');
    expect(error.cause).toBe(cause);
  });
});

describe('httpStatusOf', () => {
  it('reads the status of each way the SDK names one', () => {
    expect(
      httpStatusOf(new Error('HTTP error for message/send! Status: 503 Service Unavailable.')),
    ).toBe(503);
    expect(
      httpStatusOf(new Error('HTTP error establishing stream for message/stream: 429 Too Many')),
    ).toBe(429);
    expect(
      httpStatusOf(
        new Error('Failed to fetch Agent Card from https://a.example/.well-known/agent.json: 404'),
      ),
    ).toBe(404);
  });

  it('reads no status from a longer number, a message without one, or what is not an Error', () => {
    expect(httpStatusOf(new Error('HTTP error for message/send! Status: 5030'))).toBeUndefined();
    expect(httpStatusOf(new Error('the agent said 503'))).toBeUndefined();
    expect(httpStatusOf('HTTP error for message/send! Status: 503')).toBeUndefined();
    expect(httpStatusOf({ message: 'Status: 503' })).toBeUndefined();
  });
});

describe('isTransientA2AFailure', () => {
  it('takes an error of ours at its word, whatever status its message names', () => {
    expect(isTransientA2AFailure(new McpRequestError('x', 'Status: 503 from upstream'))).toBe(
      false,
    );
    expect(isTransientA2AFailure(new McpUnavailableError('x', 'Status: 400 from upstream'))).toBe(
      true,
    );
  });

  it('retries 408, 429 and 5xx answers but not other refusals, even from a failed connection', () => {
    expect(isTransientA2AFailure(new Error('Status: 408 Request Timeout'))).toBe(true);
    expect(isTransientA2AFailure(new Error('Status: 429 Too Many Requests'))).toBe(true);
    expect(isTransientA2AFailure(new Error('Status: 500 Internal Server Error'))).toBe(true);
    expect(isTransientA2AFailure(new Error('Status: 404 Not Found'))).toBe(false);
    const refusedWithStatus = new TypeError('fetch failed: Status: 401 Unauthorized', {
      cause: refused().cause,
    });
    expect(isTransientA2AFailure(refusedWithStatus)).toBe(false);
  });

  it('retries a failed connection or a timeout, not another error', () => {
    expect(isTransientA2AFailure(refused())).toBe(true);
    expect(isTransientA2AFailure(new DOMException('too slow', 'TimeoutError'))).toBe(true);
    expect(isTransientA2AFailure(new Error('the card has no name'))).toBe(false);
    expect(isTransientA2AFailure('fetch failed')).toBe(false);
  });
});

describe('describeA2AFailure', () => {
  it('names an HTTP refusal by its status only, leaving out the body the agent sent', () => {
    const error = new Error(
      'HTTP error for message/send! Status: 502 Bad Gateway. Response: <html>',
    );

    expect(describeA2AFailure(error, keep)).toBe('the agent answered HTTP 502');
  });

  it('says a request timed out in words, and gives other errors their message', () => {
    expect(
      describeA2AFailure(
        new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
        keep,
      ),
    ).toBe('the request timed out');
    expect(describeA2AFailure(new Error('the card has no name'), keep)).toBe(
      'the card has no name',
    );
    expect(describeA2AFailure('a thrown string', keep)).toBe('a thrown string');
  });

  it('removes credentials and cuts a long reason short', () => {
    const redact = (text: string) => text.replaceAll('sk-secret', '[redacted]');

    expect(describeA2AFailure(new Error('key sk-secret refused'), redact)).toBe(
      'key [redacted] refused',
    );
    const long = describeA2AFailure(new Error('x'.repeat(400)), keep);
    expect(long).toBe(`${'x'.repeat(300)}…`);
  });
});

describe('a2aFailure', () => {
  it('passes an A2A error on as it is', () => {
    const unavailable = new A2AUnavailableError('other', 'down');
    const refusedRequest = new A2ARequestError('other', 'no');

    expect(a2aFailure('shop', unavailable, keep, 5000)).toBe(unavailable);
    expect(a2aFailure('shop', refusedRequest, keep)).toBe(refusedRequest);
  });

  it('wraps a transient failure as unavailable, with its cause and the wait the agent asked for', () => {
    const cause = new Error('HTTP error for message/send! Status: 503 Service Unavailable.');

    const error = a2aFailure('shop', cause, keep, 12_000);

    expect(error).toBeInstanceOf(A2AUnavailableError);
    expect(error.message).toBe('A2A agent shop: the agent answered HTTP 503');
    expect(error.cause).toBe(cause);
    expect(error.retryAfterMs).toBe(12_000);
  });

  it('wraps any other failure as refused, with its redacted reason and its cause', () => {
    const cause = new Error('token sk-secret is not valid');
    const redact = (text: string) => text.replaceAll('sk-secret', '[redacted]');

    const error = a2aFailure('shop', cause, redact, 12_000);

    expect(error).toBeInstanceOf(A2ARequestError);
    expect(error.message).toBe('A2A agent shop: token [redacted] is not valid');
    expect(error.cause).toBe(cause);
    expect(error.retryAfterMs).toBeUndefined();
  });
});
