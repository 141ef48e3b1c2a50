import { Logger } from '@aws-lambda-powertools/logger';
import type { A2ASubAgent, Assistant } from '../assistant/index.js';
import type { McpHost } from './mcpHost.js';
import { DEMO_SERVERS } from './mcpServers.js';
import { startShoppingAgent } from './shoppingAgent.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface DemoPeers {
  /** One line per peer started, for the console. */
  readonly started: readonly string[];
  close(): Promise<void>;
}

/** The demo A2A agents by the names the example gives them. */
const DEMO_AGENTS = { car_shopping_agent: startShoppingAgent } as const;

/**
 * Starts the demo peers the assistant points at: an MCP server of `endpoints.yml` or an A2A
 * agent named as one of the example's, whose URL is on loopback, gets its demo on that URL's
 * port. Peers pointed elsewhere (real ones) are left alone.
 */
export async function startDemoPeers(
  assistant: Pick<Assistant, 'mcpServers' | 'agents'>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DemoPeers> {
  const hosts: { close(): Promise<void> }[] = [];
  const started: string[] = [];
  // JSON lines as the stack's, at its level: nothing at the default.
  const logger = new Logger({
    serviceName: 'switchboard-demo',
    logLevel: (env.SWITCHBOARD_LOG_LEVEL ?? 'WARN') as 'WARN',
  });
  const secret = (name: string) => env[name];
  try {
    for (const server of Object.values(assistant.mcpServers)) {
      const start = DEMO_SERVERS[server.name];
      const port = loopbackPort(server.url);
      if (!start || port === undefined) continue;
      const host: McpHost = await start(server, { port, secret });
      hosts.push(host);
      started.push(`demo MCP server ${server.name} on ${server.url}`);
    }
    for (const agent of Object.values(assistant.agents)) {
      if (agent.protocol !== 'A2A' || !(agent.name in DEMO_AGENTS)) continue;
      const url = agentUrl(agent);
      const port = url === undefined ? undefined : loopbackPort(url);
      if (port === undefined) continue;
      const start = DEMO_AGENTS[agent.name as keyof typeof DEMO_AGENTS];
      hosts.push(await start(agent, { port, secret, logger }));
      started.push(`demo A2A agent ${agent.name} on ${url}`);
    }
  } catch (error) {
    await Promise.all(hosts.map((h) => h.close()));
    throw error;
  }
  return { started, close: async () => void (await Promise.all(hosts.map((h) => h.close()))) };
}

/** The port of a loopback URL with an explicit port; otherwise undefined. */
function loopbackPort(text: string): number | undefined {
  const url = URL.parse(text);
  if (!url || !LOOPBACK.has(url.hostname) || url.port === '') return undefined;
  return Number(url.port);
}

/** Where an agent is served: its card's URL (0.3) or first interface (1.0), or the card's URL. */
function agentUrl(agent: A2ASubAgent): string | undefined {
  const source = agent.agentCard;
  if (source.kind === 'url') return source.url;
  const { url, supportedInterfaces } = source.card as {
    url?: unknown;
    supportedInterfaces?: { url?: unknown }[];
  };
  const found = typeof url === 'string' ? url : supportedInterfaces?.[0]?.url;
  return typeof found === 'string' ? found : undefined;
}
