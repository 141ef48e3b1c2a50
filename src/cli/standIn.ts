import path from 'node:path';
import type { Assistant } from '../assistant/index.js';
import { formatDiagnostic, isFile, relativeFile } from '../config/index.js';
import { COMMANDS_FILE_NAME, loadCommandsFile, scriptedModel } from '../e2eTests/index.js';
import { type ChatModel, hasModelAccess } from '../llm/index.js';
import type { CliIo } from './io.js';

/**
 * Without a key, a project with a commands file (`tests/e2e_commands.yml`) is played from it:
 * the commands its messages get, and its agents' scripted replies. Other projects get the demo
 * model. Undefined when the file has errors, which are printed.
 */
export async function projectStandIn(
  io: CliIo,
  command: string,
  assistant: Assistant,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ standIn?: { model: ChatModel; announce: string } } | undefined> {
  if (hasModelAccess(assistant.commandGenerator.llm, assistant, env)) return {};
  const file = path.join(assistant.projectDir, 'tests', COMMANDS_FILE_NAME);
  if (!(await isFile(file))) return {};
  const loaded = await loadCommandsFile(file);
  const shown = relativeFile(file, io.cwd);
  const errors = loaded.commands
    ? loaded.commands.unknownAgents(Object.keys(assistant.agents))
    : loaded.errors;
  if (!loaded.commands || errors.length > 0) {
    for (const error of errors) io.err(formatDiagnostic(error, io.cwd));
    io.err(
      `switchboard ${command}: ${shown}, which plays the model without a key, has ${errors.length} error(s)`,
    );
    return undefined;
  }
  const { commands } = loaded;
  const model = scriptedModel(commands, (message, suggestion) => {
    const known = commands.messages.slice(0, 6).map((m) => JSON.stringify(m));
    io.err(
      `the scripted model has no commands for ${JSON.stringify(message)} in ${shown}${suggestion || `; it answers ${known.join(', ')}`}`,
    );
  });
  return {
    standIn: {
      model,
      announce: `no OPENAI_API_KEY or model api_base: a scripted model answers the messages of ${shown}`,
    },
  };
}
