import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Assistant } from '../assistant/index.js';
import {
  formatDiagnostic,
  type IgnoredKey,
  loadAssistant,
  projectEnvironment,
  relativeFile,
} from '../config/index.js';
import { type CliIo, UsageError } from './io.js';

/** The options every command that loads a project takes. */
export const PROJECT_OPTIONS = {
  project: { type: 'string', default: '.' },
  'sub-agents': { type: 'string', default: 'sub_agents' },
} as const;

/** Loads the project named on the command line; prints errors and returns undefined if invalid. */
export async function loadProjectFromArgs(
  io: CliIo,
  values: { project?: string; 'sub-agents'?: string },
): Promise<Assistant | undefined> {
  const projectDir = path.resolve(io.cwd, values.project ?? '.');
  if (!(await isDirectory(projectDir))) {
    throw new UsageError(`--project ${values.project}: no such directory`);
  }
  const result = await loadAssistant({
    projectDir,
    subAgentsDir: values['sub-agents'] ?? 'sub_agents',
    env: await projectEnvironment(projectDir, io.env),
  });
  printIgnored(io, result.ignored);
  if (!result.ok) {
    for (const d of result.errors) io.err(formatDiagnostic(d, io.cwd));
    io.err(`${result.errors.length} error(s); the assistant was not loaded`);
    return undefined;
  }
  return result.assistant;
}

/** Lists the Rasa keys that were accepted but are not used, once per file. */
function printIgnored(io: CliIo, ignored: readonly IgnoredKey[]): void {
  const byFile = new Map<string, string[]>();
  for (const item of ignored) {
    const file = relativeFile(item.file, io.cwd);
    byFile.set(file, [...(byFile.get(file) ?? []), item.key]);
  }
  for (const [file, keys] of byFile) {
    io.err(`note: ${file}: not used by Switchboard, ignored: ${keys.join(', ')}`);
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
