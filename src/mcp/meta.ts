import { createHash } from 'node:crypto';
import type { McpServer } from '../assistant/index.js';

/**
 * The `_meta` key of the idempotency key every tool call carries. The key stays the same when a
 * job runs again (after a crash, a lost race or a retry), so a server can drop a repeated effect.
 */
export const IDEMPOTENCY_KEY_META = 'io.switchboard/idempotency-key';

/**
 * `_meta` of one call, merged in order: the server's `meta_map.static`, then `meta_map.from_slots`
 * (current slot values), then what the `pre_call_hook` returned (it wins on a collision), and
 * the idempotency key.
 */
export function callMeta(
  server: McpServer,
  slots: Readonly<Record<string, unknown>>,
  hookMetadata: Readonly<Record<string, unknown>>,
  idempotencyKey: string,
): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...server.meta_map?.static };
  for (const { slot, param } of server.meta_map?.from_slots ?? []) {
    meta[param] = slots[slot] ?? null;
  }
  return { ...meta, ...hookMetadata, [IDEMPOTENCY_KEY_META]: idempotencyKey };
}

/** A fixed-length idempotency key for a call identified by `parts` (stable across retries). */
export function idempotencyKey(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32);
}
