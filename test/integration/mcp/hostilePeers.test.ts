import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../../src/mcp/connection.js';
import {
  McpRequestError,
  McpUnavailableError,
  serverAuth,
  toolResultText,
} from '../../../src/mcp/index.js';
import { startTestMcpServer } from '../../helpers/mcpTestServer.js';
import { freePort } from '../../helpers/serverEverything.js';
import { startSseTestServer } from '../../helpers/sseTestServer.js';
import { FLOW_CALL, gatewayOf, secretsOf, serverConfig } from './fixtures.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function connectionTo(url: string, extra: Parameters<typeof serverConfig>[2] = {}, secrets = {}) {
  const server = serverConfig('s', url, extra);
  const connection = new ServerConnection({ server, auth: serverAuth(server, secretsOf(secrets)) });
  open.push(connection);
  return connection;
}

describe('MCP servers over the legacy SSE transport', () => {
  it('connects again when an SSE server forgets the session', async () => {
    const server = await startSseTestServer();
    open.push(server);
    const connection = connectionTo(server.url);
    await connection.callTool({ name: 'echo', arguments: { text: 'one' } });

    server.dropSessions();
    const result = await connection.callTool({ name: 'echo', arguments: { text: 'two' } });

    expect(connection.transport).toBe('sse');
    expect(toolResultText(result)).toBe('two');
    expect(server.echoed).toEqual(['one', 'two']);
  });

  it('connects again over SSE straight away, once the server spoke only that', async () => {
    const server = await startSseTestServer();
    open.push(server);
    const sent: string[] = [];
    const config = serverConfig('s', server.url);
    const connection = new ServerConnection({
      server: config,
      auth: serverAuth(config, secretsOf({})),
      fetch: (input, init) => {
        sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    open.push(connection);
    await connection.callTool({ name: 'echo', arguments: { text: 'one' } });

    server.dropSessions();
    await connection.callTool({ name: 'echo', arguments: { text: 'two' } });

    expect(server.echoed).toEqual(['one', 'two']);
    expect(sent.filter((request) => request === 'POST /sse')).toHaveLength(1);
    expect(sent.filter((request) => request === 'GET /sse')).toHaveLength(2);
  });

  it.each([
    {
      status: 429,
      kind: McpUnavailableError,
      transient: true,
      as: 'unavailable, worth another try',
    },
    {
      status: 503,
      kind: McpUnavailableError,
      transient: true,
      as: 'unavailable, worth another try',
    },
    { status: 403, kind: McpRequestError, transient: false, as: 'a failed request, not to retry' },
  ])('reports HTTP $status from an SSE server as $as', async ({ status, kind, transient }) => {
    const server = await startSseTestServer();
    open.push(server);
    const connection = connectionTo(server.url);
    await connection.callTool({ name: 'echo', arguments: { text: 'one' } });

    server.failPosts(status, 1);
    const failure = await connection
      .callTool({ name: 'echo', arguments: { text: 'two' } }, { maxRetries: 0 })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(kind);
    expect(failure).toMatchObject({ transient });
    expect(String(failure)).toContain(`the server answered HTTP ${status}`);
  });
});

describe('connecting to MCP servers', () => {
  it('gives each of two first callers its own signal and retries', async () => {
    const port = await freePort();
    const connection = connectionTo(`http://127.0.0.1:${port}/mcp`);
    const impatient = new AbortController();
    const first = connection
      .callTool({ name: 'echo', arguments: { text: 'a' } }, { signal: impatient.signal })
      .catch((e: unknown) => e);
    const second = connection.callTool(
      { name: 'echo', arguments: { text: 'b' } },
      { maxRetries: 6 },
    );
    setTimeout(() => impatient.abort(new Error('the first caller gave up')), 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const server = await startTestMcpServer({ port });
    open.push(server);

    expect(String(await first)).toContain('the first caller gave up');
    await expect(second).resolves.toMatchObject({ content: [{ text: 'b' }] });
    expect(server.calls.map((c) => c.arguments.text)).toEqual(['b']);
  });

  it('sends an API key with $ in it as it is', async () => {
    const key = "k$$e$&y$'1";
    const server = await startTestMcpServer({
      authorize: (r) => r.headers['x-api-key'] === `Key ${key}`,
    });
    open.push(server);
    const connection = connectionTo(
      server.url,
      { api_key: { secret: 'K' }, header_name: 'X-API-Key', header_format: 'Key {key}' },
      { K: key },
    );

    await expect(
      connection.callTool({ name: 'echo', arguments: { text: 'x' } }),
    ).resolves.toMatchObject({ isError: false });
  });

  it('names a refusing server by its status, without its body or the credential it echoes', async () => {
    const http = createServer((request, response) => {
      const echoed = String(request.headers.authorization);
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`rejected ${echoed} ${'x'.repeat(300_000)}`);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => http.close(() => resolve())) });
    const { port } = http.address() as AddressInfo;
    const gateway = gatewayOf(
      [serverConfig('s', `http://127.0.0.1:${port}/mcp`, { token: { secret: 'T' } })],
      { secrets: secretsOf({ T: 'token-that-must-not-leak' }) },
    );
    open.push(gateway);

    const failure = await gateway
      .call({ ...FLOW_CALL, serverName: 's', toolName: 'echo', arguments: {} })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect(String(failure).length).toBeLessThan(400);
    expect(String(failure)).not.toContain('token-that-must-not-leak');
    expect(String(failure)).toContain('HTTP 400');
  });

  it('keeps a credential out of the reason when a server echoes it in a protocol error', async () => {
    const token = 'token-echoed-by-the-peer-0123456789';
    const http = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += String(chunk);
      });
      request.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        // Long enough that the echoed token straddles the point where reasons are cut.
        const message = `${'x'.repeat(250)} ${request.headers.authorization} rejected`;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => http.close(() => resolve())) });
    const { port } = http.address() as AddressInfo;
    const connection = connectionTo(
      `http://127.0.0.1:${port}/mcp`,
      { token: { secret: 'T' } },
      { T: token },
    );

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect(String(failure)).toContain('[redacted]');
    expect(String(failure)).not.toContain(token.slice(0, 8));
  });
});
