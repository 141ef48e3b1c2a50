import { parseArgs } from 'node:util';
import { summarize } from '../config/index.js';
import { type CliIo, EXIT } from './io.js';
import { loadProjectFromArgs, PROJECT_OPTIONS } from './projectArgs.js';

/**
 * `switchboard run`: loads and validates the assistant. Serving it over HTTP comes with the
 * runtime; until then the command reports what it would serve.
 */
export async function runCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      ...PROJECT_OPTIONS,
      port: { type: 'string', default: '5005' },
      data: { type: 'string' },
    },
    strict: true,
  });
  const assistant = await loadProjectFromArgs(io, values);
  if (!assistant) return EXIT.invalid;
  io.out(`loaded assistant: ${summarize(assistant)}`);
  io.out('the HTTP runtime is not part of this build yet; nothing is served');
  return EXIT.ok;
}
