import type { Assistant } from '../assistant/index.js';
import type { McpHost } from './mcpHost.js';
import { DEMO_SERVERS } from './mcpServers.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface DemoPeers {
  /** One line per server started, for the console. */
  readonly started: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts the demo MCP servers the assistant's `endpoints.yml` points at: a server named as one
 * of the example's, whose URL is on loopback, gets its demo on that URL's port. Servers pointed
 * elsewhere (real ones) are left alone.
 */
export async function startDemoPeers(
  assistant: Pick<Assistant, 'mcpServers'>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DemoPeers> {
  const hosts: McpHost[] = [];
  const started: string[] = [];
  try {
    for (const server of Object.values(assistant.mcpServers)) {
      const start = DEMO_SERVERS[server.name];
      const url = new URL(server.url);
      if (!start || !LOOPBACK.has(url.hostname) || url.port === '') continue;
      const host = await start(server, {
        port: Number(url.port),
        secret: (name) => env[name],
      });
      hosts.push(host);
      started.push(`demo MCP server ${server.name} on ${server.url}`);
    }
  } catch (error) {
    await Promise.all(hosts.map((h) => h.close()));
    throw error;
  }
  return { started, close: async () => void (await Promise.all(hosts.map((h) => h.close()))) };
}
