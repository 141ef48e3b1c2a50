import { OptionalPackageError } from '../resilience/optionalPackage.js';
import { COMMANDS, helpRequested, USAGE } from './help.mjs';
import { type CliIo, EXIT, processIo, UsageError } from './io.js';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

/** Each command's module is imported only when it runs: `--help` loads none of them. */
const LOADERS: Readonly<Record<keyof typeof COMMANDS, () => Promise<Command>>> = {
  init: async () => (await import('./init.js')).initCommand,
  run: async () => (await import('./run.js')).runCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  test: async () => (await import('./test.js')).testCommand,
  shell: async () => (await import('./shell.js')).shellCommand,
};

const isCommand = (name: string): name is keyof typeof COMMANDS => Object.hasOwn(COMMANDS, name);

/** Runs one CLI invocation and returns its exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const help = helpRequested(argv);
  if (help !== undefined) {
    io.out(help);
    return EXIT.ok;
  }
  const [name, ...args] = argv;
  if (name === undefined || !isCommand(name)) {
    io.err(name === undefined ? USAGE : `switchboard: unknown command "${name}"\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    return await (await LOADERS[name]())(args, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err(`switchboard ${name}: ${(error as Error).message}\n${COMMANDS[name].help}`);
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
