import { describe, expect, it } from 'vitest';
import {
  isTransientNetworkFailure,
  isTransientStatus,
  networkCodeOf,
  SwitchboardError,
} from '../../../src/resilience/index.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isTransientStatus', () => {
  it('tries again after a timeout, too many requests or a server error', () => {
    expect([408, 429, 500, 502, 503, 504].every(isTransientStatus)).toBe(true);
  });

  it('does not try again after a refusal or a redirect', () => {
    expect([200, 301, 400, 401, 403, 404, 409, 422].some(isTransientStatus)).toBe(false);
  });
});

describe('isTransientNetworkFailure', () => {
  it('tries again after a refused or reset connection, however deep its cause', () => {
    const refused = new TypeError('fetch failed', { cause: withCode('connect', 'ECONNREFUSED') });
    expect(isTransientNetworkFailure(refused)).toBe(true);
    const wrapped = new Error('socket', { cause: withCode('reset', 'ECONNRESET') });
    expect(isTransientNetworkFailure(withCode('outer', 'UND_ERR_SOCKET'))).toBe(false);
    expect(isTransientNetworkFailure(Object.assign(wrapped, { code: 'UND_ERR_SOCKET' }))).toBe(
      true,
    );
  });

  it('tries again after its own timeout or a stream cut short', () => {
    expect(isTransientNetworkFailure(new DOMException('late', 'TimeoutError'))).toBe(true);
    expect(isTransientNetworkFailure(new TypeError('terminated'))).toBe(true);
  });

  it('does not try again after a bug or anything that is not an error', () => {
    expect(isTransientNetworkFailure(new TypeError('x is not a function'))).toBe(false);
    expect(isTransientNetworkFailure('ECONNRESET')).toBe(false);
  });
});

describe('networkCodeOf', () => {
  it('names the first code along the causes, for a message the user can act on', () => {
    const error = new TypeError('fetch failed', { cause: withCode('connect', 'ENOTFOUND') });
    expect(networkCodeOf(error)).toBe('ENOTFOUND');
    expect(networkCodeOf(new Error('plain'))).toBeUndefined();
  });

  it('passes over the codes of our own errors, which are not network codes', () => {
    class SecretMissing extends SwitchboardError {
      readonly name = 'SecretMissing';
      readonly code = 'SECRET_NOT_FOUND';
    }
    expect(networkCodeOf(new SecretMissing('no secret'))).toBeUndefined();
    const wrapped = new SecretMissing('lookup failed', { cause: withCode('reset', 'ECONNRESET') });
    expect(networkCodeOf(wrapped)).toBe('ECONNRESET');
  });
});
