import { type CliIo, EXIT, processIo, UsageError } from './io.js';
import { runCommand } from './run.js';
import { testCommand } from './test.js';
import { validateCommand } from './validate.js';

const USAGE = `usage: switchboard <command> [options]

commands:
  run        start the assistant locally    [--port N] [--state DIR] [--demo-peers]
  validate   check an assistant project
  test       run conversation tests (e2e)   [PATH] [--junit-xml FILE] [--fail-fast]
                                            [--commands FILE | --no-commands]

project options (run, validate, test):
  --project DIR      the assistant project (default: the current folder)
  --sub-agents DIR   its sub-agent folder (default: sub_agents)
  --config FILE      its configuration (default: config.yml)
  --endpoints FILE   its endpoints (default: endpoints.yml)
  --domain PATH      its domain file or folder (default: domain.yml or domain/)
  --data PATH        a flows file or folder, repeatable (default: data/)`;

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  run: runCommand,
  validate: validateCommand,
  test: testCommand,
};

/** Runs one CLI invocation and returns its exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`switchboard: unknown command "${name}"\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err(`switchboard ${name}: ${(error as Error).message}\n${USAGE}`);
      return EXIT.usage;
    }
    throw error;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
