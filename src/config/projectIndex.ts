import {
  type ActionEndpointConfig,
  actionEntryName,
  type FlowDefinition,
  type McpServerConfig,
  type ModelGroup,
  type ResponseVariation,
  type SessionConfig,
  type SlotDefinition,
} from '../assistant/index.js';
import type { KeyPath } from './keyPath.js';
import type { LoadContext } from './loadContext.js';
import type { AgentFile, ProjectFiles } from './projectFiles.js';
import type { YamlSource } from './yamlSource.js';

/** A definition and where it is written. */
export interface Defined<T> {
  readonly value: T;
  readonly source: YamlSource;
  readonly path: KeyPath;
  /** Whether the name is the key at `path` (slots, flows) or the value (servers, groups). */
  readonly anchor: 'key' | 'value';
}

/** Every named thing in a project, for the rules that cross files. */
export interface ProjectIndex {
  readonly slots: ReadonlyMap<string, Defined<SlotDefinition>>;
  readonly responses: ReadonlyMap<string, Defined<readonly ResponseVariation[]>>;
  readonly intents: ReadonlySet<string>;
  readonly flows: ReadonlyMap<string, Defined<FlowDefinition>>;
  readonly servers: ReadonlyMap<string, Defined<McpServerConfig>>;
  readonly modelGroups: ReadonlyMap<string, Defined<ModelGroup>>;
  readonly agents: ReadonlyMap<string, AgentFile>;
  /** Custom actions the domain declares (`actions:`); a name listed twice is kept once. */
  readonly domainActions: ReadonlyMap<string, Defined<string>>;
  /** Domain actions whose entry says `send_domain: true`. */
  readonly domainActionsSendingDomain: ReadonlySet<string>;
  readonly actionEndpoint: Defined<ActionEndpointConfig> | undefined;
  /** The domain's `session_config`: the first domain file's that has one. */
  readonly sessionConfig: Defined<SessionConfig> | undefined;
}

/** Builds the index; a name defined twice is an error at the second definition. */
export function indexProject(ctx: LoadContext, files: ProjectFiles): ProjectIndex {
  const slots = new Map<string, Defined<SlotDefinition>>();
  const responses = new Map<string, Defined<readonly ResponseVariation[]>>();
  const intents = new Set<string>();
  const domainActions = new Map<string, Defined<string>>();
  const domainActionsSendingDomain = new Set<string>();
  let sessionConfig: Defined<SessionConfig> | undefined;
  for (const { source, value } of files.domains) {
    if (value.session_config && sessionConfig) {
      const first = ctx.where(sessionConfig.source, sessionConfig.path, 'key');
      ctx.note(
        source,
        ['session_config'],
        `session_config is set again; the first, at ${first}, applies`,
        'key',
      );
    } else if (value.session_config) {
      sessionConfig = {
        value: value.session_config,
        source,
        path: ['session_config'],
        anchor: 'key',
      };
    }
    for (const [name, slot] of Object.entries(value.slots)) {
      add(ctx, 'slot', slots, name, { value: slot, source, path: ['slots', name], anchor: 'key' });
    }
    for (const [name, variations] of Object.entries(value.responses)) {
      add(ctx, 'response', responses, name, {
        value: variations,
        source,
        path: ['responses', name],
        anchor: 'key',
      });
    }
    for (const intent of value.intents) {
      intents.add(typeof intent === 'string' ? intent : (Object.keys(intent)[0] ?? ''));
    }
    value.actions.forEach((entry, i) => {
      const name = actionEntryName(entry);
      if (!domainActions.has(name)) {
        const anchor = typeof entry === 'string' ? 'value' : 'key';
        const path = typeof entry === 'string' ? ['actions', i] : ['actions', i, name];
        domainActions.set(name, { value: name, source, path, anchor });
      }
      if (typeof entry !== 'string' && sendsDomain(entry[name])) {
        domainActionsSendingDomain.add(name);
      }
    });
  }
  const flows = new Map<string, Defined<FlowDefinition>>();
  for (const { source, value } of files.flows) {
    for (const [id, flow] of Object.entries(value.flows)) {
      add(ctx, 'flow', flows, id, { value: flow, source, path: ['flows', id], anchor: 'key' });
    }
  }
  const servers = new Map<string, Defined<McpServerConfig>>();
  const modelGroups = new Map<string, Defined<ModelGroup>>();
  let actionEndpoint: Defined<ActionEndpointConfig> | undefined;
  if (files.endpoints) {
    const { source, value } = files.endpoints;
    if (value.action_endpoint) {
      actionEndpoint = {
        value: value.action_endpoint,
        source,
        path: ['action_endpoint'],
        anchor: 'key',
      };
    }
    value.mcp_servers.forEach((server, i) => {
      add(ctx, 'MCP server', servers, server.name, {
        value: server,
        source,
        path: ['mcp_servers', i, 'name'],
        anchor: 'value',
      });
    });
    value.model_groups.forEach((group, i) => {
      add(ctx, 'model group', modelGroups, group.id, {
        value: group,
        source,
        path: ['model_groups', i, 'id'],
        anchor: 'value',
      });
    });
  }
  const agents = new Map<string, AgentFile>();
  for (const agent of files.agents) {
    const name = agent.value.agent.name;
    const first = agents.get(name);
    if (first) {
      ctx.error(
        agent.source,
        ['agent', 'name'],
        `agent name "${name}" is already used by ${ctx.where(first.source, ['agent', 'name'])}; agent names must be unique`,
      );
    } else {
      agents.set(name, agent);
    }
  }
  return {
    slots,
    responses,
    intents,
    flows,
    servers,
    modelGroups,
    agents,
    domainActions,
    domainActionsSendingDomain,
    actionEndpoint,
    sessionConfig,
  };
}

/** Whether a domain action's options ask for the domain (`send_domain: true`). */
function sendsDomain(options: unknown): boolean {
  return (
    options !== null &&
    typeof options === 'object' &&
    (options as Record<string, unknown>).send_domain === true
  );
}

function add<T>(
  ctx: LoadContext,
  what: string,
  map: Map<string, Defined<T>>,
  name: string,
  entry: Defined<T>,
): void {
  const first = map.get(name);
  if (first) {
    ctx.error(
      entry.source,
      entry.path,
      `${what} "${name}" is defined twice (first at ${ctx.where(first.source, first.path, first.anchor)}); keep one definition`,
      entry.anchor,
    );
    return;
  }
  map.set(name, entry);
}
