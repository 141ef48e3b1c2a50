import type { McpServer } from '../../../src/assistant/index.js';
import { McpGateway, type McpGatewayOptions } from '../../../src/mcp/index.js';
import type { SecretStore } from '../../../src/runtime/index.js';

/** A configured MCP server, as `endpoints.yml` would give it. */
export function serverConfig(
  name: string,
  url: string,
  extra: Partial<Omit<McpServer, 'name' | 'url' | 'type'>> = {},
): McpServer {
  return { name, url, type: 'http', ...extra };
}

/** Secrets from a map; a missing one fails as a store would. */
export function secretsOf(values: Readonly<Record<string, string>>): SecretStore & {
  readonly reads: string[];
} {
  const reads: string[] = [];
  return {
    reads,
    get: async (name) => {
      reads.push(name);
      const value = values[name];
      if (value === undefined) throw new Error(`secret ${name} not found`);
      return value;
    },
  };
}

/** A gateway over the given servers; closed by the caller. */
export function gatewayOf(
  servers: readonly McpServer[],
  options: Omit<McpGatewayOptions, 'assistant'>,
): McpGateway {
  return new McpGateway({
    assistant: { mcpServers: Object.fromEntries(servers.map((s) => [s.name, s])) },
    ...options,
  });
}

/** A flow call's context and key, for calls that do not care. */
export const FLOW_CALL = {
  slots: {},
  context: { senderId: 'ada', flowId: 'f', stepId: 's' },
  callKey: 'turn-1|f1|s|0',
} as const;
