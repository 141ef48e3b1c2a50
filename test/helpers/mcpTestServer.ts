import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, type McpHost, readBody, startMcpHost } from '../../src/demo/index.js';

/** One `tools/call` the test server received. */
export interface ReceivedCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly meta: Record<string, unknown>;
  readonly headers: Record<string, string | string[] | undefined>;
}

export interface TestMcpServer extends McpHost {
  readonly calls: ReceivedCall[];
  /** Headers of every HTTP request to the MCP endpoint, refused ones too. */
  readonly requests: Array<Record<string, string | string[] | undefined>>;
  /** Adds a tool and (unless `notify` is false) tells connected clients that the list changed. */
  addTool(name: string, options?: { notify?: boolean }): void;
}

export interface TestMcpServerOptions {
  /**
   * Adds `together`, which answers `together` when a second call of it arrives while the first
   * is in flight, and `alone` after two seconds without one: it shows whether calls overlap.
   */
  readonly rendezvous?: boolean;
  readonly sessions?: boolean;
  readonly port?: number;
  readonly authorize?: (request: IncomingMessage) => boolean;
  readonly routes?: (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;
}

/**
 * An MCP server built with the SDK, on loopback, that records every call with its arguments,
 * `_meta` and headers. Tools: `echo` (returns its text), `add` (structured sum), `slow` (waits
 * `ms`), `fail` (an error result), plus any added later.
 */
export async function startTestMcpServer(
  options: TestMcpServerOptions = {},
): Promise<TestMcpServer> {
  const calls: ReceivedCall[] = [];
  const requests: Array<Record<string, string | string[] | undefined>> = [];
  const extraTools: string[] = [];
  // Calls of `together` waiting for a partner, shared by the server instances of all requests.
  const waiting: (() => void)[] = [];
  const servers = new Set<McpServer>();
  const record = (
    tool: string,
    args: Record<string, unknown>,
    extra: {
      _meta?: Record<string, unknown>;
      requestInfo?: { headers: IncomingMessage['headers'] };
    },
  ) => {
    calls.push({
      tool,
      arguments: args,
      meta: { ...extra._meta },
      headers: { ...extra.requestInfo?.headers },
    });
  };
  const createServer = () => {
    const server = new McpServer(
      { name: 'test-server', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.registerTool(
      'echo',
      { description: 'Echoes its text.', inputSchema: { text: z.string() } },
      async (args, extra) => {
        record('echo', args, extra);
        return { content: [{ type: 'text', text: args.text }] };
      },
    );
    server.registerTool(
      'add',
      {
        description: 'Adds two numbers.',
        inputSchema: { a: z.number(), b: z.number() },
        outputSchema: { sum: z.number() },
      },
      async (args, extra) => {
        record('add', args, extra);
        const sum = args.a + args.b;
        return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
      },
    );
    server.registerTool(
      'slow',
      { description: 'Answers after ms milliseconds.', inputSchema: { ms: z.number() } },
      async (args, extra) => {
        record('slow', args, extra);
        await sleep(args.ms, undefined, { signal: extra.signal }).catch(() => undefined);
        return { content: [{ type: 'text', text: 'done' }] };
      },
    );
    server.registerTool(
      'fail',
      { description: 'Always fails.', inputSchema: {} },
      async (args, extra) => {
        record('fail', args, extra);
        return { content: [{ type: 'text', text: 'it failed' }], isError: true };
      },
    );
    if (options.rendezvous) {
      server.registerTool(
        'together',
        { description: 'Tells whether another call of it overlapped.', inputSchema: {} },
        async (args, extra) => {
          record('together', args, extra);
          const partner = waiting.shift();
          if (partner) {
            partner();
            return { content: [{ type: 'text', text: 'together' }] };
          }
          const met = await new Promise<boolean>((resolve) => {
            const release = () => {
              clearTimeout(timer);
              resolve(true);
            };
            const timer = setTimeout(() => {
              waiting.splice(waiting.indexOf(release), 1);
              resolve(false);
            }, 2000);
            waiting.push(release);
          });
          return { content: [{ type: 'text', text: met ? 'together' : 'alone' }] };
        },
      );
    }
    for (const name of extraTools) registerExtra(server, name);
    servers.add(server);
    return server;
  };
  const registerExtra = (server: McpServer, name: string) => {
    server.registerTool(
      name,
      { description: `Added tool ${name}.`, inputSchema: {} },
      async (args, extra) => {
        record(name, args, extra);
        return { content: [{ type: 'text', text: name }] };
      },
    );
  };
  const host = await startMcpHost({
    createServer,
    sessions: options.sessions ?? false,
    ...(options.port !== undefined ? { port: options.port } : {}),
    authorize: (request) => {
      requests.push({ ...request.headers });
      return options.authorize ? options.authorize(request) : true;
    },
    ...(options.routes ? { routes: options.routes } : {}),
  });
  return {
    ...host,
    calls,
    requests,
    addTool: (name, { notify = true } = {}) => {
      extraTools.push(name);
      if (!notify) return;
      for (const server of servers) {
        if (server.isConnected()) registerExtra(server, name);
      }
    },
  };
}

/** A token endpoint issuing client-credentials tokens that live `lifetimeSeconds`. */
export function testTokenEndpoint(options: {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly lifetimeSeconds: number;
  /** Tokens are this followed by their number (default `token-`). */
  readonly tokenPrefix?: string;
}) {
  const issued: string[] = [];
  const revoked = new Set<string>();
  const requests: URLSearchParams[] = [];
  return {
    issued,
    requests,
    /** The server forgets a token (as after a key rotation): its next use gets 401. */
    revoke: (token: string) => revoked.add(token),
    route: async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
      if (!request.url?.startsWith('/oauth/token')) return false;
      const form = new URLSearchParams(await readBody(request));
      requests.push(form);
      if (
        form.get('client_id') !== options.clientId ||
        form.get('client_secret') !== options.clientSecret
      ) {
        answer(response, 401, { error: 'invalid_client' });
        return true;
      }
      const token = `${options.tokenPrefix ?? 'token-'}${issued.length + 1}`;
      issued.push(token);
      answer(response, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: options.lifetimeSeconds,
      });
      return true;
    },
    accepts: (request: IncomingMessage) => {
      const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      return issued.includes(token) && !revoked.has(token);
    },
  };
}
