import { getEventListeners } from 'node:events';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import type { ServerAuth } from '../../../src/mcp/auth.js';
import type { ServerConnectionOptions } from '../../../src/mcp/connection.js';
import { ServerConnection } from '../../../src/mcp/connection.js';
import { McpRequestError, McpUnavailableError } from '../../../src/mcp/index.js';
import { deferred, type InProcessMcpPeer, inProcessMcpPeer } from './inProcessMcpPeer.js';

const URL_OF_PEER = 'http://mcp.test/mcp';

/** Credentials without any: nothing to renew. */
const noAuth: ServerAuth = {
  headers: async () => ({}),
  renew: () => false,
  redact: (text) => text,
};

/** A bearer token that each renewal replaces, recording what it was asked. */
function renewableToken() {
  const auth = {
    token: 1,
    renewals: 0,
    lookups: [] as Array<{ signal?: AbortSignal }>,
    headers: async (options: { signal?: AbortSignal } = {}) => {
      auth.lookups.push(options);
      return { Authorization: `Bearer token-${auth.token}` };
    },
    /** A token endpoint gives out a few tokens, then refuses to renew. */
    renew: () => {
      auth.renewals++;
      auth.token++;
      return auth.renewals <= 3;
    },
    redact: (text: string) => text,
  };
  return auth;
}

function connectionTo(
  peer: InProcessMcpPeer,
  options: Partial<Omit<ServerConnectionOptions, 'server' | 'fetch'>> = {},
): ServerConnection {
  return new ServerConnection({
    server: { name: 's', url: URL_OF_PEER, type: 'http' },
    auth: noAuth,
    fetch: peer.fetch,
    ...options,
  });
}

const status = (code: number) => new Response(null, { status: code });
const never = () => new Promise<Response>(() => undefined);

/** How a promise settled, once it has: read it after letting time pass. */
function outcome<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

