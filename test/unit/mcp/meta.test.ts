import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../../src/assistant/index.js';
import { callMeta, idempotencyKey } from '../../../src/mcp/index.js';

const server = (extra: Partial<McpServer> = {}): McpServer => ({
  name: 's',
  url: 'https://mcp.example/mcp',
  type: 'http',
  ...extra,
});

describe('callMeta', () => {
  it('carries only the idempotency key, under io.switchboard/idempotency-key, without a meta_map', () => {
    const meta = callMeta(server(), { user_id: 'u-7' }, {}, 'key-1');

    expect(meta).toEqual({ 'io.switchboard/idempotency-key': 'key-1' });
  });

  it('merges meta_map.static, then from_slots, then the hook’s metadata, then the key', () => {
    const meta = callMeta(
      server({
        meta_map: {
          static: { api_version: 'v2', shared: 'static' },
          from_slots: [
            { slot: 'role', param: 'shared' },
            { slot: 'unset', param: 'unset_slot' },
          ],
        },
      }),
      { role: 'admin' },
      { tenant: 't1', 'io.switchboard/idempotency-key': 'from-hook' },
      'key-1',
    );

    expect(meta).toEqual({
      api_version: 'v2',
      shared: 'admin',
      unset_slot: null,
      tenant: 't1',
      'io.switchboard/idempotency-key': 'key-1',
    });
  });
});

describe('idempotencyKey', () => {
  it('is 32 URL-safe characters, the same for the same parts', () => {
    const key = idempotencyKey('s', 'echo', 'turn-1|f1|s|0');

    expect(key).toMatch(/^[\w-]{32}$/);
    expect(idempotencyKey('s', 'echo', 'turn-1|f1|s|0')).toBe(key);
  });

  it('tells apart parts that join to the same text', () => {
    expect(idempotencyKey('s', 'ab', 'c')).not.toBe(idempotencyKey('s', 'a', 'bc'));
  });
});
