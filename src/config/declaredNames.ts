import {
  actionEntryName,
  BUILTIN_RESPONSES,
  BUILTIN_SLOTS,
  PATTERN_FLOWS,
} from '../assistant/index.js';
import type { FileKind } from './rasaCompat.js';

/**
 * Names declared anywhere in the project, read from raw data before validation. A reference to
 * a name declared in a file that has errors is not reported again: that file's own errors are.
 */
export class DeclaredNames {
  /** Starts with what the dialogue engine defines itself (pattern slots and responses). */
  readonly slots = new Set<string>(Object.keys(BUILTIN_SLOTS));
  readonly responses = new Set<string>(Object.keys(BUILTIN_RESPONSES));
  /** Custom actions: the functions `custom/actions.ts` exports. */
  readonly actions = new Set<string>();
  /** Custom actions the domain lists (`actions:`), as Rasa requires of action-server actions. */
  readonly domainActions = new Set<string>();
  /** Starts with the built-in patterns, which flows may link to. */
  readonly flows = new Set<string>(Object.keys(PATTERN_FLOWS));
  readonly agents = new Set<string>();
  readonly servers = new Set<string>();
  readonly modelGroups = new Set<string>();
  /** Whether endpoints.yml names a Rasa action server (`action_endpoint.url`). */
  actionServer = false;
  /** Whether endpoints.yml names Rasa's in-process action module (`action_endpoint.actions_module`). */
  actionsModule = false;

  collect(kind: FileKind, data: unknown): void {
    switch (kind) {
      case 'domain':
        addKeys(this.slots, field(data, 'slots'));
        addKeys(this.responses, field(data, 'responses'));
        addActions(this.domainActions, field(data, 'actions'));
        return;
      case 'flows':
        addKeys(this.flows, field(data, 'flows'));
        return;
      case 'endpoints':
        addField(this.servers, field(data, 'mcp_servers'), 'name');
        addField(this.modelGroups, field(data, 'model_groups'), 'id');
        this.actionServer ||= typeof field(field(data, 'action_endpoint'), 'url') === 'string';
        this.actionsModule ||=
          typeof field(field(data, 'action_endpoint'), 'actions_module') === 'string';
        return;
      case 'subAgent': {
        const name = field(field(data, 'agent'), 'name');
        if (typeof name === 'string') this.agents.add(name);
        return;
      }
      case 'config':
        return;
    }
  }
}

function field(data: unknown, key: string): unknown {
  return data !== null && typeof data === 'object'
    ? (data as Record<string, unknown>)[key]
    : undefined;
}

function addKeys(set: Set<string>, map: unknown): void {
  if (map !== null && typeof map === 'object' && !Array.isArray(map)) {
    for (const key of Object.keys(map)) set.add(key);
  }
}

function addActions(set: Set<string>, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const entry of list) {
    if (typeof entry === 'string') set.add(entry);
    else if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      set.add(actionEntryName(entry as Record<string, unknown>));
    }
  }
}

function addField(set: Set<string>, list: unknown, key: string): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    const value = field(item, key);
    if (typeof value === 'string') set.add(value);
  }
}
