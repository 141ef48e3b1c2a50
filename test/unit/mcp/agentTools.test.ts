import { describe, expect, it } from 'vitest';
import type { McpConnection, McpServer } from '../../../src/assistant/index.js';
import {
  type GatewayCall,
  McpAgentTools,
  type McpCallResult,
  type McpGateway,
  McpRequestError,
  type McpTool,
  McpToolRefusedError,
  McpUnavailableError,
  PreCallHookError,
} from '../../../src/mcp/index.js';

/**
 * A gateway over servers whose tool lists the test sets: it records each listing the servers
 * answer, each forgotten list and each call, and answers calls with `answer`.
 */
function gatewayStub(
  lists: Record<string, McpTool[][]>,
  answer: () => Promise<McpCallResult>,
  settings: Record<string, Partial<McpServer>> = {},
) {
  const listings: string[] = [];
  const forgotten: string[] = [];
  const calls: GatewayCall[] = [];
  const cached = new Map<string, readonly McpTool[]>();
  const gateway = {
    connection: (serverName: string) => ({
      server: { name: serverName, url: 'http://127.0.0.1:1/mcp', ...settings[serverName] },
      listTools: async () => {
        const held = cached.get(serverName);
        if (held) return held;
        listings.push(serverName);
        const versions = lists[serverName] ?? [];
        const list = versions.length > 1 ? (versions.shift() ?? []) : (versions[0] ?? []);
        cached.set(serverName, list);
        return list;
      },
      forgetTools: () => {
        forgotten.push(serverName);
        cached.delete(serverName);
      },
    }),
    call: async (call: GatewayCall) => {
      calls.push(call);
      return answer();
    },
  } as unknown as McpGateway;
  return { gateway, listings, forgotten, calls };
}

const tool = (name: string): McpTool => ({ name, inputSchema: { type: 'object' } });
const ok = async (): Promise<McpCallResult> => ({
  isError: false,
  content: [{ type: 'text', text: 'done' }],
});
const askFor = (toolName: string) => ({
  toolName,
  arguments: { text: 't' },
  senderId: 'ada',
  slots: { city: 'Oslo' },
  callKey: 'turn-1|agent|0',
});

describe('McpAgentTools', () => {
  it("marks the tools the project counts as read-only, each by its own server's settings", async () => {
    const hinted = (name: string, readOnlyHint: boolean): McpTool => ({
      ...tool(name),
      readOnlyHint,
    });
    const stub = gatewayStub(
      {
        all: [[tool('a1'), hinted('a2', false)]],
        listed: [[tool('l1'), tool('l2')]],
        trusting: [[hinted('t1', true), hinted('t2', false), tool('t3')]],
        wary: [[hinted('w1', true)]],
      },
      ok,
      {
        all: { read_only: true },
        listed: { read_only_tools: ['l2'] },
        trusting: { trust_read_only_hints: true },
      },
    );
    const tools = new McpAgentTools(stub.gateway, 'helper', [
      { name: 'all' },
      { name: 'listed' },
      { name: 'trusting' },
      { name: 'wary' },
    ]);

    const listed = await tools.list();

    expect(Object.fromEntries(listed.map((t) => [t.name, t.readOnly]))).toEqual({
      a1: true,
      a2: true,
      l1: false,
      l2: true,
      t1: true,
      t2: false,
      t3: false,
      w1: false,
    });
  });

  it('answers the same list while the servers keep theirs, and a new one once a server changes its list', async () => {
    const stub = gatewayStub({ one: [[tool('echo')], [tool('echo'), tool('fresh')]] }, ok);
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }]);

    const first = await tools.list();
    const again = await tools.list();
    stub.gateway.connection('one').forgetTools();
    const changed = await tools.list();

    expect(again).toBe(first);
    expect(changed.map((t) => t.name)).toEqual(['echo', 'fresh']);
    expect(first.map((t) => t.name)).toEqual(['echo']);
  });

  it('calls a tool it has listed without asking the servers again', async () => {
    const stub = gatewayStub({ one: [[tool('echo')]] }, ok);
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }]);

    await tools.list();
    const outcome = await tools.call(askFor('echo'));

    expect(outcome).toEqual({ isError: false, text: 'done' });
    expect(stub.listings).toEqual(['one']);
    expect(stub.forgotten).toEqual([]);
  });

  it('lists again once and calls a tool the server added since the last listing', async () => {
    const stub = gatewayStub({ one: [[tool('echo')], [tool('echo'), tool('fresh')]] }, ok);
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }]);

    await tools.list();
    const outcome = await tools.call(askFor('fresh'));

    expect(outcome).toEqual({ isError: false, text: 'done' });
    expect(stub.forgotten).toEqual(['one']);
    expect(stub.listings).toEqual(['one', 'one']);
    expect(stub.calls.map((c) => `${c.serverName}.${c.toolName}`)).toEqual(['one.fresh']);
  });

  it('tells the model a tool is not available when no server offers it after listing again', async () => {
    const stub = gatewayStub({ one: [[tool('echo')]] }, ok);
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }]);

    const outcome = await tools.call(askFor('gone'));

    expect(outcome).toEqual({
      isError: true,
      text: 'The tool gone is not available; use one of the tools you were given.',
    });
    expect(stub.listings).toEqual(['one', 'one']);
    expect(stub.calls).toEqual([]);
  });

  it('refuses a tool its connections leave out without asking any server', async () => {
    const stub = gatewayStub({ one: [[tool('echo'), tool('drop')]] }, ok);
    const connections: McpConnection[] = [{ name: 'one', exclude_tools: ['drop'] }];
    const tools = new McpAgentTools(stub.gateway, 'helper', connections);

    const outcome = await tools.call(askFor('drop'));

    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain('The tool drop is not available');
    expect(stub.listings).toEqual([]);
    expect(stub.forgotten).toEqual([]);
  });

  it('sends the call to the server that offers the tool, with the agent in the hook’s context', async () => {
    const stub = gatewayStub({ one: [[tool('echo')]], two: [[tool('add')]] }, ok);
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }, { name: 'two' }]);

    await tools.call(askFor('add'), { timeoutMs: 5_000 });

    expect(stub.calls).toEqual([
      {
        serverName: 'two',
        toolName: 'add',
        arguments: { text: 't' },
        slots: { city: 'Oslo' },
        context: { senderId: 'ada', toolName: 'add', serverName: 'two', agentId: 'helper' },
        callKey: 'turn-1|agent|0',
      },
    ]);
  });

  it.each([
    ['a refused request', () => new McpRequestError('s', 'invalid params')],
    ['a tool not offered', () => new McpToolRefusedError('no MCP server named s is configured')],
    ['a failing hook', () => new PreCallHookError('h', 'threw: sealed')],
  ])('tells the model of %s as an error result', async (_, failure) => {
    const error = failure();
    const stub = gatewayStub({ one: [[tool('echo')]] }, () => Promise.reject(error));
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }]);

    const outcome = await tools.call(askFor('echo'));

    expect(outcome).toEqual({ isError: true, text: `The tool echo failed: ${error.message}` });
  });

  it.each([
    ['a server that cannot be reached', () => new McpUnavailableError('one', 'connection refused')],
    ['a fault of its own', () => new TypeError('cannot read properties of undefined')],
  ])('throws on %s, so that the step is retried or fails', async (_, failure) => {
    const error = failure();
    const stub = gatewayStub({ one: [[tool('echo')]] }, () => Promise.reject(error));
    const tools = new McpAgentTools(stub.gateway, 'helper', [{ name: 'one' }]);

    await expect(tools.call(askFor('echo'))).rejects.toBe(error);
  });
});
