import * as z from 'zod';
import type { ConversationSecret } from '../assistant/index.js';
import type { OutboundCallContext, PreCallHook } from '../extensions/index.js';
import { SwitchboardError } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';

/** Secrets kept at most, per server, in a warm container. */
const MAX_CACHED = 1000;

const SecretObject = z.record(z.string(), z.unknown());

/**
 * The per-conversation secret is missing a key, or is not a JSON object.
 * Code `CONVERSATION_SECRET_INVALID`.
 */
export class ConversationSecretError extends SwitchboardError {
  override readonly name = 'ConversationSecretError';
  override readonly code = 'CONVERSATION_SECRET_INVALID';
}

/**
 * The built-in `pre_call_hook` (`conversation_secret` of a server): reads the secret
 * `secret_id` names for the conversation (a JSON object), keeps it for `cache_ttl` seconds, and
 * returns the configured keys as `_meta`. Error messages name secrets and keys, never values.
 */
export function conversationSecretHook(
  settings: ConversationSecret,
  secrets: SecretStore,
  now: () => number = Date.now,
): PreCallHook {
  const cache = new Map<string, { value: Promise<Record<string, unknown>>; expiresAt: number }>();
  const read = (secretId: string): Promise<Record<string, unknown>> => {
    const held = cache.get(secretId);
    if (held && now() < held.expiresAt) return held.value;
    const value = secrets.get(secretId).then(parseSecret(secretId));
    cache.delete(secretId);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
    const entry = { value, expiresAt: now() + settings.cache_ttl * 1000 };
    cache.set(secretId, entry);
    value.catch(() => {
      if (cache.get(secretId) === entry) cache.delete(secretId);
    });
    return value;
  };
  return async (context: OutboundCallContext) => {
    const secretId = settings.secret_id.replaceAll('{sender_id}', context.senderId);
    const secret = await read(secretId);
    const metadata: Record<string, unknown> = {};
    for (const [metaKey, secretKey] of Object.entries(settings.metadata)) {
      if (!(secretKey in secret)) {
        throw new ConversationSecretError(`secret ${secretId} has no key ${secretKey}`);
      }
      metadata[metaKey] = secret[secretKey];
    }
    return { metadata };
  };
}

function parseSecret(secretId: string) {
  return (text: string): Record<string, unknown> => {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      // The parser's message would quote the secret.
      throw new ConversationSecretError(`secret ${secretId} is not a JSON object`);
    }
    const parsed = SecretObject.safeParse(data);
    if (!parsed.success) {
      throw new ConversationSecretError(`secret ${secretId} is not a JSON object`);
    }
    return parsed.data;
  };
}
