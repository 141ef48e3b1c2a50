import type { Note } from './diagnostics.js';
import { formatKeyPath, type KeyPath } from './keyPath.js';
import { matchesAny, type PathPattern, pattern } from './pathPattern.js';
import type { FileKind } from './rasaCompat.js';
import type { YamlSource } from './yamlSource.js';

/**
 * Rasa's deprecated names of an LLM client's settings and the names it reads them as (the
 * `DEPRECATED_ALIASES_TO_STANDARD_KEY_MAPPING` of its client configs): older projects still write
 * `request_timeout`, `model_name`, `openai_api_base` or `type: openai`.
 */
const LLM_ALIASES: Readonly<Record<string, string>> = {
  request_timeout: 'timeout',
  model_name: 'model',
  openai_api_base: 'api_base',
  openai_api_version: 'api_version',
  openai_api_type: 'api_type',
  type: 'provider',
  _type: 'provider',
  deployment_name: 'deployment',
  engine: 'deployment',
};

/** Where each kind of file holds an LLM client's settings. */
const LLM_BLOCKS: Readonly<Record<FileKind, readonly PathPattern[]>> = {
  config: [pattern('pipeline.*.llm')],
  endpoints: [pattern('model_groups.*.models.*'), pattern('nlg.llm')],
  subAgent: [pattern('configuration.llm')],
  credentials: [],
  domain: [],
  flows: [],
};

/** A key read under its standard name: where it was, and where it is now. */
export interface RenamedKey {
  readonly from: KeyPath;
  readonly to: KeyPath;
}

/**
 * Reads Rasa's deprecated names in LLM settings as the names they stand for, each with a note.
 * As in Rasa, a deprecated name's value wins over the standard name written beside it.
 */
export function renameDeprecatedAliases(
  data: unknown,
  source: YamlSource,
  kind: FileKind,
): { data: unknown; notes: Note[]; renamed: RenamedKey[] } {
  const blocks = LLM_BLOCKS[kind];
  const notes: Note[] = [];
  const renamed: RenamedKey[] = [];
  const visit = (value: unknown, path: KeyPath): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...path, i]));
    const block: Record<string, unknown> = Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, visit(child, [...path, key])]),
    );
    if (!matchesAny(path, blocks)) return block;
    for (const [alias, standard] of Object.entries(LLM_ALIASES)) {
      if (!Object.hasOwn(block, alias)) continue;
      const beside = Object.hasOwn(block, standard)
        ? ` (its value wins over the "${standard}" beside it, as in Rasa)`
        : '';
      block[standard] = block[alias];
      delete block[alias];
      const from = [...path, alias];
      renamed.push({ from, to: [...path, standard] });
      notes.push({
        file: source.file,
        ...source.position(from, 'key'),
        message: `${formatKeyPath(from)}: Rasa's deprecated name of "${standard}", read as ${standard}${beside}; write "${standard}" instead`,
      });
    }
    return block;
  };
  return { data: visit(data, []), notes, renamed };
}
