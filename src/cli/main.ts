import { OptionalPackageError } from '../resilience/optionalPackage.js';
import { type CliIo, EXIT, processIo, UsageError } from './io.js';

const PROJECT_HELP = `project options:
  --project DIR      the assistant project (default: the current folder)
  --sub-agents DIR   its sub-agent folder (default: sub_agents)
  --config FILE      its configuration (default: config.yml)
  --endpoints FILE   its endpoints (default: endpoints.yml)
  --domain PATH      its domain file or folder (default: domain.yml or domain/)
  --data PATH        a flows file or folder, repeatable (default: data/)`;

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

interface CommandEntry {
  /** One line for the list of commands. */
  readonly summary: string;
  /** `switchboard <name> --help`. */
  readonly help: string;
  /** The command's module is imported only when it runs: `--help` loads none of them. */
  readonly load: () => Promise<Command>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  run: {
    summary: 'start the assistant locally',
    help: `usage: switchboard run [options]

Serves the assistant on loopback (the REST channel at /webhooks/rest/webhook), with DynamoDB and
SQS emulated in process, until Ctrl-C.

options:
  --port N        the HTTP port (default: 5005)
  --state DIR     keep conversations in DIR across restarts (default: in memory)
  --demo-peers    also start the demo's MCP servers and A2A agent (SWITCHBOARD_DEMO_PEERS=off skips them)

${PROJECT_HELP}`,
    load: async () => (await import('./run.js')).runCommand,
  },
  validate: {
    summary: 'check an assistant project',
    help: `usage: switchboard validate [options]

Loads the project and reports every problem as FILE:LINE:COL: message. Exit code 0 when it is
valid, 1 when it is not.

${PROJECT_HELP}`,
    load: async () => (await import('./validate.js')).validateCommand,
  },
  test: {
    summary: 'run conversation tests (e2e)',
    help: `usage: switchboard test [PATH] [options]

Runs Rasa's end-to-end conversation tests in PATH (a file or a folder; default:
tests/e2e_test_cases.yml) against the assistant in process.

options:
  --junit-xml FILE    also write the results as JUnit XML
  --fail-fast         stop at the first failing test
  --commands FILE     the command generator's scripted answers (default: e2e_commands.yml
                      beside the tests, when there is one)
  --no-commands       ask the configured model instead
  --demo-peers        start the demo's MCP servers and A2A agent for the tests

${PROJECT_HELP}`,
    load: async () => (await import('./test.js')).testCommand,
  },
};

const USAGE = `usage: switchboard <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`)
  .join('\n')}

Run switchboard <command> --help for a command's options.`;

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/** Runs one CLI invocation and returns its exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || HELP_FLAGS.has(name)) {
    (name === undefined ? io.err : io.out)(USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    io.err(`switchboard: unknown command "${name}"\n${USAGE}`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(entry.help);
    return EXIT.ok;
  }
  try {
    return await (await entry.load())(args, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err(`switchboard ${name}: ${(error as Error).message}\n${entry.help}`);
      return EXIT.usage;
    }
    if (error instanceof OptionalPackageError) {
      io.err(`switchboard ${name}: ${error.message}`);
      return EXIT.invalid;
    }
    throw error;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
