import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';

/** One request the in-process server was sent: its path and, for MCP, its JSON-RPC method. */
export interface InProcessRequest {
  readonly path: string;
  readonly method: string;
}

export interface InProcessMcp {
  /** A `fetch` that answers from the server in this process, without a socket. */
  readonly fetch: typeof fetch;
  readonly requests: InProcessRequest[];
  /** Calls of `hold` waiting; each is released by calling it. */
  readonly held: Array<() => void>;
}

/**
 * A stateless MCP server built with the SDK, answering a `fetch` in this process: `echo`
 * returns its text, `hold` answers once the test releases it. `/oauth/token` issues
 * `token-1`, `token-2`, … for `client_credentials`.
 */
export function inProcessMcp(): InProcessMcp {
  const requests: InProcessRequest[] = [];
  const held: Array<() => void> = [];
  let tokens = 0;
  const createServer = () => {
    const server = new McpServer({ name: 'in-process', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes its text.', inputSchema: { text: z.string() } },
      async (args) => ({ content: [{ type: 'text', text: args.text }] }),
    );
    server.registerTool('hold', { description: 'Answers when released.', inputSchema: {} }, () => {
      return new Promise((resolve) => {
        held.push(() => resolve({ content: [{ type: 'text', text: 'released' }] }));
      });
    });
    return server;
  };
  const serve = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === '/oauth/token') {
      requests.push({ path, method: request.method });
      tokens++;
      return Response.json({
        access_token: `token-${tokens}`,
        token_type: 'Bearer',
        expires_in: 600,
      });
    }
    const body =
      request.method === 'POST'
        ? ((await request.clone().json()) as { method?: string })
        : undefined;
    requests.push({ path, method: body?.method ?? request.method });
    const server = createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
  return {
    requests,
    held,
    fetch: (async (url: string | URL | Request, init?: RequestInit) =>
      serve(new Request(url, init))) as typeof fetch,
  };
}
