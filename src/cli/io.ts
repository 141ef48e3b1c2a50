/** Where a command writes; tests pass their own. */
import { SwitchboardError } from '../resilience/index.js';
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  cwd: process.cwd(),
  env: process.env,
};

/** Exit codes: 0 success, 1 the project is invalid, 2 the command line is wrong. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/** A command line that cannot be run as written. Code `CLI_USAGE`. */
export class UsageError extends SwitchboardError {
  override readonly name = 'UsageError';
  override readonly code = 'CLI_USAGE';
}