/** Lets the in-process peer and the client exchange what they have to say. */
const moment = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('ServerConnection', () => {
  it('introduces itself to the server as switchboard 0.1.0', async () => {
    const peer = inProcessMcpPeer();
    const connection = connectionTo(peer);

    await connection.callTool({ name: 'echo', arguments: { text: 'hi' } });

    expect(peer.clients()).toEqual([{ name: 'switchboard', version: '0.1.0' }]);
    await connection.close();
  });

  it('answers with the content of the tool’s result only, and structured content when given', async () => {
    const peer = inProcessMcpPeer();
    peer.callTool = async (name) =>
      name === 'add'
        ? { content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } }
        : { content: [{ type: 'text', text: 'plain' }] };
    const connection = connectionTo(peer);

    const plain = await connection.callTool({ name: 'echo', arguments: {} });
    const added = await connection.callTool({ name: 'add', arguments: {} });

    expect(plain).toStrictEqual({ isError: false, content: [{ type: 'text', text: 'plain' }] });
    expect(added).toStrictEqual({
      isError: false,
      content: [{ type: 'text', text: '3' }],
      structuredContent: { sum: 3 },
    });
    await connection.close();
  });

  it('refuses structured content that does not match the output schema the tool listed, naming where', async () => {
    const peer = inProcessMcpPeer();
    peer.tools.push({
      name: 'add',
      inputSchema: { type: 'object' },
      outputSchema: {
        type: 'object',
        properties: { sum: { type: 'number' }, at: { type: 'string', format: 'date-time' } },
        required: ['sum'],
      },
    });
    const results = [
      { sum: 3, at: '2026-12-06T10:00:00Z' },
      { sum: 'three' },
      { sum: 3, at: 'yesterday' },
    ];
    peer.callTool = async () => ({ content: [], structuredContent: results.shift() });
    const connection = connectionTo(peer);
    await connection.listTools();

    const valid = await connection.callTool({ name: 'add', arguments: {} });
    const wrongType = connection.callTool({ name: 'add', arguments: {} });
    await expect(wrongType).rejects.toBeInstanceOf(McpRequestError);
    await expect(wrongType).rejects.toThrow(/does not match.*#\/sum/);
    await expect(connection.callTool({ name: 'add', arguments: {} })).rejects.toThrow(/#\/at/);
    expect(valid.structuredContent).toEqual({ sum: 3, at: '2026-12-06T10:00:00Z' });
    await connection.close();
  });

  it('keeps one connection for its calls until it is closed', async () => {
    const peer = inProcessMcpPeer({ sessions: true });
    const connection = connectionTo(peer);

    await connection.callTool({ name: 'echo', arguments: { text: 'one' } });
    await connection.callTool({ name: 'echo', arguments: { text: 'two' } });
    await connection.close();
    await connection.callTool({ name: 'echo', arguments: { text: 'three' } });

    expect(peer.rpcs().filter((m) => m === 'initialize')).toHaveLength(2);
    await connection.close();
  });
});

describe('ServerConnection tool lists', () => {
  it('lists every page of the server’s tools, with a description only where the server gave one', async () => {
    const peer = inProcessMcpPeer({ pageSize: 1 });
    peer.tools.push({ name: 'bare', inputSchema: { type: 'object', required: ['x'] } });
    const connection = connectionTo(peer);

    const tools = await connection.listTools();

    expect(tools).toStrictEqual([
      { name: 'echo', description: 'Echoes its text.', inputSchema: { type: 'object' } },
      { name: 'bare', inputSchema: { type: 'object', required: ['x'] } },
    ]);
    expect(peer.requests.filter((r) => r.rpc === 'tools/list').map((r) => r.params)).toEqual([
      undefined,
      { cursor: '1' },
    ]);
  });

  it('keeps the read-only hint of a tool whose annotations give one, and nothing else of them', async () => {
    const peer = inProcessMcpPeer();
    peer.tools.push(
      { name: 'reads', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      {
        name: 'writes',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
      { name: 'titled', inputSchema: { type: 'object' }, annotations: { title: 'Titled' } },
    );
    const connection = connectionTo(peer);

    const tools = await connection.listTools();

    expect(tools.slice(1)).toStrictEqual([
      { name: 'reads', inputSchema: { type: 'object' }, readOnlyHint: true },
      { name: 'writes', inputSchema: { type: 'object' }, readOnlyHint: false },
      { name: 'titled', inputSchema: { type: 'object' } },
    ]);
  });

  it('trusts a listed set of tools for five minutes', async () => {
    const peer = inProcessMcpPeer();
    let clock = 1_000;
    const connection = connectionTo(peer, { now: () => clock });
    const listings = () => peer.rpcs().filter((m) => m === 'tools/list').length;

    await connection.listTools();
    clock += 5 * 60_000 - 1;
    await connection.listTools();
    const withinFiveMinutes = listings();
    clock += 1;
    await connection.listTools();

    expect(withinFiveMinutes).toBe(1);
    expect(listings()).toBe(2);
  });

  it('does not keep a listing that was under way when the tools were forgotten', async () => {
    const peer = inProcessMcpPeer();
    const held = deferred();
    peer.answered = async (rpc) => {
      if (rpc === 'tools/list' && peer.rpcs().filter((m) => m === 'tools/list').length === 1) {
        await held.promise;
      }
    };
    const connection = connectionTo(peer);
    const listing = connection.listTools();
    await vi.waitFor(() => expect(peer.rpcs()).toContain('tools/list'));

    peer.tools.push({ name: 'later', inputSchema: { type: 'object' } });
    connection.forgetTools();
    held.resolve();
    const stale = (await listing).map((t) => t.name);
    const names = (await connection.listTools()).map((t) => t.name);

    expect(stale).toEqual(['echo']);
    expect(names).toEqual(['echo', 'later']);
  });

  it('keeps the listed tools after a successful call whose text mentions an unknown tool', async () => {
    const peer = inProcessMcpPeer();
    const connection = connectionTo(peer);
    await connection.listTools();

    await connection.callTool({ name: 'echo', arguments: { text: 'unknown tool: none' } });
    await connection.listTools();

    expect(peer.rpcs().filter((m) => m === 'tools/list')).toHaveLength(1);
  });

  it('forgets the listed tools when the server refuses a call of a tool it does not know', async () => {
    const peer = inProcessMcpPeer();
    peer.callTool = async (name) => {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    };
    const connection = connectionTo(peer);
    await connection.listTools();
    peer.tools.push({ name: 'fresh', inputSchema: { type: 'object' } });

    const failure = await connection
      .callTool({ name: 'vanished', arguments: {} })
      .catch((e: unknown) => e);
    const names = (await connection.listTools()).map((t) => t.name);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect((failure as Error).message).toMatch(/^MCP server s: .*Tool vanished not found$/);
    expect((failure as Error).cause).toBeInstanceOf(McpError);
    expect(names).toEqual(['echo', 'fresh']);
  });

  it('keeps the listed tools when the server refuses a call for another reason', async () => {
    const peer = inProcessMcpPeer();
    peer.callTool = async () => {
      throw new McpError(ErrorCode.InvalidParams, 'text must be a string');
    };
    const connection = connectionTo(peer);
    await connection.listTools();

    const failure = await connection
      .callTool({ name: 'echo', arguments: { text: 1 } })
      .catch((e: unknown) => e);
    await connection.listTools();

    expect(failure).toBeInstanceOf(McpRequestError);
    expect(peer.rpcs().filter((m) => m === 'tools/list')).toHaveLength(1);
  });
});

describe('ServerConnection connecting', () => {
  it('renews a refused token once while connecting, and connects with the new one', async () => {
    const peer = inProcessMcpPeer();
    peer.front = async (request) =>
      request.headers.get('authorization') === 'Bearer token-1' ? status(401) : undefined;
    const auth = renewableToken();
    const connection = connectionTo(peer, { auth });

    const result = await connection.callTool({ name: 'echo', arguments: { text: 'in' } });

    expect(result.content).toEqual([{ type: 'text', text: 'echo: in' }]);
    expect(auth.renewals).toBe(1);
  });

  it('fails as refused when the renewed token is refused too', async () => {
    const peer = inProcessMcpPeer();
    peer.front = async () => status(401);
    const auth = renewableToken();
    const connection = connectionTo(peer, { auth });

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect((failure as Error).message).toBe('MCP server s: the server answered HTTP 401');
    expect(auth.renewals).toBe(1);
  });

  it('keeps its token when the server is unavailable, and tries Streamable HTTP only', async () => {
    const peer = inProcessMcpPeer();
    peer.front = async () => status(503);
    const auth = renewableToken();
    const connection = connectionTo(peer, { auth });

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} }, { maxRetries: 0 })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpUnavailableError);
    expect((failure as Error).message).toBe('MCP server s: the server answered HTTP 503');
    expect((failure as Error).cause).toBeInstanceOf(StreamableHTTPError);
    expect(auth.renewals).toBe(0);
    expect(peer.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('retries connecting after 0.2 s and 0.4 s without jitter, then says how often it tried', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const peer = inProcessMcpPeer();
    peer.front = async () => status(503);
    const connection = connectionTo(peer, { random: () => 0 });
    const attempts = () => peer.rpcs().filter((m) => m === 'initialize').length;

    const call = outcome(connection.callTool({ name: 'echo', arguments: {} }, { maxRetries: 2 }));
    await vi.advanceTimersByTimeAsync(199);
    const beforeFirstWait = attempts();
    await vi.advanceTimersByTimeAsync(1);
    const afterFirstWait = attempts();
    await vi.advanceTimersByTimeAsync(400);

    expect([beforeFirstWait, afterFirstWait, attempts()]).toEqual([1, 2, 3]);
    expect(call.error).toBeInstanceOf(McpUnavailableError);
    expect((call.error as Error).message).toBe(
      'MCP server s: the server answered HTTP 503 (3 attempts)',
    );
  });

  it('gives up connecting when the deadline passes first, and says so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const peer = inProcessMcpPeer();
    peer.front = never;
    const connection = connectionTo(peer);

    const call = outcome(
      connection.callTool({ name: 'echo', arguments: {} }, { deadline: Date.now() + 1_000 }),
    );
    await vi.advanceTimersByTimeAsync(1_000);

    expect(call.error).toBeInstanceOf(McpUnavailableError);
    expect((call.error as Error).message).toBe(
      'MCP server s: connecting took longer than the time left',
    );
  });

  it('gives up a handshake that takes longer than ten seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const peer = inProcessMcpPeer();
    peer.front = never;
    const connection = connectionTo(peer);

    const call = outcome(connection.callTool({ name: 'echo', arguments: {} }, { maxRetries: 0 }));
    await vi.advanceTimersByTimeAsync(9_999);
    const before = call.settled;
    await vi.advanceTimersByTimeAsync(1);

    expect(before).toBe(false);
    expect(call.error).toBeInstanceOf(McpUnavailableError);
    expect((call.error as Error).message).toMatch(/^MCP server s: .*timed out/i);
  });

  it('stops connecting when the caller aborts, failing with the caller’s reason', async () => {
    const peer = inProcessMcpPeer();
    peer.front = never;
    const connection = connectionTo(peer);
    const caller = new AbortController();
    const reason = new Error('the caller gave up');

    const call = connection
      .callTool({ name: 'echo', arguments: {} }, { signal: caller.signal })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(peer.rpcs()).toContain('initialize'));
    caller.abort(reason);

    expect(await call).toBe(reason);
  });

  it('answers 404 everywhere as a refusal, after trying the legacy SSE transport with its credentials', async () => {
    const peer = inProcessMcpPeer();
    peer.front = async () => status(404);
    const auth = renewableToken();
    const connection = connectionTo(peer, { auth });

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect((failure as Error).message).toBe('MCP server s: the server answered HTTP 404');
    expect(peer.requests.map((r) => [r.method, r.headers.get('authorization')])).toEqual([
      ['POST', 'Bearer token-1'],
      ['GET', 'Bearer token-1'],
    ]);
  });

  it('hands the request’s abort signal to the credentials lookup', async () => {
    const peer = inProcessMcpPeer();
    const auth = renewableToken();
    const connection = connectionTo(peer, { auth });

    await connection.callTool({ name: 'echo', arguments: {} });

    expect(auth.lookups.length).toBeGreaterThan(0);
    for (const lookup of auth.lookups) expect(lookup.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('ServerConnection requests', () => {
  it('refuses a request when no time is left for it', async () => {
    const peer = inProcessMcpPeer();
    peer.front = async (_request, rpc) => (rpc === 'tools/call' ? never() : undefined);
    let clock = 1_000;
    const connection = connectionTo(peer, { now: () => clock });
    await connection.listTools();
    clock = 2_000;

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} }, { deadline: 2_000 })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpUnavailableError);
    expect((failure as Error).message).toBe('MCP server s: no time is left for the request');
    expect(peer.rpcs()).not.toContain('tools/call');
  });

  it('stops waiting for a tool when the caller aborts, failing with the caller’s reason', async () => {
    const peer = inProcessMcpPeer();
    const answer = deferred();
    peer.callTool = async () => {
      await answer.promise;
      return { content: [{ type: 'text', text: 'late' }] };
    };
    const connection = connectionTo(peer);
    const caller = new AbortController();

    const call = outcome(
      connection.callTool({ name: 'echo', arguments: {} }, { signal: caller.signal }),
    );
    await vi.waitFor(() => expect(peer.rpcs()).toContain('tools/call'));
    caller.abort(new Error('the caller gave up'));
    await moment();
    answer.resolve();

    expect(call.settled).toBe(true);
    expect(call.error).not.toBeInstanceOf(McpUnavailableError);
    expect(String(call.error)).toContain('the caller gave up');
  });

  it('refuses a request whose caller has already given up, with its reason, without asking the server', async () => {
    const peer = inProcessMcpPeer();
    const connection = connectionTo(peer);
    await connection.listTools();
    const caller = new AbortController();
    const reason = new Error('the caller gave up');
    caller.abort(reason);

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} }, { signal: caller.signal })
      .catch((e: unknown) => e);

    expect(failure).toBe(reason);
    expect(peer.rpcs()).not.toContain('tools/call');
    await connection.close();
  });

  it('leaves no listener on the caller’s signal however many requests it makes', async () => {
    const peer = inProcessMcpPeer();
    const connection = connectionTo(peer);
    const caller = new AbortController();

    for (let i = 0; i < 5; i++) {
      await connection.callTool({ name: 'echo', arguments: {} }, { signal: caller.signal });
      connection.forgetTools();
      await connection.listTools({ signal: caller.signal });
    }

    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await connection.close();
  });

  it('does not renew the token when the server refuses a call', async () => {
    const peer = inProcessMcpPeer();
    peer.callTool = async () => {
      throw new McpError(ErrorCode.InvalidParams, 'bad arguments');
    };
    const auth = renewableToken();
    const connection = connectionTo(peer, { auth });

    await connection.callTool({ name: 'echo', arguments: {} }).catch(() => undefined);

    expect(auth.renewals).toBe(0);
    expect(peer.rpcs().filter((m) => m === 'tools/call')).toHaveLength(1);
  });

  it('fails as unavailable when the server drops the session again after connecting anew', async () => {
    const peer = inProcessMcpPeer({ sessions: true });
    let drops = 2;
    peer.front = async (_request, rpc) => {
      if (rpc === 'tools/call' && drops > 0) {
        drops--;
        await peer.dropSessions();
      }
      return undefined;
    };
    const connection = connectionTo(peer);

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpUnavailableError);
    expect((failure as Error).message).toBe('MCP server s: the server answered HTTP 404');
    expect((failure as Error).cause).toBeInstanceOf(StreamableHTTPError);
    expect(peer.rpcs().filter((m) => m === 'initialize')).toHaveLength(2);
    await connection.close();
  });

  it('connects once again for calls that lost their session together', async () => {
    const peer = inProcessMcpPeer({ sessions: true });
    const bothSent = deferred();
    let held = 0;
    peer.front = async (_request, rpc) => {
      if (rpc === 'tools/call' && held < 2) {
        held++;
        if (held === 2) {
          await peer.dropSessions();
          bothSent.resolve();
        }
        await bothSent.promise;
      }
      return undefined;
    };
    const connection = connectionTo(peer);

    const results = await Promise.all([
      connection.callTool({ name: 'echo', arguments: { text: 'a' } }),
      connection.callTool({ name: 'echo', arguments: { text: 'b' } }),
    ]);

    expect(results.map((r) => r.content)).toEqual([
      [{ type: 'text', text: 'echo: a' }],
      [{ type: 'text', text: 'echo: b' }],
    ]);
    expect(peer.rpcs().filter((m) => m === 'initialize')).toHaveLength(2);
    await connection.close();
  });

  it('does not fall back to SSE when a server that spoke Streamable HTTP refuses to connect again', async () => {
    const peer = inProcessMcpPeer({ sessions: true });
    const connection = connectionTo(peer);
    await connection.callTool({ name: 'echo', arguments: {} });
    peer.front = async () => status(404);
    const before = peer.requests.length;

    const failure = await connection
      .callTool({ name: 'echo', arguments: {} })
      .catch((e: unknown) => e);
    const after = peer.requests.slice(before);

    expect(failure).toBeInstanceOf(McpRequestError);
    expect(connection.transport).toBe('streamable-http');
    expect(after.filter((r) => r.rpc === 'initialize')).toHaveLength(1);
    expect(after.filter((r) => r.method === 'GET' && !r.headers.has('mcp-session-id'))).toEqual([]);
    await connection.close();
  });
});

