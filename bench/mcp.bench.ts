import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { McpServer as McpServerConfig } from '../src/assistant/index.js';
import { startMcpHost } from '../src/demo/index.js';
import { IDEMPOTENCY_KEY_META, McpGateway } from '../src/mcp/index.js';
import { measurePair, round, type Timing } from './harness.js';

const CALLS = 1000;
const KEY = 'bench-api-key';

/** An MCP server with one tool, `echo`. */
export function echoServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

/**
 * The cost Switchboard adds to an MCP tool call over a bare SDK `callTool` on loopback: 1,000
 * calls each, taking turns, warm (one pooled connection) and cold (a new connection per call).
 * Both send the same API key header and `_meta`; Switchboard also resolves the key from its
 * secret store, merges `meta_map` and derives the idempotency key.
 */
export async function mcpBenchmark(): Promise<Record<string, unknown>> {
  const host = await startMcpHost({
    createServer: echoServer,
    authorize: (request) => request.headers.authorization === `Bearer ${KEY}`,
  });
  const config: McpServerConfig = {
    name: 'bench',
    url: host.url,
    type: 'http',
    api_key: { secret: 'BENCH_KEY' },
    meta_map: { static: { api_version: 'v2' } },
  };
  const gatewayOf = () =>
    new McpGateway({
      assistant: { mcpServers: { bench: config } },
      secrets: { get: async () => KEY },
    });
  let n = 0;
  const viaSwitchboard = (gateway: McpGateway) =>
    gateway.call({
      serverName: 'bench',
      toolName: 'echo',
      arguments: { text: 'hi' },
      slots: {},
      context: { senderId: 'bench', serverName: 'bench', toolName: 'echo' },
      callKey: `turn|f1|s|${n++}`,
    });
  const bareClient = async () => {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(host.url), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
    return client;
  };
  const viaSdk = (client: Client) =>
    client.callTool({
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: { api_version: 'v2', [IDEMPOTENCY_KEY_META]: `bench-${n++}` },
    });

  try {
    const sdk = await bareClient();
    const gateway = gatewayOf();
    const warm = await measurePair(
      () => viaSdk(sdk),
      () => viaSwitchboard(gateway),
      { runs: CALLS, warmup: 50 },
    );
    await sdk.close();
    await gateway.close();
    const cold = await measurePair(
      async () => {
        const client = await bareClient();
        await viaSdk(client);
        await client.close();
      },
      async () => {
        const fresh = gatewayOf();
        await viaSwitchboard(fresh);
        await fresh.close();
      },
      { runs: CALLS, warmup: 20 },
    );
    const ratio = (a: Timing, b: Timing) => ({
      median: round(a.medianMs / b.medianMs),
      p95: round(a.p95Ms / b.p95Ms),
    });
    return {
      calls: CALLS,
      warm: { sdk: warm.a, switchboard: warm.b, ratio: ratio(warm.b, warm.a) },
      cold: { sdk: cold.a, switchboard: cold.b, ratio: ratio(cold.b, cold.a) },
      target: { warmMedianRatio: 1.1 },
    };
  } finally {
    await host.close();
  }
}
