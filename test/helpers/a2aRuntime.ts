import { type LocalHttpServer, serveHttp } from '../../src/adapters/local/httpServer.js';
import { projectAgents } from '../../src/assembly/index.js';
import { a2aPushChannel, standardChannels } from '../../src/channels/index.js';
import { McpGateway } from '../../src/mcp/index.js';
import { SILENT_LOGGER } from './logger.js';
import type { RuntimeSuite, TestRuntime } from './runtime.js';

/** A runtime with the project's agents, served on loopback so that A2A agents can push to it. */
export interface A2ARuntime {
  readonly rt: TestRuntime;
  /** What the agents' runners logged (debug, warn and error), one line each. */
  readonly logs: string[];
  /** The served runtime's base URL. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a runtime whose A2A runs register push URLs on its served receiver (or poll, with
 * `push: false`), with secrets from `secrets` and the clock `now` (real time by default).
 */
export async function startA2ARuntime(
  suite: RuntimeSuite,
  options: {
    readonly pushKey: string;
    readonly push?: boolean;
    readonly secrets?: Readonly<Record<string, string>>;
    readonly now?: () => number;
  },
): Promise<A2ARuntime> {
  const logs: string[] = [];
  const record =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      logs.push(`${level} ${message} ${JSON.stringify(fields)}`);
  const logger = {
    ...SILENT_LOGGER,
    debug: record('debug'),
    warn: record('warn'),
    error: record('error'),
  };
  const pushKey = async () => options.pushKey;
  let url: string | undefined;
  const gateway = new McpGateway({ assistant: suite.assistant, secrets: { get: async () => '' } });
  const runners = await projectAgents({
    assistant: suite.assistant,
    models: () => {
      throw new Error('no model here');
    },
    gateway,
    secrets: {
      get: async (name) => {
        const value = options.secrets?.[name];
        if (value === undefined) throw new Error(`no secret ${name}`);
        return value;
      },
    },
    ...(options.push === false ? {} : { pushKey, pushBaseUrl: () => url }),
    ...(options.now ? { now: options.now } : {}),
    logger,
  });
  const rt = await suite.runtime({
    runners,
    channels: (context) => [...standardChannels(context), a2aPushChannel(context, { pushKey })],
    ...(options.now ? { now: options.now } : {}),
  });
  const server: LocalHttpServer = await serveHttp(rt.http, 0, logger);
  url = server.url;
  return {
    rt,
    logs,
    url: server.url,
    close: async () => {
      await server.close();
      await gateway.close();
    },
  };
}