describe('ServerConnection closing', () => {
  it('ends the calls under way', async () => {
    const peer = inProcessMcpPeer();
    peer.callTool = () => new Promise(() => undefined);
    const connection = connectionTo(peer);
    const call = outcome(connection.callTool({ name: 'echo', arguments: {} }));
    await vi.waitFor(() => expect(peer.rpcs()).toContain('tools/call'));

    await connection.close();
    await moment();

    expect(call.error).toBeInstanceOf(McpUnavailableError);
  });

  it('closes quietly during a connection attempt that then fails, and keeps the connection made after it', async () => {
    const peer = inProcessMcpPeer();
    const firstHandshake = deferred<Response>();
    peer.front = async (_request, rpc) =>
      rpc === 'initialize' && peer.rpcs().filter((m) => m === 'initialize').length === 1
        ? firstHandshake.promise
        : undefined;
    const connection = connectionTo(peer);
    const abandoned = connection
      .callTool({ name: 'echo', arguments: {} }, { maxRetries: 0 })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(peer.rpcs()).toContain('initialize'));

    const closing = outcome(connection.close());
    await connection.callTool({ name: 'echo', arguments: { text: 'next' } });
    firstHandshake.resolve(status(503));
    await abandoned;
    await moment();
    await connection.callTool({ name: 'echo', arguments: { text: 'again' } });

    expect(closing.settled).toBe(true);
    expect(closing.error).toBeUndefined();
    expect(peer.rpcs().filter((m) => m === 'initialize')).toHaveLength(2);
  });
});
