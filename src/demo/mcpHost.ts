/**
 * Serves an MCP server (built with the SDK's `McpServer`) over Streamable HTTP on loopback with
 * `node:http`: stateless (a server per request) or with sessions, behind a credential check, with
 * room for extra routes such as an OAuth token endpoint. The example assistant's demo servers
 * run on it; so do the test servers.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface McpHostOptions {
  /** A new MCP server: one per session, or one per request when stateless. */
  readonly createServer: () => McpServer;
  readonly port?: number;
  /** The path the MCP endpoint answers on (default `/mcp`). */
  readonly path?: string;
  /** Keep sessions (`Mcp-Session-Id`); otherwise each request stands alone. */
  readonly sessions?: boolean;
  /** Whether a request to the MCP endpoint carries a valid credential; 401 otherwise. */
  readonly authorize?: (request: IncomingMessage) => boolean;
  /** Answers other routes; returns false for a route it does not serve (404). */
  readonly routes?: (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;
}

export interface McpHost {
  readonly url: string;
  readonly port: number;
  /** Forgets every session, as a server that restarted would (the next request gets 404). */
  dropSessions(): Promise<void>;
  close(): Promise<void>;
}

export async function startMcpHost(options: McpHostOptions): Promise<McpHost> {
  const mcpPath = options.path ?? '/mcp';
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const serveMcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (options.authorize && !options.authorize(request)) {
      return answer(response, 401, { error: 'missing or invalid credentials' });
    }
    if (!options.sessions) {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const server = options.createServer();
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(request, response);
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) {
        return answer(response, 404, {
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found' },
          id: null,
        });
      }
      return transport.handleRequest(request, response);
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await options.createServer().connect(transport);
    return transport.handleRequest(request, response);
  };

  const http = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    const route =
      pathname === mcpPath
        ? serveMcp(request, response).then(() => true)
        : (options.routes?.(request, response) ?? Promise.resolve(false));
    route
      .then((served) => {
        if (!served) answer(response, 404, { error: `no route ${pathname}` });
      })
      .catch((error: unknown) => {
        if (!response.headersSent) {
          answer(response, 500, { error: error instanceof Error ? error.message : String(error) });
        } else response.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const dropSessions = async () => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((t) => t.close()));
  };
  return {
    url: `http://127.0.0.1:${port}${mcpPath}`,
    port,
    dropSessions,
    close: async () => {
      await dropSessions();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Writes a JSON answer. */
export function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Reads a request's body as text (small bodies: token requests). */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
