import path from 'node:path';
import type { Assistant } from '../assistant/index.js';
import {
  formatDiagnostic,
  type IgnoredKey,
  isDirectory,
  loadAssistant,
  projectEnvironment,
  relativeFile,
  resolveProjectPaths,
} from '../config/index.js';
import { type CliIo, UsageError } from './io.js';

/**
 * The options every command that loads a project takes: the project folder and, as in Rasa,
 * where it keeps files outside the default places.
 */
export const PROJECT_OPTIONS = {
  project: { type: 'string', default: '.' },
  'sub-agents': { type: 'string', default: 'sub_agents' },
  config: { type: 'string' },
  endpoints: { type: 'string' },
  credentials: { type: 'string' },
  domain: { type: 'string' },
  data: { type: 'string', multiple: true },
} as const;

/** What the project options hold once parsed. */
export interface ProjectOptionValues {
  readonly project?: string | undefined;
  readonly 'sub-agents'?: string | undefined;
  readonly config?: string | undefined;
  readonly endpoints?: string | undefined;
  readonly credentials?: string | undefined;
  readonly domain?: string | undefined;
  readonly data?: readonly string[] | undefined;
}

/** Loads the project named on the command line; prints errors and returns undefined if invalid. */
export async function loadProjectFromArgs(
  io: CliIo,
  values: ProjectOptionValues,
): Promise<Assistant | undefined> {
  const projectDir = path.resolve(io.cwd, values.project ?? '.');
  if (!(await isDirectory(projectDir))) {
    throw new UsageError(`--project ${values.project}: no such directory`);
  }
  const result = await loadAssistant({
    projectDir,
    subAgentsDir: values['sub-agents'] ?? 'sub_agents',
    paths: resolveProjectPaths(projectDir, values),
    env: await projectEnvironment(projectDir, io.env),
  });
  printIgnored(io, result.ignored);
  for (const note of result.notes) io.err(`note: ${formatDiagnostic(note, io.cwd)}`);
  for (const warning of result.warnings) io.err(`warning: ${formatDiagnostic(warning, io.cwd)}`);
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
