import { describe, expect, it } from 'vitest';
import { McpRequestError, McpUnavailableError, OAuthTokenError } from '../../../src/mcp/index.js';
import {
  codeOf,
  isTransient,
  retryAfterOf,
  SwitchboardError,
  WireError,
} from '../../../src/resilience/index.js';
import { ConcurrentUpdateError, HttpError, isLostRace } from '../../../src/runtime/index.js';

class PeerBusyError extends WireError {
  override readonly name = 'PeerBusyError';
  override readonly code = 'PEER_BUSY';
}

class BrokenConfigError extends SwitchboardError {
  override readonly name = 'BrokenConfigError';
  override readonly code = 'BROKEN_CONFIG';
}

describe('SwitchboardError', () => {
  it('carries its name, code, transience, wait and cause for logs and retry decisions', () => {
    const cause = new Error('socket hang up');
    const error = new PeerBusyError('the peer is busy', {
      cause,
      transient: true,
      retryAfterMs: 2000,
      status: 503,
    });
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(String(error)).toBe('PeerBusyError: the peer is busy');
    expect(error).toMatchObject({ code: 'PEER_BUSY', transient: true, retryAfterMs: 2000 });
    expect(error.status).toBe(503);
    expect(error.cause).toBe(cause);
  });

  it('is not worth another try unless it says so, and has no cause unless given one', () => {
    const error = new BrokenConfigError('no such model group');
    expect(error.transient).toBe(false);
    expect(error.retryAfterMs).toBeUndefined();
    expect('cause' in error).toBe(false);
  });

  it('tells wire errors, with their status, from local ones', () => {
    expect(new HttpError(415, 'send JSON')).toBeInstanceOf(WireError);
    expect(new HttpError(415, 'send JSON').status).toBe(415);
    expect(new McpRequestError('calc', 'unknown tool')).toBeInstanceOf(WireError);
    expect(new BrokenConfigError('x')).not.toBeInstanceOf(WireError);
  });
});

describe('retry decisions', () => {
  it('retry a peer that was unavailable, and not one that refused', () => {
    expect(isTransient(new McpUnavailableError('calc', 'timed out'))).toBe(true);
    expect(isTransient(new McpRequestError('calc', 'unknown tool'))).toBe(false);
    expect(isTransient(new OAuthTokenError('https://idp/token', 'answered 503', true))).toBe(true);
    expect(isTransient(new OAuthTokenError('https://idp/token', 'refused', false))).toBe(false);
  });

  it('retry an error of a user’s hook that says it is transient, and nothing else', () => {
    expect(isTransient(Object.assign(new Error('busy'), { transient: true }))).toBe(true);
    expect(isTransient(Object.assign(new Error('busy'), { transient: 'yes' }))).toBe(false);
    expect(isTransient(new Error('bug'))).toBe(false);
    expect(isTransient(undefined)).toBe(false);
  });

  it('wait what the failure asked for, when it is a usable number of milliseconds', () => {
    expect(retryAfterOf(new PeerBusyError('busy', { retryAfterMs: 1500 }))).toBe(1500);
    expect(retryAfterOf(Object.assign(new Error('x'), { retryAfterMs: -1 }))).toBeUndefined();
    expect(retryAfterOf(Object.assign(new Error('x'), { retryAfterMs: '5' }))).toBeUndefined();
    expect(retryAfterOf(new Error('x'))).toBeUndefined();
  });

  it('run a job that lost a race again at once, read from its code', () => {
    const lost = new ConcurrentUpdateError('ada', 7);
    expect(codeOf(lost)).toBe('CONCURRENT_UPDATE');
    expect(isLostRace(lost)).toBe(true);
    expect(isLostRace(new McpUnavailableError('calc', 'timed out'))).toBe(false);
    expect(codeOf(new Error('plain'))).toBeUndefined();
  });
});
