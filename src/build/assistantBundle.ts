import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Assistant } from '../assistant/index.js';
import { formatDiagnostic, loadAssistant, type ProjectPaths } from '../config/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { A2A_SERVER_MODULE, a2aServerSource, registrySource } from './registrySource.js';

/**
 * The project failed validation; the message lists every diagnostic, one per line.
 * Code `ASSISTANT_BUNDLE_INVALID`.
 */
export class AssistantBundleError extends SwitchboardError {
  override readonly name = 'AssistantBundleError';
  override readonly code = 'ASSISTANT_BUNDLE_INVALID';
  constructor(
    readonly projectDir: string,
    readonly diagnostics: readonly string[],
  ) {
    super(`the assistant project ${projectDir} is invalid:\n${diagnostics.join('\n')}`);
  }
}

/** What `generateAssistantBundle` wrote. */
export interface AssistantBundle {
  readonly assistant: Assistant;
  /** `outDir/assistant.json`: the assistant object. */
  readonly assistantFile: string;
  /** `outDir/registry.ts`: the static module registry the worker bundles. */
  readonly registryFile: string;
  /** `outDir/a2aServer.ts`: `a2a_server` and the card's name and skills, for the A2A function. */
  readonly a2aServerFile: string;
}

/**
 * Loads and validates a project, its files where `paths` says (credentials stay references: a
 * secret store resolves them at run time), and writes the assistant, a static registry of its
 * modules and the A2A server's part of it into `outDir`.
 */
export async function generateAssistantBundle(
  projectDir: string,
  subAgentsDir: string | undefined,
  outDir: string,
  paths?: ProjectPaths,
): Promise<AssistantBundle> {
  const result = await loadAssistant({
    projectDir,
    ...(subAgentsDir === undefined ? {} : { subAgentsDir }),
    ...(paths === undefined ? {} : { paths }),
    requireSecretValues: false,
  });
  if (!result.ok) {
    const base = path.resolve(projectDir);
    throw new AssistantBundleError(
      base,
      result.errors.map((d) => formatDiagnostic(d, base)),
    );
  }
  const out = path.resolve(outDir);
  await mkdir(out, { recursive: true });
  const assistantFile = path.join(out, 'assistant.json');
  const registryFile = path.join(out, 'registry.ts');
  await writeFile(assistantFile, `${JSON.stringify(result.assistant, null, 2)}\n`);
  const a2aServerFile = path.join(out, A2A_SERVER_MODULE);
  await writeFile(registryFile, registrySource(result.assistant, out));
  await writeFile(a2aServerFile, a2aServerSource(result.assistant));
  return { assistant: result.assistant, assistantFile, registryFile, a2aServerFile };
}
