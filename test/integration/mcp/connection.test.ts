import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../../src/mcp/connection.js';
import {
  McpAgentTools,
  McpUnavailableError,
  serverAuth,
  toolResultText,
} from '../../../src/mcp/index.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import {
  freePort,
  type ServerEverything,
  startServerEverything,
} from '../../helpers/serverEverything.js';
import { waitFor } from '../../helpers/waitFor.js';
import { FLOW_CALL, gatewayOf, secretsOf, serverConfig } from './fixtures.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function connectionTo(url: string, options: { now?: () => number } = {}): ServerConnection {
  const server = serverConfig('s', url);
  const connection = new ServerConnection({
    server,
    auth: serverAuth(server, secretsOf({})),
    ...options,
  });
  open.push(connection);
  return connection;
}

async function peer(
  options: Parameters<typeof startTestMcpServer>[0] = {},
): Promise<TestMcpServer> {
  const started = await startTestMcpServer(options);
  open.push(started);
  return started;
}

describe('ServerConnection with @modelcontextprotocol/server-everything', () => {
  let everything: ServerEverything;
  let sse: ServerEverything;
  beforeAll(async () => {
    [everything, sse] = await Promise.all([
      startServerEverything('streamableHttp'),
      startServerEverything('sse'),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([everything?.close(), sse?.close()]);
  });

  it('lists the server’s tools and calls one over Streamable HTTP', async () => {
    const connection = connectionTo(everything.url);

    const tools = await connection.listTools();
    const result = await connection.callTool({ name: 'echo', arguments: { message: 'hello' } });

    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(tools.find((t) => t.name === 'echo')?.inputSchema).toMatchObject({ type: 'object' });
    expect(connection.transport).toBe('streamable-http');
    expect(toolResultText(result)).toBe('Echo: hello');
  });

  it('falls back to the legacy SSE transport when the server only speaks that', async () => {
    const connection = connectionTo(sse.url);

    const result = await connection.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });

    expect(connection.transport).toBe('sse');
    expect(result.isError).toBe(false);
    expect(toolResultText(result)).toContain('5');
  });

  it('reduces images and resource links to text a model can read', async () => {
    const connection = connectionTo(everything.url);

    const image = await connection.callTool({ name: 'get-tiny-image', arguments: {} });
    const links = await connection.callTool({
      name: 'get-resource-links',
      arguments: { count: 2 },
    });

    expect(toolResultText(image)).toMatch(/\[image image\/png, \d+ bytes\]/);
    expect(toolResultText(image)).not.toMatch(/[A-Za-z0-9+/]{200}/);
    expect(toolResultText(links)).toMatch(/\[resource \S+:\/\/\S+/);
  });
});

describe('ServerConnection', () => {
  it('gives up on a tool slower than its timeout and says the server did not answer in time', async () => {
    const server = await peer();
    const connection = connectionTo(server.url);
    const started = Date.now();

    const failure = await connection
      .callTool({ name: 'slow', arguments: { ms: 5_000 } }, { timeoutMs: 300 })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpUnavailableError);
    expect(String(failure)).toMatch(/timed out/i);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('keeps a tool call within the deadline of its job', async () => {
    const server = await peer();
    const connection = connectionTo(server.url);

    const failure = await connection
      .callTool({ name: 'slow', arguments: { ms: 5_000 } }, { deadline: Date.now() + 300 })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpUnavailableError);
  });

  it('retries connecting to a server that is down until it is back', async () => {
    const port = await freePort();
    const connection = connectionTo(`http://127.0.0.1:${port}/mcp`);
    const call = connection.callTool(
      { name: 'echo', arguments: { text: 'back' } },
      { maxRetries: 5 },
    );
    // The first attempts find nothing listening; the server comes up during the backoff.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const server = await peer({ port });

    await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'back' }] });
    expect(server.calls).toHaveLength(1);
  });

  it('fails as unavailable after max_retries when the server stays down', async () => {
    const port = await freePort();
    const connection = connectionTo(`http://127.0.0.1:${port}/mcp`);

    const failure = await connection
      .callTool({ name: 'echo', arguments: { text: 'x' } }, { maxRetries: 2 })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpUnavailableError);
    expect(String(failure)).toMatch(/ECONNREFUSED.*\(3 attempts\)/);
  });

  it('connects again when the server drops its session, and the call goes through once', async () => {
    const server = await peer({ sessions: true });
    const connection = connectionTo(server.url);
    await connection.callTool({ name: 'echo', arguments: { text: 'one' } });

    await server.dropSessions();
    const result = await connection.callTool({ name: 'echo', arguments: { text: 'two' } });

    expect(toolResultText(result)).toBe('two');
    expect(server.calls.map((c) => c.arguments.text)).toEqual(['one', 'two']);
  });

  it('caches the tool list until it expires', async () => {
    const server = await peer();
    let now = 0;
    const connection = connectionTo(server.url, { now: () => now });
    const lists = () => server.requests.length;

    await connection.listTools();
    const afterFirst = lists();
    await connection.listTools();
    expect(lists()).toBe(afterFirst);

    now += 5 * 60_000 + 1;
    await connection.listTools();
    expect(lists()).toBeGreaterThan(afterFirst);
  });

  it('lists the tools again when the server says they changed', async () => {
    const server = await peer({ sessions: true });
    const connection = connectionTo(server.url);
    expect((await connection.listTools()).map((t) => t.name)).not.toContain('later');

    server.addTool('later');

    const names = await waitFor(
      async () => {
        const tools = (await connection.listTools()).map((t) => t.name);
        return tools.includes('later') && tools;
      },
      { description: 'the changed tool list' },
    );
    expect(names).toContain('later');
  });

  it('forgets the tool list when the server answers that a tool does not exist', async () => {
    const server = await peer();
    const connection = connectionTo(server.url);
    await connection.listTools();
    // Without a notification, only forgetting the cached list shows the new tool.
    server.addTool('fresh', { notify: false });

    const result = await connection.callTool({ name: 'vanished', arguments: {} });
    const names = (await connection.listTools()).map((t) => t.name);

    expect(result.isError).toBe(true);
    expect(names).toContain('fresh');
  });
});

describe('McpAgentTools', () => {
  it('shows the model only the tools its connections include, and refuses the others', async () => {
    const [first, second] = await Promise.all([peer(), peer()]);
    const gateway = gatewayOf([serverConfig('one', first.url), serverConfig('two', second.url)], {
      secrets: secretsOf({}),
    });
    open.push(gateway);
    const tools = new McpAgentTools(gateway, 'helper', [
      { name: 'one', include_tools: ['echo', 'fail'] },
      { name: 'two', exclude_tools: ['echo', 'slow'] },
    ]);
    const call = (toolName: string) =>
      tools.call({
        toolName,
        arguments: toolName === 'add' ? { a: 1, b: 2 } : { text: 't' },
        senderId: 'ada',
        slots: {},
        callKey: FLOW_CALL.callKey,
      });

    const listed = await tools.list();
    const refused = await call('slow');
    const added = await call('add');

    expect(listed.map((t) => `${t.serverName}.${t.name}`)).toEqual([
      'one.echo',
      'one.fail',
      'two.add',
    ]);
    expect(refused).toEqual({
      isError: true,
      text: 'The tool slow is not available; use one of the tools you were given.',
    });
    expect(added).toEqual({ isError: false, text: '3\n{"sum":3}' });
    expect(first.calls).toEqual([]);
    expect(second.calls.map((c) => c.tool)).toEqual(['add']);
  });
});
