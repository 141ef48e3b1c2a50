import { afterEach, describe, expect, it } from 'vitest';
import { McpRequestError } from '../../../src/mcp/index.js';
import {
  startTestMcpServer,
  type TestMcpServer,
  testTokenEndpoint,
} from '../../helpers/mcpTestServer.js';
import { FLOW_CALL, gatewayOf, secretsOf, serverConfig } from './fixtures.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function server(options: Parameters<typeof startTestMcpServer>[0]): Promise<TestMcpServer> {
  const started = await startTestMcpServer(options);
  open.push(started);
  return started;
}

const echo = (serverName: string) => ({
  ...FLOW_CALL,
  serverName,
  toolName: 'echo',
  arguments: { text: 'hi' },
});

describe('MCP server authentication', () => {
  it('sends an api_key as Authorization: Bearer <key> on every request', async () => {
    const peer = await server({ authorize: (r) => r.headers.authorization === 'Bearer key-1' });
    const gateway = gatewayOf([serverConfig('s', peer.url, { api_key: { secret: 'S_KEY' } })], {
      secrets: secretsOf({ S_KEY: 'key-1' }),
    });
    open.push(gateway);

    const result = await gateway.call(echo('s'));

    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'hi' }] });
    expect(peer.requests.length).toBeGreaterThan(1);
    expect(peer.requests.every((h) => h.authorization === 'Bearer key-1')).toBe(true);
  });

  it('puts an api_key in header_name, formatted by header_format', async () => {
    const peer = await server({ authorize: (r) => r.headers['x-api-key'] === 'key-2' });
    const gateway = gatewayOf(
      [
        serverConfig('s', peer.url, {
          api_key: { secret: 'S_KEY' },
          header_name: 'X-API-Key',
          header_format: '{key}',
        }),
      ],
      { secrets: secretsOf({ S_KEY: 'key-2' }) },
    );
    open.push(gateway);

    await gateway.call(echo('s'));

    expect(peer.calls).toHaveLength(1);
    expect(peer.requests.every((h) => h.authorization === undefined)).toBe(true);
  });

  it('formats the default header with a header_format of its own', async () => {
    const peer = await server({ authorize: (r) => r.headers.authorization === 'Token key-3' });
    const gateway = gatewayOf(
      [serverConfig('s', peer.url, { api_key: { secret: 'K' }, header_format: 'Token {key}' })],
      { secrets: secretsOf({ K: 'key-3' }) },
    );
    open.push(gateway);

    await expect(gateway.call(echo('s'))).resolves.toMatchObject({ isError: false });
  });

  it('sends a pre-issued token as a bearer token', async () => {
    const peer = await server({ authorize: (r) => r.headers.authorization === 'Bearer tok-1' });
    const gateway = gatewayOf([serverConfig('s', peer.url, { token: { secret: 'T' } })], {
      secrets: secretsOf({ T: 'tok-1' }),
    });
    open.push(gateway);

    await expect(gateway.call(echo('s'))).resolves.toMatchObject({ isError: false });
  });

  it('is refused without retrying when a static credential is wrong', async () => {
    const peer = await server({ authorize: (r) => r.headers.authorization === 'Bearer right' });
    const gateway = gatewayOf([serverConfig('s', peer.url, { token: { secret: 'T' } })], {
      secrets: secretsOf({ T: 'wrong' }),
    });
    open.push(gateway);

    await expect(gateway.call(echo('s'))).rejects.toBeInstanceOf(McpRequestError);
    expect(peer.requests).toHaveLength(1);
  });
});

describe('OAuth 2.0 client credentials', () => {
  async function oauthPeer(lifetimeSeconds: number) {
    const tokens = testTokenEndpoint({
      clientId: 'app',
      clientSecret: 'client-secret-1',
      lifetimeSeconds,
    });
    const peer = await server({ authorize: tokens.accepts, routes: tokens.route });
    let now = 1_000_000;
    const clock = {
      now: () => now,
      advance: (ms: number) => {
        now += ms;
      },
    };
    const gateway = gatewayOf(
      [
        serverConfig('s', peer.url, {
          oauth: {
            client_id: 'app',
            client_secret: { secret: 'CLIENT_SECRET' },
            token_url: `http://127.0.0.1:${peer.port}/oauth/token`,
            scope: 'tools:read tools:write',
            audience: 'test-server',
            timeout: 5,
          },
        }),
      ],
      { secrets: secretsOf({ CLIENT_SECRET: 'client-secret-1' }), now: clock.now },
    );
    open.push(gateway);
    return { tokens, peer, gateway, clock };
  }

  it('asks the token endpoint once and sends the token until shortly before it expires', async () => {
    const { tokens, peer, gateway, clock } = await oauthPeer(600);

    await gateway.call(echo('s'));
    await gateway.call(echo('s'));
    clock.advance(539_000);
    await gateway.call(echo('s'));
    expect(tokens.issued).toEqual(['token-1']);

    // Within a tenth of its life (at most a minute) of expiring, the token is renewed.
    clock.advance(2_000);
    await gateway.call(echo('s'));

    expect(tokens.issued).toEqual(['token-1', 'token-2']);
    expect(peer.calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-1',
      'Bearer token-1',
      'Bearer token-2',
    ]);
    const form = Object.fromEntries(tokens.requests[0] ?? []);
    expect(form).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: 'client-secret-1',
      scope: 'tools:read tools:write',
      audience: 'test-server',
    });
  });

  it('renews a token the server refuses with 401, once, and the call goes through', async () => {
    const { tokens, peer, gateway } = await oauthPeer(3600);
    await gateway.call(echo('s'));
    tokens.revoke('token-1');

    await gateway.call(echo('s'));

    expect(tokens.issued).toEqual(['token-1', 'token-2']);
    expect(peer.calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
  });

  it('gives up after one renewal when the new token is refused too', async () => {
    const { tokens, peer, gateway } = await oauthPeer(3600);
    await gateway.call(echo('s'));
    tokens.revoke('token-1');
    tokens.revoke('token-2');

    await expect(gateway.call(echo('s'))).rejects.toBeInstanceOf(McpRequestError);

    expect(tokens.issued).toEqual(['token-1', 'token-2']);
    expect(peer.calls).toHaveLength(1);
  });

  it('reports a refused client without its secret', async () => {
    const tokens = testTokenEndpoint({
      clientId: 'app',
      clientSecret: 'right',
      lifetimeSeconds: 60,
    });
    const peer = await server({ authorize: tokens.accepts, routes: tokens.route });
    const gateway = gatewayOf(
      [
        serverConfig('s', peer.url, {
          oauth: {
            client_id: 'app',
            client_secret: { secret: 'CLIENT_SECRET' },
            token_url: `http://127.0.0.1:${peer.port}/oauth/token`,
          },
        }),
      ],
      { secrets: secretsOf({ CLIENT_SECRET: 'not-the-secret' }) },
    );
    open.push(gateway);

    const failure = await gateway.call(echo('s')).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect(String(failure)).toContain('answered 401: invalid_client');
    expect(String(failure)).not.toContain('not-the-secret');
    expect(peer.calls).toHaveLength(0);
  });
});
