import { describe, expect, it } from 'vitest';
import { serverAuth } from '../../../src/mcp/index.js';
import { secretsOf } from '../../integration/mcp/fixtures.js';

/** A token endpoint without any I/O: each request gets the next numbered token. */
function tokenEndpoint() {
  let issued = 0;
  const fetchFn: typeof fetch = async () => {
    issued += 1;
    return new Response(JSON.stringify({ access_token: `token-${issued}`, expires_in: 3600 }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetchFn, issued: () => issued };
}

describe('serverAuth', () => {
  it('sends an api_key as Authorization: Bearer <key>, and cannot renew it', async () => {
    const auth = serverAuth({ api_key: { secret: 'S_KEY' } }, secretsOf({ S_KEY: 'key-1' }));

    const headers = await auth.headers();
    const renewed = auth.renew();

    expect(headers).toEqual({ Authorization: 'Bearer key-1' });
    expect(renewed).toBe(false);
  });

  it('puts an api_key in header_name, formatted by header_format, with a $ in the key kept', async () => {
    const auth = serverAuth(
      { api_key: { secret: 'S_KEY' }, header_name: 'X-API-Key', header_format: 'Key {key}' },
      secretsOf({ S_KEY: 'k$&-2' }),
    );

    await expect(auth.headers()).resolves.toEqual({ 'X-API-Key': 'Key k$&-2' });
  });

  it('sends a pre-issued token as a bearer token, and cannot renew it', async () => {
    const auth = serverAuth({ token: { secret: 'T' } }, secretsOf({ T: 'tok-1' }));

    const headers = await auth.headers();
    const renewed = auth.renew();

    expect(headers).toEqual({ Authorization: 'Bearer tok-1' });
    expect(renewed).toBe(false);
  });

  it('sends no credentials when none are configured, and has none to renew', async () => {
    const auth = serverAuth({}, secretsOf({}));

    const headers = await auth.headers();
    const renewed = auth.renew();

    expect(headers).toEqual({});
    expect(renewed).toBe(false);
  });

  it('renews a refused OAuth token: the next request carries a new one', async () => {
    const endpoint = tokenEndpoint();
    const auth = serverAuth(
      {
        oauth: {
          client_id: 'app',
          client_secret: { secret: 'CLIENT_SECRET' },
          token_url: 'https://auth.example/oauth/token',
        },
      },
      secretsOf({ CLIENT_SECRET: 'client-secret-1' }),
      { now: () => 1_000_000, fetch: endpoint.fetchFn },
    );

    const first = await auth.headers();
    const again = await auth.headers();
    const renewed = auth.renew();
    const after = await auth.headers();

    expect([first, again, after]).toEqual([
      { Authorization: 'Bearer token-1' },
      { Authorization: 'Bearer token-1' },
      { Authorization: 'Bearer token-2' },
    ]);
    expect(renewed).toBe(true);
    expect(endpoint.issued()).toBe(2);
  });

  it('redacts the credentials it has sent from what the server says', async () => {
    const auth = serverAuth({ token: { secret: 'T' } }, secretsOf({ T: 'tok-secret-1' }));
    const before = auth.redact('401: bad token tok-secret-1');

    await auth.headers();

    expect(before).toBe('401: bad token tok-secret-1');
    expect(auth.redact('401: bad token tok-secret-1')).toBe('401: bad token [redacted]');
  });
});
