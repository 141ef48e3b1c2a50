import { afterEach, describe, expect, it } from 'vitest';
import type { OutboundCallContext } from '../../../src/extensions/index.js';
import {
  ConversationSecretError,
  IDEMPOTENCY_KEY_META,
  McpAgentTools,
  PreCallHookError,
} from '../../../src/mcp/index.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import { startSecretsEndpoint } from '../../helpers/secretsEndpoint.js';
import { FLOW_CALL, gatewayOf, secretsOf, serverConfig } from './fixtures.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function peer(): Promise<TestMcpServer> {
  const started = await startTestMcpServer();
  open.push(started);
  return started;
}

const echo = {
  ...FLOW_CALL,
  serverName: 's',
  toolName: 'echo',
  arguments: { text: 'hi' },
};

describe('_meta of MCP tool calls', () => {
  it('merges meta_map.static, then from_slots, then the hook, which wins on a collision', async () => {
    const server = await peer();
    const gateway = gatewayOf(
      [
        serverConfig('s', server.url, {
          pre_call_hook: 'custom.hooks.meta',
          meta_map: {
            static: { api_version: 'v2', source: 'static', shared: 'static' },
            from_slots: [
              { slot: 'user_id', param: 'user_id' },
              { slot: 'role', param: 'shared' },
              { slot: 'unset', param: 'unset_slot' },
            ],
          },
        }),
      ],
      {
        secrets: secretsOf({}),
        hooks: { 'custom.hooks.meta': () => ({ metadata: { source: 'hook', tenant: 't1' } }) },
      },
    );
    open.push(gateway);

    await gateway.call({ ...echo, slots: { user_id: 'u-7', role: 'admin' } });

    expect(server.calls[0]?.meta).toEqual({
      api_version: 'v2',
      source: 'hook',
      shared: 'admin',
      user_id: 'u-7',
      unset_slot: null,
      tenant: 't1',
      [IDEMPOTENCY_KEY_META]: expect.stringMatching(/^[\w-]{32}$/),
    });
    expect(server.calls[0]?.arguments).toEqual({ text: 'hi' });
  });

  it('gives the hook a frozen context and takes a plain object from an async hook', async () => {
    const server = await peer();
    const seen: OutboundCallContext[] = [];
    const gateway = gatewayOf([serverConfig('s', server.url, { pre_call_hook: 'h.h' })], {
      secrets: secretsOf({}),
      hooks: {
        'h.h': async (context) => {
          seen.push(context);
          return { 'x-customer-id': `customer-${context.senderId}` };
        },
      },
    });
    open.push(gateway);

    await gateway.call({
      ...echo,
      context: { senderId: 'ada', toolName: 'echo', serverName: 's', flowId: 'f', stepId: 'st' },
    });

    expect(server.calls[0]?.meta['x-customer-id']).toBe('customer-ada');
    expect(seen).toEqual([
      { senderId: 'ada', toolName: 'echo', serverName: 's', flowId: 'f', stepId: 'st' },
    ]);
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it.each([
    ['throws', () => Promise.reject(new Error('vault is sealed')), 'threw: vault is sealed'],
    ['returns a string', () => 'token', 'returned a string'],
    ['returns nothing', () => undefined, 'returned nothing'],
    ['returns an array', () => [['k', 'v']], 'returned an array'],
    [
      'returns metadata that is not an object',
      () => ({ metadata: 'x' }),
      'returned metadata that is a string',
    ],
  ])('aborts the call before it reaches the server when the hook %s', async (_, hook, reason) => {
    const server = await peer();
    const gateway = gatewayOf([serverConfig('s', server.url, { pre_call_hook: 'h.h' })], {
      secrets: secretsOf({}),
      hooks: { 'h.h': hook as never },
    });
    open.push(gateway);

    const failure = await gateway.call(echo).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(PreCallHookError);
    expect(String(failure)).toContain(`pre_call_hook h.h ${reason}`);
    expect(server.requests).toEqual([]);
  });

  it('turns a failing hook into an error result for an agent, without calling the server', async () => {
    const server = await peer();
    const gateway = gatewayOf([serverConfig('s', server.url, { pre_call_hook: 'h.h' })], {
      secrets: secretsOf({}),
      hooks: {
        'h.h': () => {
          throw new Error('no credentials for this user');
        },
      },
    });
    open.push(gateway);
    const tools = new McpAgentTools(gateway, 'helper', [{ name: 's' }]);

    const outcome = await tools.call({
      toolName: 'echo',
      arguments: { text: 'x' },
      senderId: 'ada',
      slots: {},
      callKey: 'k',
    });

    expect(outcome).toEqual({
      isError: true,
      text: 'The tool echo failed: pre_call_hook h.h threw: no credentials for this user',
    });
    expect(server.calls).toEqual([]);
  });

  it('gives the same call the same idempotency key, and other calls other keys', async () => {
    const server = await peer();
    const gateway = gatewayOf([serverConfig('s', server.url)], { secrets: secretsOf({}) });
    open.push(gateway);

    await gateway.call({ ...echo, callKey: 'turn-1|f1|s|0' });
    await gateway.call({ ...echo, callKey: 'turn-1|f1|s|0' });
    await gateway.call({ ...echo, callKey: 'turn-1|f1|s|1' });
    await gateway.call({ ...echo, callKey: 'turn-2|f1|s|0' });

    const keys = server.calls.map((c) => c.meta[IDEMPOTENCY_KEY_META]);
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(3);
  });
});

describe('conversation_secret, the built-in call-time credential hook', () => {
  it('reads the conversation’s secret from Secrets Manager, maps its keys and caches it', async () => {
    const secrets = await startSecretsEndpoint({
      'app/customers/ada': JSON.stringify({ id: 'c-1', token: 'dealer-token-ada', extra: 'x' }),
      'app/customers/bob': JSON.stringify({ id: 'c-2', token: 'dealer-token-bob' }),
    });
    open.push(secrets);
    const server = await peer();
    let now = 0;
    const gateway = gatewayOf(
      [
        serverConfig('s', server.url, {
          conversation_secret: {
            secret_id: 'customers/{sender_id}',
            metadata: { 'x-customer-id': 'id', authorization: 'token' },
            cache_ttl: 60,
          },
        }),
      ],
      { secrets: secrets.store({ prefix: 'app/', maxAgeSeconds: 0 }), now: () => now },
    );
    open.push(gateway);
    const callAs = (senderId: string) =>
      gateway.call({ ...echo, context: { senderId, serverName: 's', toolName: 'echo' } });

    await callAs('ada');
    await callAs('ada');
    await callAs('bob');
    now += 61_000;
    await callAs('ada');

    expect(server.calls.map((c) => [c.meta['x-customer-id'], c.meta.authorization])).toEqual([
      ['c-1', 'dealer-token-ada'],
      ['c-1', 'dealer-token-ada'],
      ['c-2', 'dealer-token-bob'],
      ['c-1', 'dealer-token-ada'],
    ]);
    expect(secrets.requests).toEqual([
      'app/customers/ada',
      'app/customers/bob',
      'app/customers/ada',
    ]);
  });

  it('aborts the call, naming the secret and key but no value, when a key is missing', async () => {
    const secrets = await startSecretsEndpoint({
      'customers/ada': JSON.stringify({ token: 'dealer-token-ada' }),
      'customers/eve': 'not json: dealer-token-eve',
    });
    open.push(secrets);
    const server = await peer();
    const gateway = gatewayOf(
      [
        serverConfig('s', server.url, {
          conversation_secret: {
            secret_id: 'customers/{sender_id}',
            metadata: { 'x-customer-id': 'id' },
            cache_ttl: 300,
          },
        }),
      ],
      { secrets: secrets.store() },
    );
    open.push(gateway);

    const missingKey = await gateway
      .call({ ...echo, context: { senderId: 'ada' } })
      .catch((e: unknown) => e);
    const notJson = await gateway
      .call({ ...echo, context: { senderId: 'eve' } })
      .catch((e: unknown) => e);

    expect(missingKey).toBeInstanceOf(PreCallHookError);
    expect((missingKey as Error).cause).toBeInstanceOf(ConversationSecretError);
    expect(String(missingKey)).toContain('secret customers/ada has no key id');
    expect(String(notJson)).toContain('secret customers/eve is not a JSON object');
    expect(`${String(missingKey)} ${String(notJson)}`).not.toMatch(/dealer-token/);
    expect(server.requests).toEqual([]);
  });
});
