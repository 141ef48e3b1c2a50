import { parseArgs } from 'node:util';
import { summarize } from '../assistant/index.js';
import { type CliIo, EXIT } from './io.js';
import { loadProjectFromArgs, PROJECT_OPTIONS } from './projectArgs.js';

/** `switchboard validate`: exit 0 with a summary when valid, 1 with every error when not. */
export async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: PROJECT_OPTIONS, strict: true });
  const assistant = await loadProjectFromArgs(io, values);
  if (!assistant) return EXIT.invalid;
  io.out(`valid: ${summarize(assistant)}`);
  return EXIT.ok;
}
