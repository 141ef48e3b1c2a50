import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpServer } from '../../../src/assistant/index.js';
import {
  McpGateway,
  type McpGatewayOptions,
  McpToolRefusedError,
  McpUnavailableError,
  PreCallHookError,
} from '../../../src/mcp/index.js';
import { inProcessMcp } from '../../helpers/inProcessMcp.js';

// Nothing listens here: a request that missed the in-process fetch fails at once.
const URL_OF = (path: string) => `http://127.0.0.1:1${path}`;

function gatewayOf(
  servers: readonly McpServer[],
  options: Omit<McpGatewayOptions, 'assistant' | 'secrets'> & Partial<McpGatewayOptions> = {},
): McpGateway {
  return new McpGateway({
    assistant: { mcpServers: Object.fromEntries(servers.map((s) => [s.name, s])) },
    secrets: { get: async (name) => `value of ${name}` },
    ...options,
  });
}

const server = (extra: Partial<McpServer> = {}): McpServer => ({
  name: 's',
  url: URL_OF('/mcp'),
  type: 'http',
  ...extra,
});

const echo = {
  serverName: 's',
  toolName: 'echo',
  arguments: { text: 'hi' },
  slots: {},
  context: { senderId: 'ada', flowId: 'f', stepId: 'st' },
  callKey: 'turn-1|f|st|0',
};

afterEach(() => {
  vi.useRealTimers();
});

describe('McpGateway', () => {
  it('sends every request, the OAuth token’s too, through the fetch it was given', async () => {
    const peer = inProcessMcp();
    const gateway = gatewayOf(
      [
        server({
          oauth: {
            client_id: 'app',
            client_secret: { secret: 'CLIENT_SECRET' },
            token_url: URL_OF('/oauth/token'),
          },
        }),
      ],
      { fetch: peer.fetch },
    );

    const result = await gateway.call(echo);
    await gateway.close();

    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    const sent = peer.requests.map((r) => `${r.path} ${r.method}`);
    expect(sent[0]).toBe('/oauth/token POST');
    expect(sent).toContain('/mcp initialize');
    expect(sent).toContain('/mcp tools/call');
  });

  it('keeps a server’s tool list for toolsTtlMs on its clock, then lists again', async () => {
    const peer = inProcessMcp();
    let now = 1_000_000;
    const gateway = gatewayOf([server()], {
      fetch: peer.fetch,
      now: () => now,
      toolsTtlMs: 1_000,
    });
    const connection = gateway.connection('s');
    const listings = () => peer.requests.filter((r) => r.method === 'tools/list').length;

    await connection.listTools();
    now += 999;
    await connection.listTools();
    const withinTtl = listings();
    now += 2;
    await connection.listTools();
    await gateway.close();

    expect(withinTtl).toBe(1);
    expect(listings()).toBe(2);
  });

  it('waits before connecting again as its random source says', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    let firstFailure: () => void = () => {};
    const failed = new Promise<void>((resolve) => {
      firstFailure = resolve;
    });
    const gateway = gatewayOf([server()], {
      fetch: async () => {
        attempts++;
        firstFailure();
        throw new TypeError('fetch failed');
      },
      random: () => 0,
    });

    const listing = gateway
      .connection('s')
      .listTools({ maxRetries: 1 })
      .catch((e: unknown) => e);
    await failed;
    await vi.advanceTimersByTimeAsync(199);
    const beforeTheWait = attempts;
    await vi.advanceTimersByTimeAsync(1);
    const afterTheWait = attempts;
    await vi.runAllTimersAsync();

    expect([beforeTheWait, afterTheWait]).toEqual([1, 2]);
    expect(await listing).toBeInstanceOf(McpUnavailableError);
  });

  it('refuses a call to a server that is not configured', async () => {
    const gateway = gatewayOf([server()]);

    const failure = await gateway.call({ ...echo, serverName: 'other' }).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpToolRefusedError);
    expect((failure as Error).message).toBe('no MCP server named other is configured');
    expect(() => gateway.connection('other')).toThrow('no MCP server named other is configured');
  });

  it.each([
    ['no hooks at all', undefined],
    ['hooks without it', { 'custom.hooks.other': () => ({}) }],
  ])('refuses a call whose server’s pre_call_hook is not loaded, given %s', async (_, hooks) => {
    const peer = inProcessMcp();
    const gateway = gatewayOf([server({ pre_call_hook: 'custom.hooks.tenant' })], {
      fetch: peer.fetch,
      ...(hooks ? { hooks } : {}),
    });

    const failure = await gateway.call(echo).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(McpToolRefusedError);
    expect((failure as Error).message).toBe(
      'the pre_call_hook custom.hooks.tenant of MCP server s is not loaded',
    );
    expect(peer.requests).toEqual([]);
  });

  it('names the server’s conversation_secret when reading it fails', async () => {
    const peer = inProcessMcp();
    const gateway = gatewayOf(
      [
        server({
          conversation_secret: {
            secret_id: 'customers/{sender_id}',
            metadata: { 'x-customer-id': 'id' },
            cache_ttl: 60,
          },
        }),
      ],
      {
        fetch: peer.fetch,
        secrets: {
          get: async (name) => {
            throw new Error(`secret ${name} not found`);
          },
        },
      },
    );

    const failure = await gateway.call(echo).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(PreCallHookError);
    expect((failure as Error).message).toMatch(
      /^pre_call_hook conversation_secret of s threw: .*customers\/ada/,
    );
    expect(peer.requests).toEqual([]);
  });

  it('ends the calls in flight when it closes, and connects anew afterwards', async () => {
    const peer = inProcessMcp();
    const gateway = gatewayOf([server()], { fetch: peer.fetch });
    const before = gateway.connection('s');
    const inFlight = gateway.call({ ...echo, toolName: 'hold', arguments: {} }).then(
      () => 'answered',
      () => 'ended',
    );
    await vi.waitFor(() => expect(peer.held).toHaveLength(1));

    await gateway.close();
    const after = gateway.connection('s');
    for (const release of peer.held) release();

    expect(await inFlight).toBe('ended');
    expect(after).not.toBe(before);
    await gateway.close();
  });
});
