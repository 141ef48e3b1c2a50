import { PATTERN_CONTEXT_KEYS } from '../../assistant/index.js';
import { compileTemplate, TemplateSyntaxError } from '../../prompts/environment.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { YamlSource } from '../yamlSource.js';
import { didYouMean } from '../zodDiagnostics.js';

const JINJA_BLOCK = /\{\{(.*?)\}\}|\{%(.*?)%\}/gs;
const CONTEXT_KEY = /\bcontext\.([A-Za-z_]\w*)/g;

/**
 * Checks Jinja in a step's action name or `next` condition, which Rasa renders with the frame's
 * context when the step runs, so nothing else about it is known before: it must compile, and in
 * a built-in pattern it may read only keys that pattern's context holds.
 */
export function checkTemplatedText(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  text: string,
  flowId: string,
): void {
  try {
    compileTemplate(text, formatKeyPath(path));
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    ctx.error(
      source,
      path,
      `${formatKeyPath(path)} is not a valid Jinja template: ${error.message}`,
    );
    return;
  }
  const keys = PATTERN_CONTEXT_KEYS[flowId];
  if (!keys) return;
  for (const key of contextKeysIn(text)) {
    if (keys.includes(key)) continue;
    const known = keys.length > 0 ? ` (it has ${keys.join(', ')})` : ' (it has none)';
    ctx.error(
      source,
      path,
      `${formatKeyPath(path)} reads context.${key}, which ${flowId}'s context does not hold${didYouMean(key, keys)}${known}`,
    );
  }
}

/** One note for a flow whose steps hold Jinja: what happens to it, at the first such step. */
export function noteTemplatedSteps(
  ctx: LoadContext,
  source: YamlSource,
  paths: readonly KeyPath[],
  flowId: string,
): void {
  const [first] = paths;
  if (first === undefined) return;
  ctx.note(
    source,
    first,
    `flow "${flowId}" has Jinja in ${paths.length} action name(s) or condition(s): as in Rasa, each is rendered with the frame's context when its step runs (a condition is parsed then); an action name that renders to nothing the project or Switchboard defines is skipped, with a warning unless it is a validate_<slot> action`,
  );
}

/** The `context.<key>` names the Jinja blocks of a text read, once each. */
function contextKeysIn(text: string): string[] {
  const keys = new Set<string>();
  for (const block of text.matchAll(JINJA_BLOCK)) {
    const body = block[1] ?? block[2] ?? '';
    for (const key of body.matchAll(CONTEXT_KEY)) if (key[1] !== undefined) keys.add(key[1]);
  }
  return [...keys];
}
