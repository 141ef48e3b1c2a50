import type { Assistant, ChannelSettings } from '../assistant/index.js';

/** The secret with the OpenAI key, read when the model names no `api_key` and no `api_base`. */
export const MODEL_KEY_SECRET = 'OPENAI_API_KEY';

/**
 * The secrets a deployment of this assistant reads, without the deployment's prefix: every
 * `${VAR}` credential (models, MCP servers, agents, the action server's token, the messaging
 * channels' tokens), the model key,
 * and for each server's `conversation_secret` the pattern of its per-conversation secrets
 * (`customers/*` for `customers/{sender_id}`). Sorted, each once.
 */
export function deployedSecretNames(assistant: Assistant): string[] {
  const names = new Set<string>([MODEL_KEY_SECRET]);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      const only = entries.length === 1 ? entries[0] : undefined;
      if (only?.[0] === 'secret' && typeof only[1] === 'string') names.add(only[1]);
      else for (const [, child] of entries) visit(child);
    }
  };
  // Credentials live only in these parts; slots and responses may hold look-alike data.
  visit(assistant.commandGenerator.llm);
  visit(assistant.rephraser?.llm);
  visit(assistant.modelGroups);
  visit(assistant.mcpServers);
  visit(assistant.actionEndpoint);
  visit(assistant.channels);
  visit(Object.values(assistant.agents).map((agent) => agent.configuration));
  for (const server of Object.values(assistant.mcpServers)) {
    const perConversation = server.conversation_secret?.secret_id;
    if (perConversation) names.add(perConversation.replaceAll('{sender_id}', '*'));
  }
  return [...names].sort();
}

/** The secrets the A2A server's callers are checked with (`a2a_server.auth`), without the prefix. */
export function a2aServerSecretNames(assistant: Assistant): string[] {
  const auth = assistant.a2aServer?.auth;
  return [auth?.api_key?.secret, auth?.secret?.secret].filter((n) => n !== undefined).sort();
}

/** The channels' secrets the webhook reads: to check requests, and Telegram's to answer presses. */
const WEBHOOK_SECRETS: Readonly<Record<string, readonly string[]>> = {
  slack: ['slack_signing_secret'],
  telegram: ['access_token', 'secret_token'],
  twilio: ['auth_token'],
};

/**
 * The secrets of the messaging channels of credentials.yml the webhook reads, without the
 * prefix (the worker, which sends replies, reads them all: see `deployedSecretNames`).
 */
export function channelSecretNames(channels: ChannelSettings | undefined): string[] {
  const names = new Set<string>();
  for (const [channel, keys] of Object.entries(WEBHOOK_SECRETS)) {
    const settings = (
      channels as Record<string, Record<string, unknown> | undefined> | undefined
    )?.[channel];
    for (const key of keys) {
      const secret = (settings?.[key] as { secret?: unknown } | undefined)?.secret;
      if (typeof secret === 'string') names.add(secret);
    }
  }
  return [...names].sort();
}
