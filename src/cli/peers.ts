import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Assistant } from '../assistant/index.js';
import { relativeFile } from '../config/index.js';
import { startDemoPeers } from '../demo/index.js';
import { SwitchboardError } from '../resilience/index.js';
import type { CliIo } from './io.js';

/**
 * What a project's development peer module is given: `--peers FILE` names a module whose
 * `start` export serves something the assistant calls (an MCP server, an A2A agent) while it runs
 * locally, such as the MCP server `switchboard init` writes.
 */
export interface PeerContext {
  /** The environment, with the project's `.env`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project's folder. */
  readonly projectDir: string;
  /** The MCP servers of the project's endpoints.yml, by name, with the URL each is reached at. */
  readonly mcpServers: Readonly<Record<string, { readonly url: string }>>;
}

/** A started peer: `close` stops it; `url`, when given, is shown where it serves. */
export interface RunningPeer {
  readonly url?: string;
  close(): Promise<void>;
}

/** The `start` export of a development peer module. */
export type StartPeer = (context: PeerContext) => Promise<RunningPeer>;

/** The peers a command started beside its local stack. */
export interface StartedPeers {
  /** One line per peer, for the console. */
  readonly started: readonly string[];
  close(): Promise<void>;
}

/** A peer module that is missing, exports no `start`, or fails to start. Code `PEER_FAILED`. */
export class PeerStartError extends SwitchboardError {
  override readonly name = 'PeerStartError';
  override readonly code = 'PEER_FAILED';
  /** Whether the demo peers failed (rather than a project's peer module). */
  demo = false;
}

/**
 * Starts the demo peers (`--demo-peers`) and each project peer module (`--peers FILE`, relative
 * to the project, as every file option is), in that order; when one fails, those already started
 * are stopped. Files are shown relative to `cwd`.
 */
export async function startPeers(options: {
  readonly assistant: Assistant;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly demo: boolean;
  readonly modules: readonly string[];
}): Promise<StartedPeers> {
  const { assistant, env } = options;
  const started: string[] = [];
  const running: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    // Last started, first stopped.
    for (const peer of running.reverse()) await peer.close().catch(() => undefined);
  };
  try {
    // SWITCHBOARD_DEMO_PEERS=off leaves them out, for a project that points at real peers.
    if (options.demo && env.SWITCHBOARD_DEMO_PEERS?.toLowerCase() !== 'off') {
      const demo = await startDemoPeers(assistant, env).catch((error: unknown) => {
        const failed = new PeerStartError(`the demo peers could not start: ${describe(error)}`);
        failed.demo = true;
        throw failed;
      });
      running.push(demo);
      started.push(...demo.started);
    }
    for (const given of options.modules) {
      const file = path.resolve(assistant.projectDir, given);
      const shown = relativeFile(file, options.cwd);
      const start = await startExport(file, shown);
      const mcpServers = Object.fromEntries(
        Object.values(assistant.mcpServers).map((server) => [server.name, { url: server.url }]),
      );
      const context = { env, projectDir: assistant.projectDir, mcpServers };
      // A start() that throws before it returns a promise fails the same way.
      const peer = await Promise.resolve()
        .then(() => start(context))
        .catch((error: unknown) => {
          throw new PeerStartError(`the peer ${shown} could not start: ${describe(error)}`);
        });
      if (typeof peer?.close !== 'function') {
        throw new PeerStartError(`the start() of ${shown} must return an object with close()`);
      }
      running.push(peer);
      started.push(`peer ${shown}${peer.url ? ` on ${peer.url}` : ''}`);
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
  return { started, close: closeAll };
}

/**
 * Starts a command's peers and prints a line for each; when they cannot start, prints why (as
 * `switchboard <command>: …`) and returns undefined.
 */
export async function startPeersFor(
  io: CliIo,
  command: string,
  options: Omit<Parameters<typeof startPeers>[0], 'cwd'>,
): Promise<StartedPeers | undefined> {
  try {
    const peers = await startPeers({ ...options, cwd: io.cwd });
    for (const line of peers.started) io.err(line);
    return peers;
  } catch (error) {
    if (!(error instanceof PeerStartError)) throw error;
    io.err(`switchboard ${command}: ${error.message}`);
    if (error.demo) {
      io.err('stop what uses their ports, or set SWITCHBOARD_DEMO_PEERS=off to run without them');
    }
    return undefined;
  }
}

async function startExport(file: string, shown: string): Promise<StartPeer> {
  const found = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!found) throw new PeerStartError(`--peers ${shown}: no such file`);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new PeerStartError(`${shown} fails to load: ${message}`);
  }
  const start = namespace.start;
  if (typeof start !== 'function') {
    throw new PeerStartError(
      `${shown} exports no start() function (export async function start(context) { … return { close } })`,
    );
  }
  return start as StartPeer;
}

function describe(error: unknown): string {
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    return `a port is in use (${error.message}); is the assistant already running? Stop what holds the port, or move the server to another port`;
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}
