import path from 'node:path';
import { parseArgs } from 'node:util';
import { summarize } from '../assistant/index.js';
import { messagingPaths } from '../channels/messaging/index.js';
import { isDirectory, isFile, projectEnvironment, yamlFilesUnder } from '../config/index.js';
import {
  BlankRestTokenError,
  type LocalStack,
  StateFolderInUseError,
  startLocalStack,
} from '../local/index.js';
import { type CliIo, EXIT, UsageError } from './io.js';
import { startPeersFor } from './peers.js';
import { loadProjectFromArgs, PROJECT_OPTIONS } from './projectArgs.js';
import { projectStandIn } from './standIn.js';

/** Resolves when the process is asked to stop; tests pass their own. */
export type StopSignal = Promise<unknown>;

function processStopSignal(): StopSignal {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

/**
 * `switchboard run`: serves the assistant locally (HTTP on loopback, dynalite and fauxqs in
 * process, a worker loop) until SIGINT or SIGTERM, then shuts down cleanly. With
 * `--demo-peers` (what `npm start` passes) it also runs the example assistant's demo MCP servers and A2A agent,
 * unless `SWITCHBOARD_DEMO_PEERS=off`.
 */
export async function runCommand(
  args: readonly string[],
  io: CliIo,
  stopSignal: () => StopSignal = processStopSignal,
): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      ...PROJECT_OPTIONS,
      port: { type: 'string', default: '5005' },
      state: { type: 'string' },
      'demo-peers': { type: 'boolean', default: false },
      peers: { type: 'string', multiple: true },
    },
    strict: true,
  });
  const { flows, state } = await splitDataOptions(
    path.resolve(io.cwd, values.project ?? '.'),
    values.data ?? [],
    values.state,
  );
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port ${values.port}: not a port number`);
  }
  const replyWaitMs = replyWaitOf(io.env.SWITCHBOARD_REPLY_WAIT_MS);
  const assistant = await loadProjectFromArgs(io, { ...values, data: flows });
  if (!assistant) return EXIT.invalid;
  io.err(`loaded assistant: ${summarize(assistant)}`);
  // Credentials in .env count as the environment, as they do for the project's ${VAR}s.
  const env = await projectEnvironment(assistant.projectDir, io.env);
  const standIn = await projectStandIn(io, 'run', assistant, env);
  if (!standIn) return EXIT.invalid;
  const peers = await startPeersFor(io, 'run', {
    assistant,
    env,
    demo: values['demo-peers'],
    modules: values.peers ?? [],
  });
  if (!peers) return EXIT.invalid;
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      assistant,
      port,
      env,
      announce: (line) => io.err(line),
      // The conversations as they go, on the terminal (logs stay JSON lines, WARN by default).
      showTurns: (line) => io.err(line),
      ...standIn,
      ...(state !== undefined ? { dataDir: state } : {}),
      ...(replyWaitMs !== undefined ? { replyWaitMs } : {}),
    });
  } catch (error) {
    await peers.close();
    if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') {
      io.err(
        `switchboard run: port ${port} is in use; is the assistant already running? Stop it, or pass --port`,
      );
      return EXIT.invalid;
    }
    if (!(error instanceof BlankRestTokenError || error instanceof StateFolderInUseError)) {
      throw error;
    }
    io.err(`switchboard run: ${error.message}`);
    return EXIT.invalid;
  }
  io.out(`listening on ${stack.url}`);
  for (const path of messagingPaths(assistant.channels)) {
    io.err(`channel webhook: ${stack.url}${path}`);
  }
  if (assistant.channels?.socketio) io.err(`socket.io (Rasa's chat widgets): ${stack.url}`);
  // The token goes in the inspector's URL: a browser cannot send it in a header.
  const query = env.SWITCHBOARD_REST_TOKEN ? '?token=…' : '';
  io.err(`inspect and chat in a browser: ${stack.url}/inspect${query}`);
  const token = env.SWITCHBOARD_REST_TOKEN ? 'SWITCHBOARD_REST_TOKEN=… ' : '';
  io.err(`talk to it on the terminal: ${token}npx switchboard shell --url ${stack.url}`);
  await stopSignal();
  io.err('shutting down');
  await stack.stop();
  await peers.close();
  return EXIT.ok;
}

/**
 * `--data` names the project's flows, as in Rasa: a YAML file or a folder holding YAML files.
 * Before Rasa's options, `--data DIR` named the folder that keeps conversations (now `--state`);
 * a `--data` folder without YAML files still means that.
 */
async function splitDataOptions(
  projectDir: string,
  data: readonly string[],
  stateOption: string | undefined,
): Promise<{ flows: string[]; state: string | undefined }> {
  const flows: string[] = [];
  const states: string[] = stateOption === undefined ? [] : [stateOption];
  for (const value of data) {
    if (await holdsYaml(path.resolve(projectDir, value))) flows.push(value);
    else states.push(value);
  }
  if (states.length > 1) {
    throw new UsageError(
      `conversations can be kept in one folder, not in ${states.join(' and ')}: use --state DIR once (--data names the project's flows)`,
    );
  }
  return { flows, state: states[0] };
}

async function holdsYaml(file: string): Promise<boolean> {
  if (await isFile(file)) return /\.ya?ml$/i.test(file);
  return (await isDirectory(file)) && (await yamlFilesUnder(file)).length > 0;
}

/** `SWITCHBOARD_REPLY_WAIT_MS`: how long the REST webhook waits for a turn (0 to 120,000 ms). */
function replyWaitOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 120_000) {
    throw new UsageError(
      `SWITCHBOARD_REPLY_WAIT_MS=${value}: not a number of milliseconds from 0 to 120000`,
    );
  }
  return ms;
}
