import {
  NLG_KEYS,
  NLG_SERVER,
  type PromptTemplateFile,
  PYTHON_CLASS,
  RASA_REPHRASER_CLASSES,
  type RephraserSettings,
} from '../../assistant/index.js';
import { compileTemplate, TemplateSyntaxError } from '../../prompts/environment.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectFiles } from '../projectFiles.js';
import type { ProjectIndex } from '../projectIndex.js';
import { checkModelGroup, readPromptTemplate } from './references.js';

/**
 * Endpoints.yml's `nlg` block: its model group and prompt file. A Python class as `type` is noted
 * (Switchboard's own rephraser runs with the block's settings), and so is an external NLG server
 * (responses come from the domain). Undefined when nothing is rephrased.
 */
export async function checkNlg(
  ctx: LoadContext,
  files: ProjectFiles,
): Promise<RephraserSettings | undefined> {
  const endpoints = files.endpoints;
  const nlg = endpoints?.value.nlg;
  if (!endpoints || !nlg) return undefined;
  const { source } = endpoints;
  if (nlg.type === NLG_SERVER) {
    ctx.note(
      source,
      ['nlg'],
      'nlg: an external NLG server is not called here; responses come from the domain',
      'key',
    );
    return undefined;
  }
  const raw = (source.data as { nlg?: unknown } | null)?.nlg;
  const rawType =
    raw !== null && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  if (typeof rawType === 'string' && RASA_REPHRASER_CLASSES.has(rawType)) {
    ctx.note(
      source,
      ['nlg', 'type'],
      `nlg.type ${rawType} names Rasa's contextual response rephraser by its class: read as "rephrase", the type Rasa Pro reads since 3.8`,
    );
  }
  if (PYTHON_CLASS.test(nlg.type)) {
    const dropped =
      raw !== null && typeof raw === 'object'
        ? Object.keys(raw).filter((key) => !NLG_KEYS.has(key))
        : [];
    const unused =
      dropped.length > 0 ? `; the class's own keys (${dropped.join(', ')}) are not used` : '';
    ctx.note(
      source,
      ['nlg', 'type'],
      `nlg.type ${nlg.type} is a Python class, which does not run here: Switchboard's own rephraser runs with this block's prompt and settings${unused}`,
    );
  }
  checkModelGroup(ctx, source, ['nlg', 'llm'], nlg.llm);
  const { type: _type, prompt, prompt_template, ...settings } = nlg;
  const key = prompt_template !== undefined ? 'prompt_template' : 'prompt';
  const file = prompt_template ?? prompt;
  const promptTemplate: PromptTemplateFile | undefined =
    file === undefined ? undefined : await readPromptTemplate(ctx, source, ['nlg', key], file);
  return promptTemplate ? { ...settings, promptTemplate } : settings;
}

/**
 * The rephrasing keys of responses' metadata: `rephrase` is true or false, and `rephrase_prompt`
 * a template that compiles.
 */
export function checkRephraseMetadata(ctx: LoadContext, index: ProjectIndex): void {
  for (const [, { value: variations, source, path }] of index.responses) {
    variations.forEach((variation, i) => {
      const metadata = variation.metadata;
      if (!metadata) return;
      const at: KeyPath = [...path, i, 'metadata'];
      if (metadata.rephrase !== undefined && typeof metadata.rephrase !== 'boolean') {
        ctx.error(
          source,
          [...at, 'rephrase'],
          `${formatKeyPath([...at, 'rephrase'])} must be true or false`,
        );
      }
      const prompt = metadata.rephrase_prompt;
      if (prompt === undefined) return;
      const where = formatKeyPath([...at, 'rephrase_prompt']);
      if (typeof prompt !== 'string' || prompt.trim() === '') {
        ctx.error(source, [...at, 'rephrase_prompt'], `${where} must be a non-empty template`);
        return;
      }
      try {
        compileTemplate(prompt, where);
      } catch (error) {
        if (!(error instanceof TemplateSyntaxError)) throw error;
        ctx.error(
          source,
          [...at, 'rephrase_prompt'],
          `${where}: template syntax: ${error.message} (line ${error.line} of the template)`,
        );
      }
    });
  }
}
