import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

export interface SseTestServer {
  /** The SSE endpoint clients connect to (`/sse`). */
  readonly url: string;
  /** Texts the `echo` tool received. */
  readonly echoed: string[];
  /** Forgets every session: a client's next POST gets 404. */
  dropSessions(): void;
  /** Answers the next `count` POSTs with `status`. */
  failPosts(status: number, count: number): void;
  close(): Promise<void>;
}

/** An MCP server that speaks only the legacy SSE transport (GET /sse, POST /messages). */
export async function startSseTestServer(): Promise<SseTestServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const echoed: string[] = [];
  let failing = { status: 0, count: 0 };
  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', response);
      sessions.set(transport.sessionId, transport);
      const server = new McpServer({ name: 'sse-only', version: '1.0.0' });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => {
        echoed.push(text);
        return { content: [{ type: 'text', text }] };
      });
      await server.connect(transport);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/messages') {
      if (failing.count > 0) {
        failing = { ...failing, count: failing.count - 1 };
        response.writeHead(failing.status).end('failing on purpose');
        return;
      }
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        response.writeHead(404).end('no such session');
        return;
      }
      await transport.handlePostMessage(request, response);
      return;
    }
    // What a server without Streamable HTTP answers to its POST.
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    echoed,
    dropSessions: () => sessions.clear(),
    failPosts: (status, count) => {
      failing = { status, count };
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
