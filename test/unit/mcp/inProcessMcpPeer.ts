import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** One HTTP request the peer received, refused ones too. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  /** The JSON-RPC method of a POST, if it carried one. */
  readonly rpc?: string;
  readonly params?: Record<string, unknown>;
}

export interface InProcessMcpPeerOptions {
  /** Keep sessions (`Mcp-Session-Id`) and a notification stream; otherwise stateless. */
  readonly sessions?: boolean;
  /** Tools per `tools/list` page (default: all on one page). */
  readonly pageSize?: number;
}

/**
 * An MCP server of the SDK (its low-level `Server` behind the web-standard Streamable HTTP
 * transport) answering a `fetch` function in process: no socket. `front` may answer a request
 * before the server sees it (a refusal, a hang); `callTool` answers `tools/call` (by default
 * echoing the `text` argument).
 */
export function inProcessMcpPeer(options: InProcessMcpPeerOptions = {}) {
  const requests: ReceivedRequest[] = [];
  const tools: Tool[] = [
    { name: 'echo', description: 'Echoes its text.', inputSchema: { type: 'object' } },
  ];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const servers = new Set<Server>();
  const peer = {
    requests,
    tools,
    /** The client name and version each initialize announced. */
    clients: () => requests.flatMap((r) => (r.rpc === 'initialize' ? [r.params?.clientInfo] : [])),
    /** Answers a request instead of the server when it returns a response. */
    front: undefined as
      | ((request: Request, rpc: string | undefined) => Promise<Response | undefined>)
      | undefined,
    /** Awaited after the server answered a request, before the client gets the answer. */
    answered: undefined as ((rpc: string | undefined) => Promise<void>) | undefined,
    callTool: async (
      name: string,
      args: Record<string, unknown>,
      _signal: AbortSignal,
    ): Promise<CallToolResult> => ({
      content: [{ type: 'text', text: `${name}: ${String(args.text)}` }],
    }),
    /** JSON-RPC methods of the requests that carried one, in order. */
    rpcs: () => requests.flatMap((r) => (r.rpc ? [r.rpc] : [])),
    /** Forgets every session, as a restarted server would: their next request gets 404. */
    dropSessions: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((t) => t.close()));
    },
    /** Tells every connected client that the tool list changed. */
    notifyToolsChanged: async () => {
      await Promise.all([...servers].map((s) => s.sendToolListChanged().catch(() => undefined)));
    },
    fetch: (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const message = body
        ? (JSON.parse(body) as { method?: string; params?: Record<string, unknown> })
        : {};
      const rpc = message.method;
      requests.push({
        method: request.method,
        url: request.url,
        headers: new Headers(request.headers),
        ...(rpc ? { rpc } : {}),
        ...(message.params ? { params: message.params } : {}),
      });
      const answered = race(serve(request, rpc), request.signal);
      return answered;
    }) as typeof fetch,
  };

  const serve = async (request: Request, rpc: string | undefined): Promise<Response> => {
    const early = await peer.front?.(request, rpc);
    if (early) return early;
    const response = await serveMcp(request);
    await peer.answered?.(rpc);
    return response;
  };

  const serveMcp = async (request: Request): Promise<Response> => {
    if (!options.sessions) {
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await createServer().connect(transport);
      return transport.handleRequest(request);
    }
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const transport = sessions.get(sessionId);
      if (!transport) return new Response('no such session', { status: 404 });
      return transport.handleRequest(request);
    }
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
    await createServer().connect(transport);
    return transport.handleRequest(request);
  };

  const createServer = (): Server => {
    const server = new Server(
      { name: 'in-process', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      // A client that never stops asking for pages is told so rather than answered forever.
      if (requests.filter((r) => r.rpc === 'tools/list').length > 10) {
        throw new McpError(ErrorCode.InvalidRequest, 'too many pages asked for');
      }
      const size = options.pageSize ?? tools.length;
      const start = Number(request.params?.cursor ?? 0);
      const next = start + size;
      return {
        tools: tools.slice(start, next),
        ...(next < tools.length ? { nextCursor: String(next) } : {}),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
      peer.callTool(request.params.name, request.params.arguments ?? {}, extra.signal),
    );
    servers.add(server);
    server.onclose = () => servers.delete(server);
    return server;
  };

  return peer;
}

export type InProcessMcpPeer = ReturnType<typeof inProcessMcpPeer>;

/** `answer`, or the signal's reason once it aborts (as fetch rejects). */
function race(answer: Promise<Response>, signal: AbortSignal): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A promise and the functions that settle it. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
