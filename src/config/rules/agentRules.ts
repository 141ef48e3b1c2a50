import type { AgentCardSource, ModuleLocation, PromptTemplateFile } from '../../assistant/index.js';
import type { KeyPath } from '../keyPath.js';
import { formatKeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { AgentFile } from '../projectFiles.js';
import type { ProjectIndex } from '../projectIndex.js';
import { didYouMean } from '../zodDiagnostics.js';
import { readAgentCard } from './agentCard.js';
import { checkApiKeyHeaders } from './endpointRules.js';
import { checkExport, checkModelGroup, readPromptTemplate } from './references.js';

/** What checking an agent resolved: its prompt template or its card. */
export interface AgentResources {
  readonly promptTemplate?: PromptTemplateFile;
  readonly agentCard?: AgentCardSource;
}

/** Rules on sub agents that need other files; returns what each agent's files resolved to. */
export async function checkAgents(
  ctx: LoadContext,
  index: ProjectIndex,
  extensions: Map<string, ModuleLocation>,
): Promise<Map<string, AgentResources>> {
  const resources = new Map<string, AgentResources>();
  await Promise.all(
    [...index.agents].map(async ([name, agent]) => {
      resources.set(name, await checkAgent(ctx, index, extensions, agent));
    }),
  );
  return resources;
}

async function checkAgent(
  ctx: LoadContext,
  index: ProjectIndex,
  extensions: Map<string, ModuleLocation>,
  agent: AgentFile,
): Promise<AgentResources> {
  const { source } = agent;
  const name = agent.value.agent.name;
  const flow = index.flows.get(name);
  if (flow) {
    ctx.error(
      source,
      ['agent', 'name'],
      `agent name "${name}" clashes with the flow defined at ${ctx.where(flow.source, flow.path, flow.anchor)}; rename one of them`,
    );
  }
  const module = agent.value.configuration.module;
  const pending: Promise<unknown>[] = [];
  const addExport = (path: KeyPath, modulePath: string, expected: 'class' | 'function') =>
    pending.push(
      checkExport(ctx, source, path, modulePath, expected).then((loc) => {
        if (loc) extensions.set(modulePath, loc);
      }),
    );
  if (module) addExport(['configuration', 'module'], module, 'class');

  if (agent.protocol === 'RASA') {
    const { configuration, connections } = agent.value;
    connections.mcp_servers.forEach((connection, i) => {
      if (ctx.declared.servers.has(connection.name)) return;
      const path = ['connections', 'mcp_servers', i, 'name'];
      ctx.error(
        source,
        path,
        `${formatKeyPath(path)} "${connection.name}" is not an MCP server in endpoints.yml${didYouMean(connection.name, [...ctx.declared.servers])}`,
      );
    });
    checkModelGroup(ctx, source, ['configuration', 'llm'], configuration.llm);
    const template = configuration.prompt_template;
    const promptTemplate = template
      ? await readPromptTemplate(ctx, source, ['configuration', 'prompt_template'], template)
      : undefined;
    await Promise.all(pending);
    return promptTemplate ? { promptTemplate } : {};
  }

  const { configuration } = agent.value;
  if (configuration.pre_call_hook) {
    addExport(['configuration', 'pre_call_hook'], configuration.pre_call_hook, 'function');
  }
  if (configuration.auth)
    checkApiKeyHeaders(ctx, source, ['configuration', 'auth'], configuration.auth);
  const agentCard = await readAgentCard(
    ctx,
    source,
    ['configuration', 'agent_card'],
    configuration.agent_card,
  );
  await Promise.all(pending);
  return agentCard ? { agentCard } : {};
}
