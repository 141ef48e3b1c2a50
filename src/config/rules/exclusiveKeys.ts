import { AUTH_METHOD_KEYS, STEP_KINDS } from '../../assistant/index.js';
import type { KeyPath } from '../keyPath.js';
import { formatKeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import { matches, type PathPattern, pattern } from '../pathPattern.js';
import type { FileKind } from '../rasaCompat.js';
import type { YamlSource } from '../yamlSource.js';

interface ExclusiveGroup {
  readonly at: PathPattern;
  readonly keys: readonly string[];
  readonly why: string;
}

const AUTH = { keys: AUTH_METHOD_KEYS, why: 'choose one authentication method' };

const GROUPS: Readonly<Record<FileKind, readonly ExclusiveGroup[]>> = {
  endpoints: [
    { at: pattern('mcp_servers.*'), ...AUTH },
    {
      at: pattern('mcp_servers.*'),
      keys: ['pre_call_hook', 'conversation_secret'],
      why: 'a server has one call-time credential hook: a pre_call_hook of yours or the built-in conversation_secret',
    },
    {
      at: pattern('mcp_servers.*'),
      keys: ['read_only', 'read_only_tools'],
      why: 'declare the whole server read-only or list its read-only tools, not both',
    },
    {
      at: pattern('a2a_server.auth'),
      keys: ['secret', 'jwks_url'],
      why: 'verify tokens with a shared secret or with a JWKS endpoint, not both',
    },
    {
      at: pattern('nlg'),
      keys: ['prompt_template', 'prompt'],
      why: 'name the prompt file once (prompt is the older name of prompt_template)',
    },
    {
      at: pattern('nlg.llm'),
      keys: ['model_group', 'model-group', 'model'],
      why: 'name a model group or a model, not both',
    },
  ],
  subAgent: [
    {
      at: pattern('connections.mcp_servers.*'),
      keys: ['include_tools', 'exclude_tools'],
      why: 'list the tools to include or the tools to exclude, not both',
    },
    { at: pattern('configuration.auth'), ...AUTH },
    {
      at: pattern('configuration.llm'),
      keys: ['model_group', 'model-group', 'model'],
      why: 'name a model group or a model, not both',
    },
  ],
  flows: [
    {
      at: pattern('flows.*.**.steps.*'),
      keys: STEP_KINDS,
      why: 'a step does exactly one thing; split it into two steps',
    },
    {
      at: pattern('flows.*.**.then.*'),
      keys: STEP_KINDS,
      why: 'a step does exactly one thing; split it into two steps',
    },
    {
      at: pattern('flows.*.**.else.*'),
      keys: STEP_KINDS,
      why: 'a step does exactly one thing; split it into two steps',
    },
  ],
  config: [
    {
      at: pattern('pipeline.*.llm'),
      keys: ['model_group', 'model-group', 'model'],
      why: 'name a model group or a model, not both',
    },
  ],
  domain: [],
  credentials: [],
};

/**
 * Reports mutually exclusive keys used together, at the one that comes second in the file.
 * Runs on raw data so that it holds whatever else is wrong with the file.
 */
export function checkExclusiveKeys(
  ctx: LoadContext,
  source: YamlSource,
  data: unknown,
  kind: FileKind,
): void {
  const groups = GROUPS[kind];
  const visit = (value: unknown, path: KeyPath): void => {
    if (value === null || typeof value !== 'object') return;
    if (!Array.isArray(value)) {
      for (const group of groups) {
        if (matches(path, group.at)) report(value as Record<string, unknown>, path, group);
      }
    }
    for (const [key, child] of Object.entries(value)) {
      visit(child, [...path, Array.isArray(value) ? Number(key) : key]);
    }
  };
  const report = (map: Record<string, unknown>, path: KeyPath, group: ExclusiveGroup) => {
    const present = group.keys
      .filter((k) => k in map)
      .map((k) => ({ key: k, pos: source.position([...path, k], 'key') }))
      .sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
    const [first, ...later] = present;
    if (!first) return;
    for (const second of later) {
      ctx.error(
        source,
        [...path, second.key],
        `${formatKeyPath([...path, second.key])} cannot be used together with "${first.key}": ${group.why}`,
        'key',
      );
    }
  };
  visit(data, []);
}
