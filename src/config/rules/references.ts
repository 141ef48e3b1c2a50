import path from 'node:path';
import type { LlmConfig, ModuleLocation, PromptTemplateFile } from '../../assistant/index.js';
import { compileTemplate, TemplateSyntaxError } from '../../prompts/environment.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import { isClass, resolveExport } from '../modules.js';
import { readProjectFile } from '../projectTree.js';
import type { YamlSource } from '../yamlSource.js';
import { didYouMean } from '../zodDiagnostics.js';

/** Checks that an `llm` block's model group exists. */
export function checkModelGroup(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  llm: LlmConfig | undefined,
): void {
  const group = llm?.model_group;
  if (group === undefined || ctx.declared.modelGroups.has(group)) return;
  const known = [...ctx.declared.modelGroups];
  ctx.error(
    source,
    [...path, 'model_group'],
    `${formatKeyPath([...path, 'model_group'])} "${group}" is not a model group in endpoints.yml${didYouMean(group, known)}${known.length === 0 ? ' (endpoints.yml defines no model_groups)' : ''}`,
  );
}

/** Reads a prompt template (relative to the project) and compiles it; errors point into it. */
export async function readPromptTemplate(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  relative: string,
): Promise<PromptTemplateFile | undefined> {
  const file = resolveProjectFile(ctx, relative);
  let text: string;
  try {
    text = await readProjectFile(file);
  } catch {
    ctx.error(source, path, `${formatKeyPath(path)}: template file ${relative} does not exist`);
    return undefined;
  }
  try {
    compileTemplate(text, file);
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    ctx.errors.push({
      file,
      line: error.line,
      col: error.col,
      message: `template syntax: ${error.message}`,
    });
    return undefined;
  }
  return { file, text };
}

/** Resolves a module path to an export of the expected shape, or reports why it does not. */
export async function checkExport(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  modulePath: string,
  expected: 'class' | 'function',
): Promise<ModuleLocation | undefined> {
  const resolved = await resolveExport(ctx.projectDir, modulePath);
  const where = `${formatKeyPath(path)} "${modulePath}"`;
  if (!resolved.ok) {
    ctx.error(source, path, `${where}: ${resolved.reason}`);
    return undefined;
  }
  const ok = expected === 'class' ? isClass(resolved.value) : typeof resolved.value === 'function';
  if (!ok) {
    const article = expected === 'class' ? 'a class' : 'a function';
    ctx.error(
      source,
      path,
      `${where}: the export ${resolved.location.exportName} is not ${article}`,
    );
    return undefined;
  }
  return resolved.location;
}

/** A path in the project as written in a file: relative to the project directory. */
export function resolveProjectFile(ctx: LoadContext, relative: string): string {
  return path.resolve(ctx.projectDir, relative);
}
