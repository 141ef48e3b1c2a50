/**
 * A small MCP server for the order system, built with the official MCP SDK and served over
 * Streamable HTTP. `npm start` and `npm test` run it beside the assistant (`--peers
 * mcp/orders.ts` calls `start`). Replace its made-up orders with calls to your own system, or
 * point endpoints.yml at an MCP server you already have.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { PeerContext, RunningPeer } from 'switchboard/sdk';
import * as z from 'zod';

interface Order {
  readonly status: 'processing' | 'shipped' | 'delivered';
  readonly shippedOn?: string;
  readonly carrier?: string;
  readonly arrivesOn?: string;
  readonly items: readonly string[];
}

const ORDERS: Readonly<Record<string, Order>> = {
  'A-1001': {
    status: 'shipped',
    shippedOn: '1 December',
    carrier: 'Parcel Express',
    arrivesOn: '8 December',
    items: ['Trail running shoes, size 42', 'Running socks, 3 pairs'],
  },
  'A-1002': { status: 'processing', items: ['Rain jacket, size M'] },
};

/** A new MCP server with the order system's tools. */
function ordersServer(): McpServer {
  const server = new McpServer({ name: 'orders', version: '1.0.0' });
  server.registerTool(
    'get_order_status',
    {
      description:
        'The status of an order (processing, shipped or delivered) with its dates and items; found is false when there is no such order.',
      inputSchema: { order_id: z.string().describe('The order number, such as A-1001') },
      annotations: { readOnlyHint: true },
    },
    async ({ order_id }) => {
      const order = ORDERS[order_id.trim().toUpperCase()];
      const result = order ? { order_id, found: true, ...order } : { order_id, found: false };
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result,
      };
    },
  );
  return server;
}

/**
 * Serves the MCP server where endpoints.yml says the assistant reaches it (port 8940 on loopback
 * as written), a fresh server and transport per request, as a stateless Streamable HTTP server
 * does.
 */
export async function start(context: PeerContext): Promise<RunningPeer> {
  const url = new URL(context.mcpServers.orders?.url ?? 'http://127.0.0.1:8940/mcp');
  const http = createServer((request, response) => {
    if (request.url !== url.pathname) {
      response.writeHead(404).end();
      return;
    }
    const server = ordersServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(Number(url.port), url.hostname, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${url.hostname}:${port}${url.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        // The assistant keeps its connection open between calls: do not wait for it to go.
        http.closeAllConnections();
      }),
  };
}
